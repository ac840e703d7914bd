import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { once } from "node:events";
import { cp, mkdir, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { asked, conversation, item } from "../../../src/chat/make";
import type { Conversation, Item } from "../../../src/chat/row-schemas";
import { putLine } from "../../../src/chat/store/lines";
import { Store } from "../../../src/chat/store/store";
import { storeFolder } from "./store-fixture";

const CHILD = join(__dirname, "../../fixtures/migrate-child.ts");

/** Conversations of `n` items each, as rows. */
function history(chats: number, n: number): { chat: Conversation; items: Item[] }[] {
  return Array.from({ length: chats }, (_, c) => {
    const chat = conversation("a1", `conversation ${c}`);
    const items = Array.from({ length: n }, (_, i) =>
      i % 2
        ? { ...item("text", `answer ${c}.${i}`, chat.id), done: true }
        : { ...asked(`q ${c}.${i}`, chat.id), done: true },
    );
    return { chat, items };
  });
}

/** Writes `rows` as a store of the format before conversations had journals: one journal of every row. */
async function oldStore(folder: string, rows: { chat: Conversation; items: Item[] }[]): Promise<void> {
  const lines = [
    putLine("assistants", { id: "a1", name: "Helper", instructions: "", model: "", tools: "", approve: "" }),
  ];
  for (const { chat, items } of rows) {
    lines.push(putLine("conversations", chat));
    for (const i of items) lines.push(putLine("items", i));
  }
  await writeFile(join(folder, "journal.jsonl"), lines.join(""));
}

describe("history in proportion to what is shown", function () {
  this.timeout(120_000);
  const tmp = storeFolder("tandem-history-", { keepClosed: 0 });
  const { opened } = tmp;

  async function seeded(chats: number, n: number) {
    const rows = history(chats, n);
    const last = rows.at(-1)!;
    last.items[1] = { ...last.items[1], text: "273 degrees \u212Aelvin" };
    const store = await opened();
    for (const { chat, items } of rows) {
      store.put("conversations", chat);
      for (const i of items) store.put("items", i);
    }
    await store.close();
    tmp.forget();
    return rows;
  }

  it("opens with the conversation list and no conversation's items, and opens one when asked", async () => {
    const rows = await seeded(6, 10);
    const store = await opened();
    assert.deepEqual(
      store.conversations().map((c) => c.title),
      rows.map((r) => r.chat.title).reverse(),
    );
    assert.deepEqual(store.loaded(), []);
    assert.equal(store.listed(rows[2].chat.id)?.count, 10);
    assert.equal(store.count("items"), 60);
    assert.deepEqual(
      store.items(rows[2].chat.id).map((i) => i.text),
      rows[2].items.map((i) => i.text),
    );
    await store.flush();
    assert.deepEqual(store.loaded(), [], "read, given and let go: nobody holds it");
    assert.equal(store.get("items", rows[3].items[0].id), undefined, "a conversation not open is not read");
  });

  it("keeps a conversation in memory while it is shown and lets it go once it is closed", async () => {
    const rows = await seeded(3, 4);
    const store = await opened();
    const { chat } = rows[1];
    const seen: string[] = [];
    const stop = store.follow({ table: "items", where: { chat: chat.id } }, (c) =>
      seen.push(c.row?.text ?? ""),
    );
    assert.deepEqual(store.loaded(), [chat.id]);
    await store.putDurable("items", asked("one more", chat.id));
    assert.deepEqual(seen, ["one more"]);
    assert.equal(store.listed(chat.id)?.count, 5);
    stop();
    await store.flush();
    assert.deepEqual(store.loaded(), []);
    const release = store.hold(rows[0].chat.id);
    assert.deepEqual(store.loaded(), [rows[0].chat.id]);
    release();
    await store.flush();
    assert.deepEqual(store.loaded(), []);
    // What was written while it was open is there when it is opened again, here and in a new window.
    assert.equal(store.items(chat.id).at(-1)?.text, "one more");
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.equal(again.items(chat.id).at(-1)?.text, "one more");
    assert.equal(again.conversations()[0].id, chat.id, "the newest item puts it first");
  });

  it("finds text in a conversation that is not open, without opening it", async () => {
    const rows = await seeded(5, 6);
    const store = await opened();
    const needle = rows[3].items[3];
    const found = await store.search(needle.text.toUpperCase());
    assert.deepEqual(
      found.map((c) => c.id),
      [rows[3].chat.id],
    );
    assert.deepEqual(store.loaded(), []);
    assert.deepEqual(await store.search("not in any of them"), []);
    // What only Unicode's lower case turns into the query (the Kelvin sign) is found as before.
    assert.deepEqual(
      (await store.search("kelvin")).map((c) => c.id),
      [rows[4].chat.id],
    );
    await store.close();
    tmp.forget();
    // A text still growing (patched, not yet compacted) is found too, across its pieces.
    const growing = item("text", "Ptero", rows[0].chat.id);
    const s = await opened({ coalesceMs: 0 });
    s.put("items", { ...growing, text: "Ptero" });
    s.put("items", { ...growing, text: "Pterodactyl" });
    await s.flush();
    await s.close();
    tmp.forget();
    const third = await opened();
    assert.deepEqual(
      (await third.search("rodac")).map((c) => c.id),
      [rows[0].chat.id],
    );
  });

  it("moves a store of the old format once; moving it again changes nothing", async () => {
    const rows = history(4, 5);
    await oldStore(tmp.folder, rows);
    const store = await opened();
    assert.deepEqual(store.problems, []);
    assert.equal(store.count("items"), 20);
    for (const { chat, items } of rows) assert.deepEqual(store.items(chat.id), items);
    assert.equal(store.get("assistants", "a1")?.name, "Helper");
    const main = await readFile(join(tmp.folder, "journal.jsonl"), "utf8");
    assert.doesNotMatch(main, /"t":"items"/);
    await store.close();
    tmp.forget();
    const files = await readdir(join(tmp.folder, "chats"));
    const times = await Promise.all(
      files.map(async (f) => (await stat(join(tmp.folder, "chats", f))).mtimeMs),
    );
    const again = await opened();
    for (const { chat, items } of rows) assert.deepEqual(again.items(chat.id), items);
    assert.equal(await readFile(join(tmp.folder, "journal.jsonl"), "utf8"), main);
    assert.deepEqual(
      await Promise.all(files.map(async (f) => (await stat(join(tmp.folder, "chats", f))).mtimeMs)),
      times,
    );
  });

  it("loses nothing when the move is killed at any moment, and opens whole afterwards", async () => {
    const rows = history(150, 40);
    const pristine = join(tmp.folder, "old");
    await mkdir(pristine);
    await oldStore(pristine, rows);
    const run = async (folder: string, killAfterMs?: number) => {
      const child = spawn(process.execPath, ["--import", "tsx", CHILD, folder], {
        stdio: ["pipe", "pipe", "inherit"],
      });
      let out = "";
      const said = (word: string) =>
        new Promise<number>((r) =>
          child.stdout.on("data", (d: Buffer) => {
            out += d.toString();
            if (out.includes(word)) r(performance.now());
          }),
        );
      const ready = said("ready\n");
      const moved = said("moved\n");
      const closed = once(child, "close");
      await ready;
      const go = performance.now();
      child.stdin.write("go\n");
      if (killAfterMs === undefined) {
        const t = (await moved) - go;
        await closed;
        return t;
      }
      await new Promise((r) => setTimeout(r, killAfterMs));
      child.kill("SIGKILL");
      await closed;
      return 0;
    };
    const whole = join(tmp.folder, "whole");
    await cp(pristine, whole, { recursive: true });
    const takes = await run(whole);
    let cutShort = 0;
    for (let round = 0; round < 8; round++) {
      const folder = join(tmp.folder, `round${round}`);
      await cp(pristine, folder, { recursive: true });
      await run(folder, (takes * (round + 0.5)) / 8);
      const left = await readFile(join(folder, "journal.jsonl"), "utf8");
      if (left.includes('"t":"items"')) cutShort++;
      const reopened = await Store.open(folder);
      try {
        assert.deepEqual(reopened.problems, []);
        assert.equal(reopened.count("items"), 150 * 40, `round ${round}`);
        for (const { chat, items } of rows)
          assert.deepEqual(reopened.items(chat.id), items, `round ${round}`);
      } finally {
        await reopened.close();
      }
    }
    assert.ok(cutShort > 0, "at least one kill landed before the move was done");
  });

  it("keeps a conversation whose id is a path inside its own folder", async () => {
    const store = await opened();
    const evil = asked("hostile id", "../../outside");
    await store.putDurable("items", evil);
    const names = await readdir(join(tmp.folder, "chats"));
    assert.equal(names.length, 1);
    assert.match(names[0], /^~[0-9a-f]{64}\.jsonl$/);
    await store.close();
    tmp.forget();
    const again = await opened();
    assert.deepEqual(
      again.items("../../outside").map((i) => i.text),
      ["hostile id"],
    );
  });
});
