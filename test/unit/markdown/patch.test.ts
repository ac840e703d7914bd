import assert from "node:assert/strict";
import { apply, coalesce, merge, patch } from "../../../src/markdown";
import type { Block, Patch } from "../../../src/protocol/blocks";

const blocks = (...html: string[]): Block[] => html.map((h, i) => ({ key: `k.${i}`, html: h }));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits until DONE holds, for at most two seconds (a loaded machine runs timers late). */
async function until(done: () => boolean): Promise<void> {
  for (const start = Date.now(); !done() && Date.now() - start < 2000;) await sleep(5);
}

describe("patch", () => {
  it("gives only the appended part of a block that grew, replaces others, and the count", () => {
    const before = blocks("<p>a</p>\n", "<p>Hello", "<p>x");
    const after = blocks("<p>a</p>\n", "<p>Hello world", "<ul>\n<li>y", "<p>z");
    const p = patch(before, after, "k");
    assert.deepEqual(p, {
      key: "k",
      count: 4,
      blocks: [
        { index: 1, html: " world", at: 8 },
        { index: 2, html: "<ul>\n<li>y" },
        { index: 3, html: "<p>z" },
      ],
    });
    assert.deepEqual(apply(before, p), after);
  });

  it("drops the blocks past the count", () => {
    const before = blocks("<p>a", "<p>b", "<p>c");
    const after = blocks("<p>a b");
    assert.deepEqual(apply(before, patch(before, after, "k")), after);
  });

  it("keeps the start a block shares with its new HTML and sends the rest", () => {
    const before = blocks("<p>Some words and **bo", "<p>x");
    const after = blocks("<p>Some words and <strong>bold", "<p>x");
    const p = patch(before, after, "k");
    assert.deepEqual(p.blocks, [{ index: 0, html: "<strong>bold", at: 18 }]);
    assert.deepEqual(apply(before, p), after);
  });

  it("refuses a patch that changes a block the replica lacks, or past its end", () => {
    assert.throws(
      () => apply([], { key: "k", count: 1, blocks: [{ index: 0, html: "x", at: 0 }] }),
      /past the end/,
    );
    assert.throws(
      () => apply(blocks("<p>"), { key: "k", count: 1, blocks: [{ index: 0, html: "x", at: 4 }] }),
      /past the end/,
    );
    assert.throws(() => apply([], { key: "k", count: 2, blocks: [{ index: 1, html: "x" }] }), /gap/);
  });

  it("merges two patches into one with the same effect", () => {
    const start = blocks("<p>a", "<p>b", "<p>c");
    const middle = blocks("<p>a!", "<p>B", "<p>c");
    const end = blocks("<p>a!?", "<p>B.", "<p>c", "<p>d");
    const merged = merge(patch(start, middle, "k"), patch(middle, end, "k"));
    assert.deepEqual(apply(start, merged), end);
    assert.deepEqual(merged.blocks[0], { index: 0, html: "!?", at: 4 });
    // A later change that keeps less than an earlier one kept wins alone; one that keeps more
    // carries the earlier one's HTML up to where it starts.
    const word = blocks("<p>Some words and **bo");
    const bold = blocks("<p>Some words and <strong>bo");
    const bolder = blocks("<p>Some words and <strong>bold</strong>");
    const two = merge(patch(word, bold, "k"), patch(bold, bolder, "k"));
    assert.deepEqual(two.blocks, [{ index: 0, html: "<strong>bold</strong>", at: 18 }]);
    assert.deepEqual(apply(word, two), bolder);
    const back = blocks("<p>S");
    assert.deepEqual(apply(word, merge(patch(word, bold, "k"), patch(bold, back, "k"))), back);
    const shrunk = merge(patch(end, middle, "k"), patch(middle, blocks("<p>a"), "k"));
    assert.deepEqual(apply(end, shrunk), blocks("<p>a"));
  });
});

describe("coalesce", () => {
  it("sends the first patch at once and merges the rest of the frame into one", async () => {
    const sent: Patch[] = [];
    const sender = coalesce((p) => sent.push(p), 30);
    let state = blocks("<p>a");
    let replica: Block[] = state;
    const step = (next: Block[]) => {
      sender.push(patch(state, next, "k"));
      state = next;
    };
    step(blocks("<p>a"));
    step(blocks("<p>ab"));
    step(blocks("<p>abc"));
    step(blocks("<p>abc", "<p>d"));
    assert.equal(sent.length, 1);
    await until(() => sent.length > 1);
    assert.equal(sent.length, 2);
    for (const p of sent) replica = apply(replica, p);
    assert.deepEqual(replica, state);
    assert.deepEqual(sent[1].blocks, [
      { index: 0, html: "bc", at: 4 },
      { index: 1, html: "<p>d" },
    ]);
    sender.dispose();
  });

  it("keeps items apart and sends what waits on flush", () => {
    const sent: Patch[] = [];
    const sender = coalesce((p) => sent.push(p), 1000);
    sender.push({ key: "a", count: 1, blocks: [{ index: 0, html: "1" }] });
    sender.push({ key: "b", count: 1, blocks: [{ index: 0, html: "2" }] });
    sender.push({ key: "a", count: 1, blocks: [{ index: 0, html: "3", at: 1 }] });
    assert.deepEqual(
      sent.map((p) => p.key),
      ["a", "b"],
    );
    sender.dispose();
    assert.deepEqual(sent[2], { key: "a", count: 1, blocks: [{ index: 0, html: "3", at: 1 }] });
    sender.push({ key: "c", count: 0, blocks: [] });
    assert.equal(sent.length, 4);
    sender.dispose();
  });

  it("sends no patch that changes nothing, but one that drops blocks", () => {
    const sent: Patch[] = [];
    const sender = coalesce((p) => sent.push(p), 0);
    sender.push({ key: "a", count: 2, blocks: [{ index: 1, html: "x" }] });
    sender.push({ key: "a", count: 2, blocks: [] });
    sender.flush();
    assert.equal(sent.length, 1);
    sender.push({ key: "a", count: 1, blocks: [] });
    sender.flush();
    assert.deepEqual(sent[1], { key: "a", count: 1, blocks: [] });
    sender.dispose();
  });
});
