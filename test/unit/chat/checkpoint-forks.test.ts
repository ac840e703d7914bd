import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { neededChats, Waiting } from "../../../src/chat/checkpoints/forks";
import { EDITED, fork } from "../../../src/chat/panel/fork";
import { asked } from "../../../src/chat/make";
import { forkBefore } from "../../../src/chat/panel/go-back";
import { checked, type Item } from "../../../src/chat/row-schemas";
import type { Store } from "../../../src/chat/store/store";
import { answered, type Bench } from "./runner-fixture";
import { checkpointScenes, command, edit } from "./checkpoint-fixture";
const ORIGINAL = "one\ntwo\nthree\n";

/** The person's message of `chat` that reads `text`. */
function message(store: Store, chat: string, text: string): Item {
  const found = store.items(chat).find((i) => i.kind === "user" && i.text === text);
  assert.ok(found, `a message "${text}" in ${chat}`);
  return found;
}

describe("checkpoints of forked conversations: a copied message restores to its original's checkpoint", () => {
  const scene = checkpointScenes();
  let b: Bench | undefined;

  /** A workspace, a runner whose model plays `script`, and checkpoints that follow the store's copies. */
  async function setUp(script: Parameters<typeof scripted>[0]) {
    const made = await scene({ "a.txt": ORIGINAL }, script);
    b = made.bench;
    return made;
  }

  const a = (root: string) => readFileSync(join(root, "a.txt"), "utf8");

  it("restores a copied message of an edited-and-resent fork, a copy of a copy, and the fork's own answer", async () => {
    const { root, turns, store } = await setUp([
      calls([edit("a.txt", "one\n", "ONE\n")]),
      says("First."),
      says("Title"),
      calls([edit("a.txt", "three\n", "THREE\n")]),
      says("Second."),
      // The fork's answer to the edited message.
      calls([command("printf later > later.txt")]),
      says("Later."),
    ]);
    const original = b!.chat();
    await b!.send(asked("First change", original));
    await b!.runner.idle();
    const second = await b!.send(asked("Second change", original));
    await b!.runner.idle();
    assert.equal(a(root), "ONE\ntwo\nTHREE\n");

    const edited = await fork(store, second, { text: "Second, edited", files: [], model: "" }, EDITED);
    const resent = message(store, edited, "Second, edited");
    await answered(store, resent.id);
    await b!.runner.idle();
    assert.ok(existsSync(join(root, "later.txt")));
    const copy = message(store, edited, "First change");
    assert.deepEqual(copy.copiedFrom, { chat: original, item: message(store, original, "First change").id });

    // The copy's answer was given in the original: its checkpoint is the original's, before every edit.
    const since = (await turns.since(copy)).map((c) => `${c.change} ${c.path}`).sort();
    assert.deepEqual(since, ["added later.txt", "changed a.txt"]);
    const back = await turns.restore(copy);
    assert.equal(
      back.text,
      "Restored 1 file to how they were before “First change”; 1 file created since was removed.",
    );
    assert.equal(a(root), ORIGINAL);
    assert.ok(!existsSync(join(root, "later.txt")));

    // The fork's own answer keeps its own checkpoint: before the command, after the original's edits.
    await turns.restore(resent);
    assert.equal(a(root), "ONE\ntwo\nTHREE\n");
    assert.ok(!existsSync(join(root, "later.txt")));

    // "Restore conversation" on the fork copies its copies: they still name the first original.
    const again = forkBefore(store, resent);
    const copyOfCopy = message(store, again, "First change");
    assert.deepEqual(copyOfCopy.copiedFrom, copy.copiedFrom);
    await turns.restore(copyOfCopy);
    assert.equal(a(root), ORIGINAL);
  });

  it("does not take a checkpoint the original took after the fork point for the fork's", async () => {
    const { root, turns, store } = await setUp([
      calls([["read_file", JSON.stringify({ path: "a.txt" })]]),
      says("Three lines."),
      says("Title"),
      calls([edit("a.txt", "one\n", "ONE\n")]),
      says("Changed."),
    ]);
    const original = b!.chat();
    await b!.send(asked("Read it", original));
    await b!.runner.idle();
    const change = await b!.send(asked("Change it", original));
    await b!.runner.idle();
    assert.equal(a(root), "ONE\ntwo\nthree\n");
    // The fork holds "Read it" and its answer only: the original's later checkpoint is not its history.
    const restored = forkBefore(store, change);
    const copy = message(store, restored, "Read it");
    assert.deepEqual(await turns.targets(copy), []);
    await assert.rejects(turns.restore(copy), /^Error: Tandem changed no file since “Read it”\.$/);
    // In the original the same message goes back to before the change.
    await turns.restore(message(store, original, "Read it"));
    assert.equal(a(root), ORIGINAL);
  });

  it("keeps an original's checkpoints while a fork names them, and drops them with its last fork", async () => {
    const { root, storage, turns, store } = await setUp([
      calls([edit("a.txt", "one\n", "ONE\n")]),
      says("First."),
      says("Title"),
      says("Second."),
    ]);
    const original = b!.chat();
    await b!.send(asked("First change", original));
    await b!.runner.idle();
    const second = await b!.send(asked("Second", original));
    await b!.runner.idle();
    const forked = forkBefore(store, second);
    const copy = message(store, forked, "First change");
    const kept = () =>
      neededChats(
        store.conversations().map((c) => c.id),
        (chat) => store.items(chat),
      );
    const records = () => {
      const stores = join(storage, "checkpoints");
      return readdirSync(stores).flatMap((s) => readdirSync(join(stores, s, "checkpoints")));
    };
    assert.equal(records().length, 1);

    store.deleteConversation(original);
    assert.deepEqual([...kept()].sort(), [forked, original].sort(), "the fork still names the original");
    await turns.keepOnly(kept());
    assert.equal(records().length, 1);
    // The original's items are gone; its checkpoint is found from the copy alone.
    assert.deepEqual(store.items(original), []);
    await turns.restore(copy);
    assert.equal(a(root), ORIGINAL);

    store.deleteConversation(forked);
    assert.deepEqual([...kept()], []);
    await turns.keepOnly(kept());
    assert.deepEqual(records(), [], "no fork needs them any more");
  });

  it("as conversations are deleted, drops an original's checkpoints only with the last fork naming them", async () => {
    const { store } = await setUp([says("One."), says("Title"), says("Two.")]);
    const original = b!.chat();
    await b!.send(asked("One", original));
    await b!.runner.idle();
    const two = await b!.send(asked("Two", original));
    await b!.runner.idle();
    const first = forkBefore(store, two);
    const second = forkBefore(store, two);
    const needed = () =>
      neededChats(
        store.conversations().map((c) => c.id),
        (chat) => store.items(chat),
      );
    const waiting = new Waiting();
    store.deleteConversation(original);
    assert.deepEqual(waiting.deleted(original, needed()), [], "two forks name it");
    store.deleteConversation(first);
    assert.deepEqual(waiting.deleted(first, needed()), [first], "the other fork still names the original");
    store.deleteConversation(second);
    assert.deepEqual(waiting.deleted(second, needed()), [second, original]);
    assert.deepEqual(waiting.deleted(second, needed()), [second], "the original is not said again");
  });

  it("reads item rows stored before copies named their original, and checks the name", () => {
    const row = { ...asked("old", "c") } as Record<string, unknown>;
    delete row.copiedFrom;
    assert.equal(checked("items", row).copiedFrom, undefined);
    const named = checked("items", { ...row, copiedFrom: { chat: "c0", item: "i0" } });
    assert.deepEqual(named.copiedFrom, { chat: "c0", item: "i0" });
    assert.throws(() => checked("items", { ...row, copiedFrom: { chat: "c0" } }), /copiedFrom\.item/);
  });
});
