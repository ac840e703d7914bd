import assert from "node:assert/strict";
import { hostsNamed } from "../../../src/chat/approval/judge";
import { ownText } from "../../../src/chat/approval/quoted";
import { fixPrompt } from "../../../src/chat/workspace/problems";

describe("what the person wrote, without what their message quotes", () => {
  it("leaves out fenced code blocks (``` and ~~~, longer fences, an unclosed one to the end) and > quotes", () => {
    const text = [
      "Read https://docs.example/a please.",
      "```js",
      "see https://in-fence.example",
      "```",
      "> quoted https://in-quote.example",
      "````",
      "```",
      "still code https://inner.example",
      "````",
      "~~~",
      "tilde https://tilde.example",
      "~~~",
      "and https://mine.example/b",
      "```",
      "never closed https://open.example",
    ].join("\n");
    assert.equal(ownText(text), "Read https://docs.example/a please.\nand https://mine.example/b");
    assert.deepEqual([...hostsNamed([text])], ["docs.example", "mine.example"]);
  });

  it("a fence is closed only by a bare fence of its character, at least as long", () => {
    const text = [
      "````",
      "```",
      "``` https://not-closing.example",
      "~~~~",
      "````",
      "after https://after.example",
    ].join("\n");
    assert.deepEqual([...hostsNamed([text])], ["after.example"]);
  });

  it("\"Fix with Tandem\" names no host of the repository's: not in the lines, not in the linter's message", () => {
    const prompt = fixPrompt({
      shown: "src/index.js",
      line: 2,
      column: 1,
      severity: "error",
      message: "Cannot find module 'https://attacker.example/lib.js'.\nSee https://attacker.example/help",
      source: "https://attacker.example/rule",
      code: "x",
      language: "javascript",
      lines: ["// https://attacker.example/docs", "x();"],
      first: 1,
    });
    assert.deepEqual([...hostsNamed([prompt])], []);
    assert.match(
      prompt,
      /^Fix this error in src\/index\.js:2:1:\n> https:\/\/attacker\.example\/rule x: Cannot find/,
    );
  });
});
