import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { asked, assistant, conversation, item, plugin } from "../../../src/chat/make";
import { RowError, type Item } from "../../../src/chat/row-schemas";
import { Store, type Change } from "../../../src/chat/store/store";
import { storeFolder } from "./store-fixture";

describe("the conversation store", () => {
  const tmp = storeFolder("tandem-store-");
  const { opened } = tmp;

  it("gives back every table's rows after it is closed and opened again", async () => {
    const store = await opened();
    const chat = conversation("a1", "Taxes");
    const question = asked("Héllo — “quotes”, \\ and\nnewlines 🎉", chat.id);
    const p = { ...plugin("a1", "https://mcp.example.com/mcp"), secret: true, status: "3 tools" };
    store.put("assistants", {
      ...assistant("a1", "Helper"),
      instructions: "Be brief.",
      approve: "write_file",
    });
    store.put("conversations", chat);
    store.put("items", question);
    store.put("plugins", p);
    store.put("skills", { id: "s1", name: "review", description: "When reviewing.", body: "# Steps" });
    const from = { from: "person" as const, chat: "", title: "" };
    store.put("memories", {
      id: "m1",
      agent: "a1",
      text: "Likes tea",
      created: 1_700_000_000_000,
      source: from,
    });
    store.put("contexts", { id: chat.id, used: 1200, window: 128000 });
    store.put("choices", { id: "local:llama3", name: "llama3", group: "This computer", note: "" });
    store.put("memories", { id: "m2", agent: "a1", text: "gone soon", created: 1, source: from });
    store.delete("memories", "m2");
    await store.close();
    tmp.forget();

    const again = await opened();
    assert.equal(again.writable, true);
    assert.deepEqual(again.items(chat.id), [question]);
    assert.deepEqual(again.get("items", question.id), question);
    assert.deepEqual(again.get("plugins", p.id), p);
    assert.equal(again.get("assistants", "a1")?.approve, "write_file");
    assert.deepEqual(again.get("contexts", chat.id), { id: chat.id, used: 1200, window: 128000 });
    assert.deepEqual(
      again.rows("memories").map((m) => m.text),
      ["Likes tea"],
    );
    assert.equal(again.count("choices"), 1);
    assert.deepEqual(again.problems, []);
  });

  it("refuses a bad row with a clear error and writes nothing", async () => {
    const store = await opened();
    const good = item("text", "ok", "c1");
    assert.throws(
      () => store.put("items", { ...good, kind: "poem" } as unknown as Item),
      (e: unknown) => e instanceof RowError && /items/.test(e.message) && /kind/.test(e.message),
    );
    assert.throws(() => store.put("assistants", { ...assistant("a", "n".repeat(81)) }), RowError);
    await store.flush();
    assert.equal(store.get("items", good.id), undefined);
    const text = await readFile(join(tmp.folder, "chats", "c1.jsonl"), "utf8").catch(() => "");
    assert.equal(text, "");
    // The main journal says only its format.
    assert.doesNotMatch(await readFile(join(tmp.folder, "journal.jsonl"), "utf8"), /assistants|items/);
  });

  it("lists a conversation's items in the order they were made", async () => {
    const store = await opened();
    const a = asked("first", "c1");
    const b = item("text", "answer", "c1");
    const c = asked("second", "c1");
    const other = asked("elsewhere", "c2");
    for (const row of [c, other, a, b]) store.put("items", row);
    assert.deepEqual(
      store.items("c1").map((i) => i.text),
      ["first", "answer", "second"],
    );
    store.put("items", { ...b, chat: "c2" });
    assert.deepEqual(
      store.items("c2").map((i) => i.text),
      ["answer", "elsewhere"],
    );
    store.delete("items", a.id);
    assert.deepEqual(
      store.items("c1").map((i) => i.text),
      ["second"],
    );
    assert.deepEqual(store.items("none"), []);
  });

  it("lists conversations newest first by their latest item, and finds them by title or text", async () => {
    const store = await opened();
    const old = conversation("a1", "Old trip to Rome");
    const mid = conversation("a1", "Recipes");
    const fresh = conversation("a1", "Budget");
    for (const c of [old, mid, fresh]) store.put("conversations", c);
    assert.deepEqual(
      store.conversations().map((c) => c.title),
      ["Budget", "Recipes", "Old trip to Rome"],
    );
    store.put("items", asked("How long to boil PASTA?", old.id));
    assert.deepEqual(
      store.conversations().map((c) => c.title),
      ["Old trip to Rome", "Budget", "Recipes"],
    );
    assert.deepEqual(
      (await store.search("pasta")).map((c) => c.title),
      ["Old trip to Rome"],
    );
    assert.deepEqual(
      (await store.search("BUDG")).map((c) => c.title),
      ["Budget"],
    );
    assert.deepEqual(await store.search("nowhere"), []);
    assert.equal((await store.search("  ")).length, 3);
  });

  it("tells each view only the rows it follows, until it stops", async () => {
    const store = await opened();
    const seen: Change<"items">[] = [];
    const lists: string[] = [];
    const one: string[] = [];
    const stop = store.follow({ table: "items", where: { chat: "c1" } }, (c) => seen.push(c));
    store.follow({ table: "conversations" }, (c) => lists.push(c.row?.title ?? "deleted"));
    const q = asked("hi", "c1");
    store.follow({ table: "items", key: q.id }, (c) => one.push(c.row?.text ?? "deleted"));
    store.put("items", q);
    store.put("items", asked("elsewhere", "c2"));
    store.put("items", q); // the same row again changes nothing
    store.put("items", { ...q, done: true });
    store.put("conversations", conversation("a1", "Chat"));
    store.deleteConversation("c1");
    assert.deepEqual(
      seen.map((c) => [c.row?.text ?? null, c.before?.text ?? null, c.row?.done ?? null]),
      [
        ["hi", null, false],
        ["hi", "hi", true],
        [null, "hi", null],
      ],
    );
    assert.deepEqual(lists, ["Chat"]);
    assert.deepEqual(one, ["hi", "hi", "deleted"]);
    stop();
    store.put("items", asked("after", "c1"));
    assert.equal(seen.length, 3);
  });

  it("moves an item out of a followed conversation as a change that view sees", async () => {
    const store = await opened();
    const q = asked("moving", "c1");
    store.put("items", q);
    const seen: string[] = [];
    store.follow({ table: "items", where: { chat: "c1" } }, (c) => seen.push(c.row?.chat ?? "gone"));
    store.put("items", { ...q, chat: "c2" });
    assert.deepEqual(seen, ["c2"]);
  });

  it("keeps working when a view throws", async () => {
    const store = await opened();
    const quiet = console.error;
    console.error = () => undefined;
    try {
      store.follow({ table: "items" }, () => {
        throw new Error("broken view");
      });
      const seen: string[] = [];
      store.follow({ table: "items" }, (c) => seen.push(c.key));
      const q = asked("still saved", "c1");
      store.put("items", q);
      assert.deepEqual(seen, [q.id]);
    } finally {
      console.error = quiet;
    }
  });

  it("refuses writes once closed", async () => {
    const store = await Store.open(tmp.folder);
    await store.close();
    assert.throws(() => store.put("items", asked("late", "c1")), /closed/);
  });

  it("makes a message durable before putDurable resolves", async () => {
    const store = await opened();
    const q = asked("durable", "c1");
    await store.putDurable("items", q);
    const text = await readFile(join(tmp.folder, "chats", "c1.jsonl"), "utf8");
    assert.ok(text.includes(q.id) && text.includes("durable"));
  });
});
