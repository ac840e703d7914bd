import assert from "node:assert/strict";
import { spawn, spawnSync } from "node:child_process";
import { once } from "node:events";
import { readFile, utimes, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { asked, conversation, item } from "../../../src/chat/make";
import { ReadOnlyError } from "../../../src/chat/store/store";
import { storeFolder } from "./store-fixture";

const WRITER = join(__dirname, "../../fixtures/crash-writer.ts");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function until(test: () => boolean, ms = 10_000): Promise<void> {
  const end = Date.now() + ms;
  while (!test()) {
    if (Date.now() > end) throw new Error("waited in vain");
    await sleep(10);
  }
}

describe("two windows on one workspace", function () {
  this.timeout(60_000);
  const tmp = storeFolder("tandem-windows-", { followMs: 20 });
  const { opened } = tmp;

  it("makes the second opener a reader that follows the writer, through a compaction", async () => {
    const writer = await opened({ compactMinBytes: 4096, coalesceMs: 0 });
    const chat = conversation("a1", "Shared");
    writer.put("conversations", chat);
    await writer.flush();
    const reader = await opened();
    assert.equal(writer.writable, true);
    assert.equal(reader.writable, false);
    assert.equal(reader.get("conversations", chat.id)?.title, "Shared");
    assert.throws(() => reader.put("items", asked("no", chat.id)), ReadOnlyError);
    const seen: string[] = [];
    reader.follow({ table: "items", where: { chat: chat.id } }, (c) => seen.push(c.row?.text ?? "deleted"));
    const q = asked("from the writer", chat.id);
    await writer.putDurable("items", q);
    await until(() => seen.includes("from the writer"));
    // Enough rewrites to compact the journal under the reader's feet.
    const plan = item("plan", "", chat.id);
    for (let i = 0; i < 100; i++)
      writer.put("items", { ...plan, text: `${i} ${"z".repeat(100)}`, done: true });
    await writer.compact();
    await writer.flush();
    await until(() => reader.get("items", plan.id)?.text.startsWith("99 ") === true);
    assert.deepEqual(
      reader.items(chat.id).map((i) => i.id),
      writer.items(chat.id).map((i) => i.id),
    );
    assert.deepEqual(reader.problems, []);
  });

  it("lets the reader become the writer when the writer closes", async () => {
    const writer = await opened();
    const q = asked("before", "c1");
    await writer.putDurable("items", q);
    let told = 0;
    const reader = await opened({ onWritable: () => told++ });
    assert.equal(reader.writable, false);
    await writer.close();
    await until(() => reader.writable);
    assert.equal(told, 1);
    await reader.putDurable("items", asked("after", "c1"));
    const third = await opened();
    assert.equal(third.writable, false);
    assert.deepEqual(
      third.items("c1").map((i) => i.text),
      ["before", "after"],
    );
  });

  it("follows a writer in another process, refuses that process a second writer, and takes over when it is killed", async () => {
    const child = spawn(process.execPath, ["--import", "tsx", WRITER, tmp.folder, "0"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    const acks: string[] = [];
    let chat = "";
    let out = "";
    let started = false;
    // The child is killed on purpose: a write to its stdin may then meet a closed pipe, which is no failure.
    child.stdin.on("error", () => undefined);
    child.stdout.setEncoding("utf8");
    child.stdout.on("data", (d: string) => {
      out += d;
      for (const m of out.matchAll(/^ack (\S+) (\S+) \d+$/gm)) {
        chat = m[1];
        if (!acks.includes(m[2])) acks.push(m[2]);
      }
      // Told to go once, when it is ready (not again at every line it prints).
      if (!started && out.startsWith("ready\n")) {
        started = true;
        child.stdin.write("go\n");
      }
    });
    const closed = once(child, "close");
    try {
      await until(() => acks.length >= 3, 30_000);
      let told = false;
      const reader = await opened({ onWritable: () => (told = true) });
      assert.equal(reader.writable, false);
      const followed = new Set<string>();
      // The reader follows the conversation it shows (which holds it in memory).
      reader.follow(
        { table: "items", where: { chat } },
        (c) => c.row?.kind === "user" && followed.add(c.key),
      );
      await until(() => followed.size >= 3);
      assert.throws(() => reader.put("items", asked("mine", "c")), ReadOnlyError);

      child.kill("SIGKILL");
      await closed;
      await until(() => told);
      assert.equal(reader.writable, true);
      for (const key of acks) assert.ok(reader.get("items", key), `acknowledged ${key} is there`);
      const lock = JSON.parse(await readFile(join(tmp.folder, "journal.lock"), "utf8")) as { pid: number };
      assert.equal(lock.pid, process.pid);
      await reader.putDurable("items", asked("the new writer's", "c9"));

      // A second process cannot write while this one holds the lock.
      const second = spawnSync(process.execPath, ["--import", "tsx", WRITER, tmp.folder, "0"], {
        input: "go\n",
        encoding: "utf8",
        timeout: 30_000,
      });
      assert.equal(second.status, 1);
      assert.match(second.stderr, /could not take the lock/);
      assert.equal(reader.items("c9").length, 1);
      assert.deepEqual(reader.problems, []);
    } finally {
      child.kill("SIGKILL");
    }
  });

  it("takes over a lock left by a dead process, or an old unreadable one, but not a young one", async () => {
    const dead = spawnSync(process.execPath, ["-e", "0"]).pid!;
    const lock = join(tmp.folder, "journal.lock");
    await writeFile(lock, JSON.stringify({ pid: dead, host: hostname(), nonce: "x" }));
    const first = await opened();
    assert.equal(first.writable, true);
    await first.close();
    tmp.forget();

    await writeFile(lock, "");
    const young = await opened();
    assert.equal(young.writable, false, "an empty lock may be one being written");
    await young.close();
    tmp.forget();
    const old = new Date(Date.now() - 60_000);
    await utimes(lock, old, old);
    const taken = await opened();
    assert.equal(taken.writable, true);
    await taken.close();
    tmp.forget();

    await writeFile(lock, JSON.stringify({ pid: dead, host: "another-machine", nonce: "y" }));
    const remote = await opened();
    assert.equal(remote.writable, false, "a process of another host cannot be checked: it counts as living");
  });
});
