import assert from "node:assert/strict";
import { rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { asked, conversation, item } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { Store } from "../../../src/chat/store/store";
import { HISTORY } from "./history-shape";

/**
 * The history phases' first: a large history written with Tandem's own store, into a folder of the
 * harness's (Tandem's store of this workspace is open in this window, and a store has one writer); the
 * harness moves it into the store folder of this workspace, which this test learns, once the window is gone.
 */
describe("a workspace with a large history, written", () => {
  it(`writes ${HISTORY.items} items in ${HISTORY.conversations} conversations`, async function () {
    this.timeout(180_000);
    const ext = vscode.extensions.getExtension<{ storeFolder(): string }>("tandem-dev.tandem")!;
    await ext.activate();
    const dir = process.env.TANDEM_HISTORY_DIR;
    assert.ok(dir, "TANDEM_HISTORY_DIR is set by the harness");
    const stage = join(dir, "store");
    rmSync(stage, { recursive: true, force: true });
    const started = performance.now();
    const store = await Store.open(stage, { keepClosed: 0 });
    assert.equal(store.writable, true);
    const each = HISTORY.items / HISTORY.conversations;
    for (let c = 0; c < HISTORY.conversations; c++) {
      const chat = conversation("", HISTORY.title(c));
      store.put("conversations", chat);
      const release = store.hold(chat.id);
      for (let i = 0; i < each; i++) store.put("items", row(chat.id, c, i, i === each - 1));
      release();
    }
    await store.flush();
    await store.close();
    // What is on disk, read again: every conversation and every item.
    const written = await Store.open(stage, { keepClosed: 0 });
    try {
      assert.equal(written.conversations().length, HISTORY.conversations);
      assert.equal(written.count("items"), HISTORY.items);
    } finally {
      await written.close();
    }
    console.log(`history: ${HISTORY.items} items written in ${Math.round(performance.now() - started)} ms`);
    writeFileSync(join(dir, "folder.txt"), ext.exports.storeFolder());
  });
});

/** The `i`th item of the conversation number `c`: a question, an answer, a tool call and its answer, again. */
function row(chat: string, c: number, i: number, last: boolean): Item {
  if (last) return { ...item("text", HISTORY.lastAnswer(c), chat), done: true };
  switch (i % 4) {
    case 0:
      return { ...asked(`Question ${i} about the parser in conversation ${c}?`, chat), done: true };
    case 1:
      return { ...item("text", `Let me read the file first (step ${i}).`, chat), done: true };
    case 2:
      return {
        ...item("call", "", chat),
        name: "read_file",
        input: JSON.stringify({ path: `src/parser/part-${i % 17}.ts` }),
        output: `export function part${i % 17}() { return ${i}; }`,
        state: "done",
        done: true,
      };
    default:
      return {
        ...item("text", `The parser's part ${i % 17} returns ${i}; nothing else reads it.`, chat),
        done: true,
      };
  }
}
