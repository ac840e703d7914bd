import assert from "node:assert/strict";
import { judgeCommand } from "../../../src/chat/workspace/command-rules";
import { HOSTILE_LINES, naivePrefixMatcherBefore, RULES } from "./attacks-commands";

describe("the command attacks: what a naive prefix matcher let by, the parsed rules do not", () => {
  for (const [what, line] of HOSTILE_LINES) {
    it(`${what}: ${JSON.stringify(line)}`, () => {
      assert.equal(naivePrefixMatcherBefore(line), true, "the naive matcher would have run it unasked");
      assert.notEqual(judgeCommand(line, RULES).verdict, "allowed");
    });
  }

  it("both allow the plain line itself", () => {
    assert.equal(naivePrefixMatcherBefore("npm test"), true);
    assert.equal(judgeCommand("npm test", RULES).verdict, "allowed");
  });
});
