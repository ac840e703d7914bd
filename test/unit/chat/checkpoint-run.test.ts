import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { TurnCheckpoints } from "../../../src/chat/checkpoints/turns";
import { asked } from "../../../src/chat/make";
import { write } from "../workspace/fixtures";
import { type Bench } from "./runner-fixture";
import { checkpointScenes, command, edit } from "./checkpoint-fixture";

describe("checkpoints of the answers: taken before the first write, restored byte for byte", () => {
  const scene = checkpointScenes();
  const binary = randomBytes(4096);

  /** A workspace, a runner whose model plays `script`, and the checkpoints it takes (with what the files were then). */
  let b: Bench | undefined;
  async function setUp(script: Parameters<typeof scripted>[0], enabled = true) {
    const made = await scene(
      { "a.txt": "one\ntwo\nthree\n", "b.bin": binary, "keep.txt": "untouched\n" },
      script,
      enabled,
    );
    b = made.bench;
    return made;
  }

  it("takes one checkpoint per answer before its first write, and restores edits, created files and a command's writes", async () => {
    const { root, changes, taken, turns } = await setUp([
      calls([edit("a.txt", "two\n", "TWO\n"), command("printf made > made.txt && printf changed > b.bin")]),
      calls([["create_file", JSON.stringify({ path: "src/new.ts", content: "export {};\n" })]]),
      says("Done."),
    ]);
    const chat = b!.chat();
    const user = asked("Change things", chat);
    await b!.send(user);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\nTWO\nthree\n");
    assert.equal(readFileSync(join(root, "b.bin"), "utf8"), "changed");
    assert.ok(existsSync(join(root, "made.txt")) && existsSync(join(root, "src/new.ts")));
    // Once for the answer, with the files as they were before any of its writes.
    assert.deepEqual(taken, [{ message: user.id, a: "one\ntwo\nthree\n" }]);
    const [target] = await turns.targets(user);
    assert.equal(target.checkpoint.message, user.id);
    const kept = await turns.read(root, target.checkpoint.id, "a.txt");
    assert.equal(kept?.kind === "file" && kept.bytes.toString("utf8"), "one\ntwo\nthree\n");
    assert.deepEqual(
      changes.list().map((p) => p.shown),
      ["a.txt", "src/new.ts"],
    );

    const since = (await turns.since(user)).map((c) => `${c.change} ${c.path}`).sort();
    assert.deepEqual(since, ["added made.txt", "added src/new.ts", "changed a.txt", "changed b.bin"]);

    const done = await turns.restore(user);
    await changes.restored(done.files);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
    assert.deepEqual(readFileSync(join(root, "b.bin")), binary);
    assert.equal(readFileSync(join(root, "keep.txt"), "utf8"), "untouched\n");
    assert.ok(!existsSync(join(root, "made.txt")), "the command's new file is removed");
    assert.ok(!existsSync(join(root, "src/new.ts")), "the created file is removed");
    assert.equal(
      done.text,
      "Restored 2 files to how they were before “Change things”; 2 files created since were removed.",
    );
    // The restored files' pending changes are settled: nothing is left to review.
    assert.deepEqual(changes.list(), []);
  });

  it("leaves dependency folders out: node_modules is not recorded, and a restore leaves it as it is", async () => {
    const { root, turns } = await setUp([
      calls([command("printf installed > node_modules/dep/index.js && printf changed > a.txt")]),
      says("Installed."),
    ]);
    write(root, { "node_modules/dep/index.js": "module.exports = 1;\n", "lib/venv/x.py": "kept\n" });
    const user = asked("Install", b!.chat());
    await b!.send(user);
    const [target] = await turns.targets(user);
    assert.equal(await turns.read(root, target.checkpoint.id, "node_modules/dep/index.js"), null);
    await turns.restore(user);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
    assert.equal(readFileSync(join(root, "node_modules/dep/index.js"), "utf8"), "installed");
  });

  it("takes no checkpoint for an answer that only reads", async () => {
    const { taken, turns } = await setUp([
      calls([["read_file", JSON.stringify({ path: "a.txt" })]]),
      says("It has three lines."),
    ]);
    const user = asked("What is in a.txt?", b!.chat());
    await b!.send(user);
    assert.deepEqual(taken, []);
    assert.deepEqual(await turns.targets(user), []);
    await assert.rejects(turns.restore(user), /Tandem changed no file since “What is in a.txt\?”/);
  });

  it("goes back to the checkpoint of the message asked for, over two answers; deleting the conversation frees the storage", async () => {
    const { root, storage, taken, turns } = await setUp([
      calls([edit("a.txt", "one\n", "ONE\n")]),
      says("First."),
      // The conversation's title, asked after its first answer.
      says("Two changes"),
      calls([edit("a.txt", "three\n", "THREE\n"), command("printf later > later.txt")]),
      says("Second."),
    ]);
    const chat = b!.chat();
    const first = asked("First change", chat);
    await b!.send(first);
    const second = asked("Second change", chat);
    await b!.send(second);
    assert.deepEqual(
      taken.map((t) => t.message),
      [first.id, second.id],
    );
    const back = await turns.restore(second);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "ONE\ntwo\nthree\n");
    assert.match(
      back.text,
      /^Restored 1 file to how they were before “Second change”; 1 file created since was removed\.$/,
    );
    await turns.restore(first);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");

    const folderOf = join(storage, "checkpoints");
    const [store] = readdirSync(folderOf);
    assert.ok(readdirSync(join(folderOf, store, "checkpoints")).length > 0);
    await turns.dropFor(chat);
    assert.deepEqual(readdirSync(join(folderOf, store, "checkpoints")), []);
    const blobs = join(folderOf, store, "blobs");
    const left = readdirSync(blobs).flatMap((prefix) => readdirSync(join(blobs, prefix)));
    assert.deepEqual(left, [], "no kept copy is left");
  });

  it("finds a restore a crash cut short when it opens again, and finishes it or leaves the files as they are", async () => {
    const {
      root,
      storage,
      turns: first,
    } = await setUp([calls([edit("a.txt", "one\n", "ONE\n")]), says("Done."), says("Title")]);
    const user = asked("Shout one", b!.chat());
    await b!.send(user);
    const [target] = await first.targets(user);
    await first.close();
    // What a restore writes before its first change, left behind by a crash.
    const [name] = readdirSync(join(storage, "checkpoints"));
    const intent = { v: 1, target: target.checkpoint.id, undo: target.checkpoint.id, started: Date.now() };
    const store = join(storage, "checkpoints", name);
    writeFileSync(join(store, "restoring.json"), JSON.stringify(intent));

    const settings = { enabled: true, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 };
    const again = () =>
      new TurnCheckpoints({
        folders: () => [{ root, name: "ws" }],
        storage: storage,
        settings: () => settings,
      });
    const left = again();
    assert.deepEqual(
      (await left.interrupted()).map((c) => c.label),
      ["“Shout one”"],
    );
    assert.equal((await left.settleInterrupted(false)).text, "The files were left as they are.");
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "ONE\ntwo\nthree\n");
    assert.deepEqual(await left.interrupted(), []);
    await left.close();

    writeFileSync(join(store, "restoring.json"), JSON.stringify(intent));
    const turns = again();
    try {
      const done = await turns.settleInterrupted(true);
      assert.equal(done.text, "The restore was finished: 1 file put back.");
      assert.deepEqual(done.files, [join(root, "a.txt")]);
      assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
      assert.deepEqual(await turns.interrupted(), []);
    } finally {
      await turns.close();
    }
  });

  it("takes no checkpoint when the person turned checkpoints off", async () => {
    const { root, storage, turns } = await setUp(
      [calls([edit("a.txt", "one\n", "ONE\n")]), says("Done.")],
      false,
    );
    const user = asked("Shout one", b!.chat());
    await b!.send(user);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "ONE\ntwo\nthree\n");
    assert.ok(!existsSync(join(storage, "checkpoints")), "nothing is stored");
    assert.deepEqual(await turns.targets(user), []);
  });
});
