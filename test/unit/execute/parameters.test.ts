/** Model parameters and memory strategy: bounds, types and both spellings, as pydantic reports them. */
import assert from "node:assert/strict";
import { outcome, problems, valid, withParameters } from "./requests";

describe("execute: parameter conformance", () => {
  it("checks the temperature is between 0 and 1", async () => {
    const high = await outcome(withParameters({ temperature: 1.5 }));
    assert.equal(high.status, 422);
    assert.deepEqual(high.body, {
      detail: [
        {
          type: "less_than_equal",
          loc: ["body", "model_parameters", "temperature"],
          msg: "Input should be less than or equal to 1",
          input: 1.5,
          ctx: { le: 1 },
        },
      ],
    });
    assert.deepEqual(await problems(withParameters({ temperature: -0.1 })), [
      [["body", "model_parameters", "temperature"], "greater_than_equal"],
    ]);
    assert.deepEqual(await problems(withParameters({ temperature: "hot" })), [
      [["body", "model_parameters", "temperature"], "float_parsing"],
    ]);
    assert.deepEqual(await problems(withParameters({ temperature: null })), [
      [["body", "model_parameters", "temperature"], "float_type"],
    ]);
    for (const temperature of [0, 1, "0.5"])
      assert.equal((await outcome(withParameters({ temperature }))).status, 200);
  });

  it("allows at most 4 stop sequences, each a string", async () => {
    const out = await outcome(withParameters({ stop_sequences: ["a", "b", "c", "d", "e"] }));
    assert.equal(out.status, 422);
    assert.deepEqual(out.body, {
      detail: [
        {
          type: "too_long",
          loc: ["body", "model_parameters", "stop_sequences"],
          msg: "List should have at most 4 items after validation, not 5",
          input: ["a", "b", "c", "d", "e"],
          ctx: { field_type: "List", max_length: 4, actual_length: 5 },
        },
      ],
    });
    assert.deepEqual(await problems(withParameters({ stop_sequences: [1] })), [
      [["body", "model_parameters", "stop_sequences", 0], "string_type"],
    ]);
    assert.equal((await outcome(withParameters({ stop_sequences: ["a", "b", "c", "d"] }))).status, 200);
  });

  it("checks the integer and number parameters in both spellings, and reasoning_effort", async () => {
    assert.deepEqual(
      await problems(
        withParameters({
          max_tokens: 1.5,
          topP: "x",
          topK: "3.5",
          top_p: [],
          top_k: "k",
          frequency_penalty: {},
          presence_penalty: "p",
          reasoning_effort: "max",
        }),
      ),
      [
        [["body", "model_parameters", "max_tokens"], "int_from_float"],
        [["body", "model_parameters", "topP"], "float_parsing"],
        [["body", "model_parameters", "topK"], "int_parsing"],
        [["body", "model_parameters", "top_p"], "float_type"],
        [["body", "model_parameters", "top_k"], "int_parsing"],
        [["body", "model_parameters", "frequency_penalty"], "float_type"],
        [["body", "model_parameters", "presence_penalty"], "float_parsing"],
        [["body", "model_parameters", "reasoning_effort"], "literal_error"],
      ],
    );
    assert.deepEqual(await problems(withParameters("hot")), [
      [["body", "model_parameters"], "model_attributes_type"],
    ]);
  });

  it("checks last_k: its name, and k an integer of at least 1", async () => {
    const memory = (memory_strategy: unknown) => ({ ...valid(), memory_strategy });
    const zero = await outcome(memory({ name: "last_k", params: { k: 0 } }));
    assert.equal(zero.status, 422);
    assert.deepEqual(zero.body, {
      detail: [
        {
          type: "greater_than_equal",
          loc: ["body", "memory_strategy", "params", "k"],
          msg: "Input should be greater than or equal to 1",
          input: 0,
          ctx: { ge: 1 },
        },
      ],
    });
    assert.deepEqual(await problems(memory({ name: "last_n", params: { k: 2 } })), [
      [["body", "memory_strategy", "name"], "literal_error"],
    ]);
    assert.deepEqual(await problems(memory({})), [[["body", "memory_strategy", "params"], "missing"]]);
    assert.deepEqual(await problems(memory({ params: {} })), [
      [["body", "memory_strategy", "params", "k"], "missing"],
    ]);
    assert.deepEqual(await problems(memory({ params: { k: 1.5 } })), [
      [["body", "memory_strategy", "params", "k"], "int_from_float"],
    ]);
    assert.deepEqual(await problems(memory(5)), [[["body", "memory_strategy"], "model_attributes_type"]]);
    assert.equal((await outcome(memory({ params: { k: 1 } }))).status, 200);
  });
});
