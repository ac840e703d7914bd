import assert from "node:assert/strict";
import { appendFile, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { asked, conversation, item } from "../../../src/chat/make";
import { type Item } from "../../../src/chat/row-schemas";
import { storeFolder } from "./store-fixture";

/** The lines of the main journal, or of the journal of the conversation `chat`. */
const lines = async (folder: string, chat?: string) =>
  (await readFile(journal(folder, chat), "utf8")).split("\n").filter(Boolean);
const journal = (folder: string, chat?: string) =>
  chat ? join(folder, "chats", `${chat}.jsonl`) : join(folder, "journal.jsonl");
/** Writes `text` as the journal of the conversation `chat`, as a crash or a bad disk left it. */
const writeChat = async (folder: string, chat: string, text: string) => {
  await mkdir(join(folder, "chats"), { recursive: true });
  await writeFile(journal(folder, chat), text);
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe("the store's journal", () => {
  const tmp = storeFolder("tandem-journal-");
  const { opened } = tmp;

  it("writes a text grown 1,000 times in a moment as a few lines, and the views see every step", async () => {
    const store = await opened();
    let answer = item("text", "", "c1");
    let seen = 0;
    store.follow({ table: "items", key: answer.id }, () => seen++);
    const started = performance.now();
    for (let i = 0; i < 1000; i++) {
      answer = { ...answer, text: `${answer.text}w${i} ` };
      store.put("items", answer);
      if (i % 100 === 99) await sleep(5);
    }
    const ms = performance.now() - started;
    store.put("items", { ...answer, done: true });
    await store.flush();
    const written = (await lines(tmp.folder, "c1")).filter((l) => l.includes(answer.id)).length;
    assert.equal(seen, 1001);
    // One write at most every 50 ms, plus the first and the last.
    assert.ok(written <= Math.ceil(ms / 50) + 2, `${written} lines in ${ms.toFixed(0)} ms`);
    assert.ok(written < 30, `${written} lines`);
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.equal(again.items("c1").length, 1);
    assert.equal(again.get("items", answer.id)?.text, answer.text);
    assert.equal(again.get("items", answer.id)?.done, true);
  });

  it("writes a growing text once per interval while it grows, and only its new words", async () => {
    // An interval longer than the test: the first step is written at once, every later one waits
    // for it and is coalesced into the one line the flush writes (no clock is read).
    const store = await opened({ coalesceMs: 60_000 });
    let answer = item("text", "start ", "c1");
    store.put("items", answer);
    for (let i = 0; i < 12; i++) {
      await sleep(1);
      answer = { ...answer, text: `${answer.text}more${i} ` };
      store.put("items", answer);
    }
    assert.equal((await lines(tmp.folder, "c1")).filter((l) => l.includes(answer.id)).length, 1);
    await store.flush();
    const mine = (await lines(tmp.folder, "c1")).filter((l) => l.includes(answer.id));
    assert.equal(mine.length, 2, "the first step, then the coalesced rest");
    const patch = JSON.parse(mine[1]) as { a?: { text: [number, string] } };
    assert.ok(patch.a && !patch.a.text[1].startsWith("start"), "the later line carries only new words");
    assert.ok(patch.a.text[1].endsWith("more11 "));

    // With no interval every step is a line of its own.
    await store.close();
    tmp.forget();
    const each = await opened({ coalesceMs: 0 });
    let other = item("text", "go ", "c2");
    each.put("items", other);
    for (let i = 0; i < 5; i++) {
      other = { ...other, text: `${other.text}w${i} ` };
      each.put("items", other);
    }
    await each.flush();
    assert.equal((await lines(tmp.folder, "c2")).filter((l) => l.includes(other.id)).length, 6);
  });

  it("writes a finished item at once and cancels a growing one's pending write when it is deleted", async () => {
    const store = await opened();
    let answer = item("text", "a", "c1");
    store.put("items", answer);
    answer = { ...answer, text: "ab" };
    store.put("items", answer);
    store.delete("items", answer.id);
    await store.flush();
    await sleep(70);
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.equal(again.get("items", answer.id), undefined);
  });

  it("cuts off a torn last line, says so once, and loads the rest", async () => {
    const store = await opened();
    const kept = asked("kept", "c1");
    await store.putDurable("items", kept);
    await store.close();
    tmp.forget();
    const whole = (await lines(tmp.folder, "c1"))[0];
    const torn = whole.replace("kept", "torn").slice(0, 60);
    await appendFile(journal(tmp.folder, "c1"), torn);
    const problems: string[] = [];
    const again = await opened({ onProblem: (t: string) => problems.push(t) });
    assert.deepEqual(
      again.items("c1").map((i) => i.text),
      ["kept"],
    );
    assert.equal(problems.length, 1);
    assert.match(problems[0], /cut off/);
    assert.deepEqual(again.problems, problems);
    const after = asked("after", "c1");
    await again.putDurable("items", after);
    await again.close();
    tmp.forget();
    const third = await opened();
    assert.deepEqual(
      third.items("c1").map((i) => i.text),
      ["kept", "after"],
    );
    assert.deepEqual(third.problems, []);
    assert.equal(await readFile(join(tmp.folder, "journal.corrupt.jsonl"), "utf8"), torn + "\n");
  });

  it("keeps a last line that lost only its newline", async () => {
    const q = asked("whole", "c1");
    await writeChat(tmp.folder, "c1", JSON.stringify({ t: "items", k: q.id, r: q }));
    const store = await opened();
    assert.equal(store.items("c1")[0]?.text, "whole");
    assert.deepEqual(store.problems, []);
    await store.putDurable("items", asked("next", "c1"));
    assert.equal((await lines(tmp.folder, "c1")).length, 2);
  });

  it("reads a message stored with its files as text into their shape, and keeps that shape", async () => {
    const old = { ...asked("see these", "c1"), files: '[{"path":"src/a.ts","name":"a.ts"}]\n' };
    const lined = { ...asked("and these", "c1"), files: "shot.png\ndocs/spec.pdf" };
    await writeFile(
      join(tmp.folder, "journal.jsonl"),
      [old, lined].map((r) => JSON.stringify({ t: "items", k: r.id, r })).join("\n") + "\n",
    );
    const store = await opened();
    assert.deepEqual(store.problems, []);
    assert.equal(store.items("c1").length, 2);
    assert.deepEqual(store.get("items", old.id)?.files, [{ path: "src/a.ts", name: "a.ts", kind: "text" }]);
    assert.deepEqual(store.get("items", lined.id)?.files, [
      { path: "shot.png", name: "shot.png", kind: "image" },
      { path: "docs/spec.pdf", name: "spec.pdf", kind: "pdf" },
    ]);
    await store.putDurable("items", { ...store.get("items", old.id)!, text: "seen" });
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.deepEqual(again.problems, []);
    assert.equal(again.items("c1").length, 2);
    assert.deepEqual(again.get("items", old.id)?.files, [{ path: "src/a.ts", name: "a.ts", kind: "text" }]);
    assert.equal(again.get("items", old.id)?.text, "seen");
  });

  it("cuts off a last line of zeros (a crash before the data reached the disk)", async () => {
    const q = asked("before", "c1");
    await writeChat(
      tmp.folder,
      "c1",
      JSON.stringify({ t: "items", k: q.id, r: q }) + "\n" + "\0".repeat(512),
    );
    const store = await opened();
    assert.deepEqual(
      store.items("c1").map((i) => i.text),
      ["before"],
    );
    assert.equal(store.problems.length, 1);
    await store.flush();
    assert.equal(
      (await stat(journal(tmp.folder, "c1"))).size,
      JSON.stringify({ t: "items", k: q.id, r: q }).length + 1,
    );
  });

  it("skips a corrupt line in the middle, says so once, and loads the rest", async () => {
    const rows = [asked("one", "c1"), asked("two", "c1"), asked("three", "c1")];
    const text = rows.map((r) => JSON.stringify({ t: "items", k: r.id, r })).join("\n") + "\n";
    const broken = text.split("\n");
    broken[1] = broken[1].replace('"kind":"user"', '"kind":"nonsense"');
    broken.splice(2, 0, "{not json at all");
    await writeChat(tmp.folder, "c1", broken.join("\n"));
    const problems: string[] = [];
    const store = await opened({ onProblem: (t: string) => problems.push(t) });
    assert.deepEqual(
      store.items("c1").map((i) => i.text),
      ["one", "three"],
    );
    assert.equal(problems.length, 2);
    assert.match(problems[0], /Line 2 .*skipped/);
    assert.match(problems[1], /Line 3 .*not JSON/);
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.deepEqual(
      again.items("c1").map((i) => i.text),
      ["one", "three"],
    );
    assert.deepEqual(again.problems, [], "said once: the journal was rewritten without them");
    assert.match(await readFile(join(tmp.folder, "journal.corrupt.jsonl"), "utf8"), /nonsense/);
  });

  it("skips a patch that does not follow its row instead of writing wrong text", async () => {
    const q = item("text", "hello", "c1");
    const put = JSON.stringify({ t: "items", k: q.id, r: q });
    const wrong = JSON.stringify({ t: "items", k: q.id, a: { text: [99, " world"] } });
    const right = JSON.stringify({ t: "items", k: q.id, a: { text: [5, " there"] }, s: { done: true } });
    await writeChat(tmp.folder, "c1", [put, wrong, right, ""].join("\n"));
    const store = await opened();
    assert.equal(store.items("c1")[0]?.text, "hello there");
    assert.equal(store.get("items", q.id)?.done, true);
    assert.equal(store.problems.length, 1);
  });

  it("keeps the lines of a table it does not know through a compaction", async () => {
    const q = asked("known", "c1");
    const foreign = JSON.stringify({ t: "futureTable", k: "x", r: { id: "x", shiny: true } });
    await writeFile(
      join(tmp.folder, "journal.jsonl"),
      [JSON.stringify({ t: "items", k: q.id, r: q }), foreign, ""].join("\n"),
    );
    const store = await opened();
    assert.deepEqual(store.problems, []);
    await store.compact();
    assert.ok((await lines(tmp.folder)).includes(foreign));
  });

  it("compacts a journal grown past twice its rows, keeping every row, and loses no append meanwhile", async () => {
    const store = await opened({ compactMinBytes: 16 * 1024, coalesceMs: 0 });
    const chat = conversation("a1", "Long");
    store.put("conversations", chat);
    const kept: Item[] = [];
    for (let i = 0; i < 200; i++) {
      let plan = item("plan", "", chat.id);
      for (let j = 0; j < 10; j++) {
        plan = { ...plan, text: `step ${j} of ${i} ${"x".repeat(100)}`, done: true };
        store.put("items", plan);
      }
      kept.push(plan);
      if (i % 20 === 0) await sleep(1);
    }
    const during = asked("put while compacting", chat.id);
    const compaction = store.compact();
    store.put("items", during);
    await compaction;
    await store.flush();
    const size = (await stat(journal(tmp.folder, chat.id))).size;
    assert.deepEqual(store.problems, []);
    assert.ok(size < 200 * 400, `the journal is ${size} bytes after compaction`);
    const files = [...(await readdir(tmp.folder)), ...(await readdir(join(tmp.folder, "chats")))];
    assert.deepEqual(
      files.filter((f) => f.endsWith(".tmp")),
      [],
    );
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.deepEqual(
      again.items(chat.id).map((i) => i.text),
      [...kept.map((k) => k.text), "put while compacting"],
    );
    assert.deepEqual(again.problems, []);
  });

  it("compacts by itself, atomically: the journal always reads whole", async () => {
    const store = await opened({ compactMinBytes: 8 * 1024, coalesceMs: 0 });
    const row = item("plan", "", "c1");
    let readings = 0;
    for (let i = 0; i < 400; i++) {
      store.put("items", { ...row, text: `${i} ${"y".repeat(200)}`, done: i % 2 === 0 });
      if (i % 40 === 0) {
        // Written (a compaction may still be under way): what another reader finds at any moment is a
        // whole journal with the row in it.
        await store.flush();
        const found = (await lines(tmp.folder, "c1")).map((l) => JSON.parse(l) as { k: string });
        assert.ok(found.some((l) => l.k === row.id));
        readings++;
      }
    }
    await store.flush();
    assert.equal(readings, 10);
    // A compaction still running when the loop ended leaves what came meanwhile appended; the next
    // change after it compacts again. Changes go on (as a person's would) until one has.
    for (let i = 0; i < 200 && (await lines(tmp.folder, "c1")).length >= 300; i++) {
      store.put("items", { ...row, text: `399 ${"y".repeat(200)} again ${i}`, done: true });
      await store.flush();
      await sleep(10);
    }
    assert.ok((await lines(tmp.folder, "c1")).length < 300, "it compacted");
    await store.close();
    tmp.forget();
    const again = await opened();
    again.items("c1");
    assert.equal(again.get("items", row.id)?.text.startsWith("399 "), true);
  });
});
