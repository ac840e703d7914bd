/** The API document's request rules, each answered with FastAPI/pydantic's exact 422. */
import assert from "node:assert/strict";
import { says, scripted } from "../../../src/agent";
import { check, DEFAULT_INSTRUCTIONS, execute, OpenExecuteAgentRequest } from "../../../src/execute";
import { outcome, problems, valid, withParameters, type Json } from "./requests";

describe("execute: request conformance", () => {
  it("accepts the document's own example request", async () => {
    const out = await outcome({
      messages: [{ content: "string", role: "user" }],
      model: "gpt-4",
      tools: [{ arguments: { type: "object" }, description: "description", name: "name" }],
    });
    assert.deepEqual(out, {
      status: 200,
      body: { action: "content", context: { content: "Sunny.", tool_request: null } },
    });
  });

  it("uses the document's default instructions, the two paragraphs joined by one newline", async () => {
    const model = scripted([says("ok")]);
    await execute(valid(), { resolve: () => model });
    assert.equal(model.requests[0].instructions, DEFAULT_INSTRUCTIONS);
    assert.ok(
      DEFAULT_INSTRUCTIONS.startsWith(
        "You are an AI assistant that helps users with their questions. You can answer",
      ),
    );
    assert.ok(
      DEFAULT_INSTRUCTIONS.includes(
        "to the best of your knowledge.\nWhen asked about what tools are available",
      ),
    );
    assert.ok(DEFAULT_INSTRUCTIONS.endsWith("other than the ones provided to you explicitly."));
    assert.equal(DEFAULT_INSTRUCTIONS.split("\n").length, 2);
    assert.doesNotMatch(DEFAULT_INSTRUCTIONS, / {2}/);
  });

  it("defaults the temperature to 0.2, with or without model_parameters", async () => {
    for (const body of [valid(), withParameters({}), withParameters({ max_tokens: 5 })]) {
      const model = scripted([says("ok")]);
      await execute(body, { resolve: () => model });
      assert.equal(model.requests[0].parameters?.temperature, 0.2);
    }
  });

  it("reports each missing required field, with the object as input", async () => {
    const out = await outcome({});
    assert.equal(out.status, 422);
    assert.deepEqual(out.body, {
      detail: [
        { type: "missing", loc: ["body", "model"], msg: "Field required", input: {} },
        { type: "missing", loc: ["body", "tools"], msg: "Field required", input: {} },
        { type: "missing", loc: ["body", "messages"], msg: "Field required", input: {} },
      ],
    });
  });

  it("reports a body that is not an object, and no body at all", async () => {
    assert.deepEqual(await problems([]), [[["body"], "model_attributes_type"]]);
    assert.deepEqual(await problems("text"), [[["body"], "model_attributes_type"]]);
    assert.deepEqual(await problems(undefined), [[["body"], "missing"]]);
    assert.deepEqual(await problems(null), [[["body"], "missing"]]);
  });

  it("refuses a model that is neither the document's nor the person's, listing the document's", async () => {
    const out = await outcome({ ...valid(), model: "gpt-5" });
    assert.equal(out.status, 422);
    const [entry] = out.status === 422 ? out.body.detail : [];
    assert.deepEqual(entry.loc, ["body", "model"]);
    assert.equal(entry.type, "literal_error");
    assert.equal(
      entry.msg,
      "Input should be 'gpt-4', 'gpt-4-0613', 'gpt-4-32k', 'gpt-4-32k-0613', 'gpt-3.5-turbo', " +
        "'gpt-3.5-turbo-0613', 'gpt-3.5-turbo-16k', 'gpt-3.5-turbo-16k-0613', 'claude-instant-1', " +
        "'claude-instant-1.1', 'claude-2' or 'claude-2.0'",
    );
    assert.deepEqual(await problems({ ...valid(), model: 4 }), [[["body", "model"], "literal_error"]]);
  });

  it("accepts a model id of the person's catalogue", async () => {
    const out = await outcome({ ...valid(), model: "local" });
    assert.equal(out.status, 200);
  });

  it("answers 503 for a document model name the person has not mapped", async () => {
    const out = await execute(valid(), { resolve: () => undefined });
    assert.equal(out.status, 503);
    assert.match(JSON.stringify(out.body), /no model for \\"gpt-4\\"/);
  });

  it("checks tools: a list, of objects, with name, description and arguments", async () => {
    assert.deepEqual(await problems({ ...valid(), tools: "x" }), [[["body", "tools"], "list_type"]]);
    assert.deepEqual(await problems({ ...valid(), tools: [7] }), [
      [["body", "tools", 0], "model_attributes_type"],
    ]);
    assert.deepEqual(await problems({ ...valid(), tools: [{}] }), [
      [["body", "tools", 0, "name"], "missing"],
      [["body", "tools", 0, "description"], "missing"],
      [["body", "tools", 0, "arguments"], "missing"],
    ]);
  });

  it("checks a tool's name against ^[a-zA-Z0-9_-]{1,64}$", async () => {
    const named = (name: string) => ({
      ...valid(),
      tools: [{ name, description: "d", arguments: { type: "object" } }],
    });
    for (const name of ["bad name", "", "a".repeat(65), "dot.ted"]) {
      const out = await outcome(named(name));
      assert.equal(out.status, 422);
      assert.deepEqual(out.body, {
        detail: [
          {
            type: "string_pattern_mismatch",
            loc: ["body", "tools", 0, "name"],
            msg: "String should match pattern '^[a-zA-Z0-9_-]{1,64}$'",
            input: name,
            ctx: { pattern: "^[a-zA-Z0-9_-]{1,64}$" },
          },
        ],
      });
    }
    assert.equal((await outcome(named("a".repeat(64)))).status, 200);
    assert.equal((await outcome(named("get-weather_2"))).status, 200);
  });

  it("requires tool names to be unique in a request", async () => {
    const tool = { name: "same", description: "d", arguments: { type: "object" } };
    const out = await outcome({ ...valid(), tools: [tool, { ...tool, name: "other" }, tool] });
    assert.equal(out.status, 422);
    const [entry] = out.status === 422 ? out.body.detail : [];
    assert.deepEqual(
      [entry.loc, entry.type, entry.input],
      [["body", "tools", 2, "name"], "value_error", "same"],
    );
    assert.match(entry.msg, /^Value error, tool names must be unique/);
  });

  it("checks a tool's arguments: type 'object', properties with a type and a description", async () => {
    const tool = (args: unknown) => ({
      ...valid(),
      tools: [{ name: "t", description: "d", arguments: args }],
    });
    assert.deepEqual(await problems(tool(5)), [[["body", "tools", 0, "arguments"], "model_attributes_type"]]);
    assert.deepEqual(await problems(tool({})), [[["body", "tools", 0, "arguments", "type"], "missing"]]);
    assert.deepEqual(await problems(tool({ type: "obj" })), [
      [["body", "tools", 0, "arguments", "type"], "literal_error"],
    ]);
    assert.deepEqual(await problems(tool({ type: "object", properties: [] })), [
      [["body", "tools", 0, "arguments", "properties"], "dict_type"],
    ]);
    assert.deepEqual(await problems(tool({ type: "object", properties: { a: 5 } })), [
      [["body", "tools", 0, "arguments", "properties", "a"], "model_attributes_type"],
    ]);
    assert.deepEqual(await problems(tool({ type: "object", properties: { a: { type: "str" } } })), [
      [["body", "tools", 0, "arguments", "properties", "a", "type"], "literal_error"],
      [["body", "tools", 0, "arguments", "properties", "a", "description"], "missing"],
    ]);
    assert.deepEqual(
      await problems(
        tool({
          type: "object",
          properties: { a: { type: "string", description: "x", default: 5, examples: [1] } },
        }),
      ),
      [
        [["body", "tools", 0, "arguments", "properties", "a", "default"], "string_type"],
        [["body", "tools", 0, "arguments", "properties", "a", "examples", 0], "string_type"],
      ],
    );
    assert.deepEqual(await problems(tool({ type: "object", required: "a" })), [
      [["body", "tools", 0, "arguments", "required"], "list_type"],
    ]);
  });

  it("checks the instructions are a string", async () => {
    assert.deepEqual(await problems({ ...valid(), instructions: 5 }), [
      [["body", "instructions"], "string_type"],
    ]);
  });

  it("lists every problem of a request, in the document's field order", async () => {
    assert.deepEqual(
      await problems({
        model: "x",
        tools: [{ name: "a b", description: "d", arguments: {} }],
        messages: [{}],
      }),
      [
        [["body", "model"], "literal_error"],
        [["body", "tools", 0, "name"], "string_pattern_mismatch"],
        [["body", "tools", 0, "arguments", "type"], "missing"],
        [["body", "messages", 0], "union_tag_not_found"],
      ],
    );
  });

  it("gives the value zod itself gives for a valid request: defaults filled, unknown fields dropped", () => {
    const bodies: Json[] = [
      valid(),
      { ...valid(), extra: true, model_parameters: { temperature: 1, topK: 3, stop_sequences: [] } },
      {
        ...valid(),
        memory_strategy: { params: { k: 3 } },
        instructions: "Be brief.",
        messages: [
          { role: "system", content: "s", extra: 1 },
          {
            role: "user",
            content: [
              { type: "text", text: "t" },
              { type: "image_data", image_data: { media_type: "image/png", data: "AA" } },
            ],
          },
          { role: "agent", tool_request: { name: "get_weather", arguments: "{}" } },
          { role: "tool", name: "get_weather", content: "ok" },
          { role: "assistant", content: "done" },
        ],
      },
    ];
    for (const body of bodies) {
      const checked = check(OpenExecuteAgentRequest, body, ["body"]);
      assert.ok(checked.ok);
      assert.deepEqual(checked.value, OpenExecuteAgentRequest.parse(body));
    }
  });

  it("ignores fields the document does not name", async () => {
    const out = await outcome({
      ...valid(),
      extra: 1,
      messages: [{ role: "user", content: "hi", name: "x" }],
    });
    assert.equal(out.status, 200);
  });
});
