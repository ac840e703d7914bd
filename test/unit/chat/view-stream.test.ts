// The streaming path from the runner to the panel: the runner appends a delta to the store, the
// store's change carries it, and the panel's stream appends it — it never reads the answer before
// it. What the panel shows after any deltas (and a text taken back) is the whole text rendered.
import assert from "node:assert/strict";
import { Answer } from "../../../src/chat/runner/answer-items";
import { ItemStreams } from "../../../src/chat/panel/item-streams";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import { asked, conversation, item } from "../../../src/chat/make";
import type { Change, Store } from "../../../src/chat/store";
import { apply, keyed } from "../../../src/markdown";
import type { Block, Patch } from "../../../src/protocol/blocks";
import type { Piece } from "../../../src/agent/types";
import { BlockText } from "../../../webview-ui/item-blocks";
import { answer, random, split } from "../../fixtures/markdown-corpus";
import { storeFolder } from "./store-fixture";

/** A conversation with one question, and the answer the runner writes to it. */
function question(store: Store): { chat: string; answer: Answer } {
  const chat = conversation("", "streaming");
  store.put("conversations", chat);
  const user = asked("Tell me", chat.id, "m");
  store.put("items", user);
  return { chat: chat.id, answer: new Answer(store, chat.id, user.id, "m") };
}

/** A panel replica built with the panel's own code from what the host half sends it. */
function panel(): ViewHost & { blocks: Map<string, BlockText> } {
  const blocks = new Map<string, BlockText>();
  return {
    blocks,
    send(message) {
      const copy = JSON.parse(JSON.stringify(message)) as typeof message;
      if (copy.type === "snapshot" || copy.type === "opened")
        for (const [id, b] of Object.entries(copy.blocks)) blocks.set(id, new BlockText(b));
      if (copy.type === "blocks") {
        const text = blocks.get(copy.patch.key) ?? new BlockText();
        text.apply(copy.patch);
        blocks.set(copy.patch.key, text);
      }
    },
    choices: async () => [],
    defaultModel: async () => "m",
    pickFiles: async () => [],
    dropped: async () => [],
    code: () => undefined,
    openLink: () => undefined,
    openFile: () => undefined,
    command: () => undefined,
    pluginKey: async () => undefined,
  };
}

/** Code fences opened and closed across deltas, lists and tables, then the corpus's long answer. */
const DOCUMENT =
  "Here is the plan:\n\n- first **step**\n- second `step()`\n  - nested\n\n1. one\n2. two\n\n" +
  "| a | b |\n|---|:-:|\n| `x` | 1 |\n| y | 2 |\n\n```ts\nconst a = 1;\n\n```\n\n~~~\nraw ``` inside\n~~~\n\n" +
  "> quoted\n\nDone [link](https://example.com).\n\n" +
  answer(5, 4000, 2);

