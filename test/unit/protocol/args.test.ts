import assert from "node:assert/strict";
import { argsOf, argsOrEmpty, argText, readArgs } from "../../../src/protocol/args";

describe("protocol: a tool call's arguments, one rule", () => {
  it('reads blank arguments as an empty record (some models send "" for a tool without arguments)', () => {
    assert.deepEqual(readArgs(""), { ok: true, args: {} });
    assert.deepEqual(readArgs("  \n"), { ok: true, args: {} });
  });

  it("reads a JSON object as its record, spaces around it allowed", () => {
    assert.deepEqual(readArgs(' {"path": "a.ts", "n": 2} '), { ok: true, args: { path: "a.ts", n: 2 } });
  });

  it("answers invalid JSON with a reason that quotes what was sent", () => {
    const read = readArgs('{"path":');
    assert.equal(read.ok, false);
    assert.match(read.ok ? "" : read.error, /^The arguments are not valid JSON \(.+\): \{"path":$/);
  });

  it("answers JSON that is not an object with what it is instead", () => {
    const errors = ["[1,2]", "null", "5", '"a.ts"', "true"].map((text) => {
      const read = readArgs(text);
      return read.ok ? "read" : read.error;
    });
    assert.deepEqual(errors, [
      "The arguments must be a JSON object, not a list: [1,2]",
      "The arguments must be a JSON object, not null: null",
      "The arguments must be a JSON object, not a number: 5",
      'The arguments must be a JSON object, not a string: "a.ts"',
      "The arguments must be a JSON object, not a boolean: true",
    ]);
  });

  it("cuts a long text in the reason", () => {
    const read = readArgs(`[${"1,".repeat(500)}1]`);
    assert.ok(!read.ok && read.error.length < 300 && read.error.endsWith("…"));
  });

  it('throws the reason for a tool, and gives {} or "" where a call is only shown', () => {
    assert.throws(() => argsOf("[1]"), /must be a JSON object, not a list/);
    assert.deepEqual(argsOf(""), {});
    assert.deepEqual(argsOrEmpty("{oops"), {});
    assert.deepEqual(argsOrEmpty("[1]"), {});
    assert.equal(argText('{"path": " src/a.ts "}', "path"), "src/a.ts");
    assert.equal(argText('{"path": 3}', "path"), "");
    assert.equal(argText("not json", "path"), "");
  });
});
