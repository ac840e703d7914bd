import assert from "node:assert/strict";
import { keyed, stream } from "../../src/markdown";
import { corpus, random } from "../fixtures/markdown-corpus";
import { BlockText } from "../../webview-ui/item-blocks";
import { steps } from "../../webview-ui/plan";
import { inputSummary } from "../../webview-ui/call-summary";

// These parts of the panel are plain code: they run here without a browser.
describe("the panel's replica of an answer's blocks", () => {
  it("equals the whole render after the patches of any split of the corpus", () => {
    const next = random(5);
    for (const [n, text] of corpus.entries()) {
      for (let round = 0; round < 5; round++) {
        const markdown = stream(`i${n}`);
        const replica = new BlockText();
        let end = 0;
        while (end < text.length) {
          end = Math.min(text.length, end + 1 + Math.floor(next() * 12));
          replica.apply(markdown.update(text.slice(0, end)));
        }
        replica.apply(markdown.end());
        assert.deepEqual(
          replica.html,
          keyed(text, `i${n}`).map((b) => b.html),
          `corpus ${n}, round ${round}`,
        );
      }
    }
  });

  it("answers the indexes a patch changed and refuses one that does not fit, keeping its blocks", () => {
    const replica = new BlockText([{ key: "a.0", html: "<p>one</p>" }]);
    assert.deepEqual(replica.apply({ key: "a", count: 2, blocks: [{ index: 1, html: "<p>tw" }] }), [1]);
    assert.deepEqual(
      replica.apply({ key: "a", count: 2, blocks: [{ index: 1, html: "o</p>", at: 5 }] }),
      [1],
    );
    assert.deepEqual(replica.html, ["<p>one</p>", "<p>two</p>"]);
    assert.throws(() => replica.apply({ key: "a", count: 9, blocks: [{ index: 7, html: "<p>far</p>" }] }), {
      name: "PatchError",
      message: "patch for a leaves a gap",
    });
    assert.throws(() => replica.apply({ key: "a", count: 2, blocks: [{ index: 0, html: "x", at: 99 }] }), {
      name: "PatchError",
      message: "change past the end of block a.0",
    });
    assert.deepEqual(replica.html, ["<p>one</p>", "<p>two</p>"], "a refused patch changes nothing");
    assert.deepEqual(replica.apply({ key: "a", count: 1, blocks: [] }), []);
    assert.deepEqual(replica.html, ["<p>one</p>"]);
  });
});

describe("what items show beside their text", () => {
  it("summarizes a call's input by its values", () => {
    assert.equal(inputSummary('{"path":"src/a.ts","line":3}'), "path: src/a.ts, line: 3");
    assert.equal(inputSummary("not json\n  at all"), "not json at all");
    assert.equal(inputSummary(JSON.stringify({ text: "x".repeat(200) })).length, 80);
  });

  it("reads the plan's checklist", () => {
    assert.deepEqual(steps("- [x] Read\n- [ ] Split\n* [X] Test\n1. Ship\nnot a step"), [
      { text: "Read", done: true },
      { text: "Split", done: false },
      { text: "Test", done: true },
      { text: "Ship", done: false },
    ]);
  });
});
