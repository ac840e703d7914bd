import assert from "node:assert/strict";
import { existsSync, readFileSync } from "node:fs";
import * as vscode from "vscode";
import type { Store } from "../../../src/chat/store/store";
import { until } from "./wait";
import { panelText } from "./person";

/** Every item of every conversation (a store reads a conversation's items when asked for them). */
const everyItem = (store: Store) => store.conversations().flatMap((c) => store.items(c.id));

const api = () =>
  vscode.extensions.getExtension<{ conversations(): Promise<{ store: Store }> }>("tandem-dev.tandem")!
    .exports;

/** The second phase: the same workspace opened again after the first phase's window went away. */
describe("after a window reload", () => {
  it("keeps every conversation and its answers", async () => {
    await vscode.extensions.getExtension("tandem-dev.tandem")!.activate();
    const { store } = await api().conversations();
    const items = everyItem(store);
    const texts = items.map((i) => i.text);
    assert.ok(texts.includes("Hello panel"), "the first message is still there");
    assert.ok(
      texts.some((t) => t.includes("Hi") && t.includes("from the panel test")),
      "its answer too",
    );
    assert.ok(items.some((i) => i.kind === "call" && i.name === "create_file" && i.state === "done"));
  });

  it("marks the answer the reload cut off as interrupted, and does not answer it again by itself", async () => {
    const { store } = await api().conversations();
    const cut = everyItem(store).find((i) => i.kind === "text" && i.text.includes("first half"));
    assert.ok(cut, "the cut answer is kept");
    assert.equal(cut.done, true);
    const after = store.items(cut.chat).filter((i) => i.id > cut.id);
    assert.ok(
      after.some((i) => i.kind === "error" && /interrupted/i.test(i.text)),
      JSON.stringify(after),
    );
    assert.equal(
      store.items(cut.chat).filter((i) => i.kind === "user" && i.text === "Start a long answer").length,
      1,
    );
  });

  it("shows the conversation in the panel again", async () => {
    await vscode.commands.executeCommand("tandem.chatView.focus");
    const shown = await until(
      async () => {
        const t = await panelText();
        return /first half/.test(t) ? t : undefined;
      },
      30_000,
      "the conversation in the panel",
    );
    assert.match(shown, /Interrupted/i);
  });

  it("keeps the agent's pending changes, and undoing a created one removes the file", async () => {
    const ext = vscode.extensions.getExtension<{
      pending(): Promise<Array<{ path: string; shown: string }>>;
    }>("tandem-dev.tandem")!.exports;
    const files = await until(
      async () => {
        const list = await ext.pending();
        return list.length ? list : undefined;
      },
      20_000,
      "the pending list",
    );
    const created = files.find((f) => f.shown === "pending/created.txt");
    assert.ok(created, JSON.stringify(files));
    assert.equal(readFileSync(created.path, "utf8"), "made before the reload\n");
    await vscode.commands.executeCommand("tandem.pending.undoFile", created.path);
    assert.equal(existsSync(created.path), false);
    assert.ok(!(await ext.pending()).some((f) => f.shown === "pending/created.txt"));
  });
});
