import assert from "node:assert/strict";
import { reason } from "../../../src/protocol/reason";

describe("protocol: the text of what was thrown, one rule", () => {
  it("says an error's message, or its name when the message is empty", () => {
    assert.equal(reason(new Error("the file does not exist")), "the file does not exist");
    assert.equal(reason(new TypeError("")), "TypeError");
  });

  it("says a thrown string as it is, and anything else as its JSON", () => {
    assert.equal(reason("timed out"), "timed out");
    assert.equal(reason({ code: 42 }), '{"code":42}');
    assert.equal(reason(undefined), "undefined");
  });

  it("says something for a circular object or a bigint instead of throwing itself", () => {
    const circular: { self?: unknown } = {};
    circular.self = circular;
    assert.equal(reason(circular), "[object Object]");
    assert.equal(reason(10n), "10");
  });
});
