/** Reading a body as FastAPI does: the reason and position Python's json gives for a body that is not JSON. */
import assert from "node:assert/strict";
import { readBody } from "../../../src/execute";

// Each text, with the reason and the character position Python's json.loads reports for it.
const broken: [text: string, reason: string, at: number][] = [
  ['{"a":}', "Expecting value", 5],
  ['{"a" 1}', "Expecting ':' delimiter", 5],
  ["[1,]", "Expecting value", 3],
  ['{"a":1,}', "Expecting property name enclosed in double quotes", 7],
  ["{a:1}", "Expecting property name enclosed in double quotes", 1],
  ['"abc', "Unterminated string starting at", 0],
  ['{"a": "x', "Unterminated string starting at", 6],
  ["[1 2]", "Expecting ',' delimiter", 3],
  ['{"a": [1, 2', "Expecting ',' delimiter", 11],
  ['{"a":1 "b":2}', "Expecting ',' delimiter", 7],
  ['{"a":1} x', "Extra data", 8],
  ['["a"]]', "Extra data", 5],
  ["  ", "Expecting value", 2],
  ["tru", "Expecting value", 0],
  ['{"a":"\\x"}', "Invalid \\escape", 6],
  ['{"a":"\\u12"}', "Invalid \\uXXXX escape", 7],
  ['{"a":"b\nc"}', "Invalid control character at", 7],
  ['{"é😀":}', "Expecting value", 6],
];

describe("execute: reading the body", () => {
  for (const [text, reason, at] of broken)
    it(`reports ${JSON.stringify(text)} as "${reason}" at ${at}`, () => {
      assert.deepEqual(readBody(Buffer.from(text), "application/json"), {
        ok: false,
        status: 422,
        problem: {
          type: "json_invalid",
          loc: ["body", at],
          msg: "JSON decode error",
          input: {},
          ctx: { error: reason },
        },
      });
    });

  it("reads JSON when the content type is JSON, +json or absent, and text otherwise", () => {
    const text = '{"a": 1}';
    for (const type of [
      "application/json",
      "application/json; charset=utf-8",
      "application/merge+json",
      undefined,
    ])
      assert.deepEqual(readBody(Buffer.from(text), type), { ok: true, value: { a: 1 } });
    assert.deepEqual(readBody(Buffer.from(text), "text/plain"), { ok: true, value: text });
    assert.deepEqual(readBody(Buffer.from("not json"), "text/plain"), { ok: true, value: "not json" });
  });

  it("gives no value for an empty body, and 400 for one that is not UTF-8", () => {
    assert.deepEqual(readBody(Buffer.alloc(0), "application/json"), { ok: true, value: undefined });
    assert.deepEqual(readBody(Buffer.from([0x7b, 0xc3, 0x28, 0x7d]), "application/json"), {
      ok: false,
      status: 400,
      problem: "There was an error parsing the body",
    });
  });

  it("reports a nesting too deep to scan without failing", () => {
    const deep = "[".repeat(200_000);
    const read = readBody(Buffer.from(deep), "application/json");
    assert.equal(read.ok, false);
    if (!read.ok) assert.equal(typeof read.problem === "object" && read.problem.type, "json_invalid");
  });
});