describe("streaming from the runner to the panel", () => {
  const folder = storeFolder("tandem-view-stream-");

  it("tells followers what a delta appended, and keeps the whole text in the journal", async () => {
    const store = await folder.opened();
    const { chat } = question(store);
    const row = item("text", "Hello", chat);
    store.put("items", row);
    const changes: Change<"items">[] = [];
    store.follow({ table: "items", key: row.id }, (change) => changes.push(change));
    store.append(row.id, ", world");
    store.append(row.id, "");
    store.put("items", { ...store.get("items", row.id)!, text: "Replaced" });
    assert.deepEqual(
      changes.map((c) => [c.before?.text, c.row?.text, c.appended]),
      [
        ["Hello", "Hello, world", ", world"],
        ["Hello, world", "Replaced", undefined],
      ],
    );
    store.append(row.id, " again");
    await store.close();
    folder.forget();
    const reopened = await folder.opened();
    // A conversation's items are read when it is opened.
    assert.equal(reopened.items(row.chat).find((i) => i.id === row.id)?.text, "Replaced again");
  });

  it("hands the panel's stream only the delta: after a 1 MB answer, a delta reads its own length", async () => {
    const store = await folder.opened();
    const { chat, answer: written } = question(store);
    const streams = new ItemStreams(() => undefined);
    store.follow({ table: "items", where: { chat } }, (change) => {
      if (change.row?.kind === "text") streams.changed(change.row, change);
    });
    const text = answer(11, 1_000_000, 20);
    for (let at = 0; at < text.length; at += 1000)
      written.piece({ kind: "text", text: text.slice(at, at + 1000) });
    const id = store.items(chat).find((i) => i.kind === "text")!.id;
    const stream = streams.stream(id);
    // Each character of the answer was read once, as its delta came.
    assert.equal(stream.read, text.length);
    const deltas = ["And ", "a few ", "more ", "words."];
    for (const delta of deltas) {
      const read = stream.read;
      written.piece({ kind: "text", text: delta });
      assert.equal(
        stream.read - read,
        delta.length,
        `the delta ${JSON.stringify(delta)} read the answer before it`,
      );
    }
    written.close();
    const row = store.get("items", id)!;
    assert.equal(row.text, text + deltas.join(""));
    assert.deepEqual(stream.blocks(), keyed(row.text, id));
  });

  it("shows after random deltas, reasoning and taken-back text what rendering each item whole shows", async function () {
    this.timeout(60_000);
    for (let seed = 1; seed <= 12; seed++) {
      const next = random(seed);
      const store = await folder.opened();
      const { chat, answer: written } = question(store);
      const host = panel();
      const view = new PanelView(store, undefined, host);
      view.openChat(chat);
      // The text as the answer's pieces make it: what a take-back may take from its end.
      let open = "";
      for (const delta of split(DOCUMENT, next, seed % 3 === 0 ? 40 : 6)) {
        // Odd seeds mix in reasoning and take text back; even ones stream the answer alone.
        const roll = seed % 2 ? next() : 1;
        let piece: Piece = { kind: "text", text: delta };
        if (roll < 0.01) piece = { kind: "reasoning", text: delta };
        else if (roll < 0.02 && open.length > 4) {
          // What was shown as the answer was reasoning after all: the text item is replaced.
          piece = { kind: "retracted", text: open.slice(open.length - 1 - Math.floor(next() * 30)) };
        }
        written.piece(piece);
        open = piece.kind === "text" ? open + delta : "";
      }
      written.close();
      const items = store.items(chat).filter((i) => i.kind === "text" || i.kind === "reasoning");
      assert.ok(items.length > 0, `seed ${seed}`);
      for (const item of items) {
        assert.ok(item.done, `seed ${seed}: ${item.id} is finished`);
        assert.deepEqual(
          host.blocks.get(item.id)?.html ?? [],
          keyed(item.text, item.id).map((b) => b.html),
          `seed ${seed}: the panel's blocks of ${item.kind} ${item.id} are its text rendered whole`,
        );
      }
      if (!items.some((i) => i.kind === "reasoning"))
        assert.equal(items.map((i) => i.text).join(""), DOCUMENT, `seed ${seed}`);
      view.dispose();
      await store.close();
      folder.forget();
    }
  });

  it("starts the render over from the whole text when the text is taken back", async () => {
    const store = await folder.opened();
    const { chat, answer: written } = question(store);
    const sent: Patch[] = [];
    const streams = new ItemStreams((patch) => sent.push(patch));
    store.follow({ table: "items", where: { chat } }, (change) => {
      if (change.row) streams.changed(change.row, change);
    });
    for (const delta of ["```ts\nconst a", " = 1;\n", "<think>plan"])
      written.piece({ kind: "text", text: delta });
    written.piece({ kind: "retracted", text: "<think>plan" });
    const id = store.items(chat).find((i) => i.kind === "text")!.id;
    let replica: Block[] = [];
    for (const patch of sent.filter((p) => p.key === id)) replica = apply(replica, patch);
    assert.deepEqual(replica, keyed("```ts\nconst a = 1;\n", id));
  });
});
