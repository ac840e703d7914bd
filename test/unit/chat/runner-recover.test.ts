import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { assistant, asked, conversation, item, retried, stopped } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { Runner } from "../../../src/chat/runner/runner";
import { answerKey, CALL_INTERRUPTED, INTERRUPTED } from "../../../src/chat/runner/answer-items";
import { Store } from "../../../src/chat/store/store";
import { answerOf, answered, bench, hostOf, until, type Bench } from "./runner-fixture";

/** An item of the answer to `parent`, the `n`th, as a runner writes it. */
function part(parent: Item, n: number, kind: Item["kind"], text: string, over: Partial<Item> = {}): Item {
  return { ...item(kind, text, parent.chat), id: answerKey(parent.id, n), ...over };
}

describe("chat runner: after a restart", () => {
  let dir = "";
  let b: Bench | undefined;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-recover-"));
  });
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await rm(dir, { recursive: true, force: true });
  });

  it("marks an interrupted answer, closes its growing items, answers what had not started, and answers again only on retry", async () => {
    // What a crash left: chat 1 answered its first message and was half way through the second;
    // chat 2's message was sent but its answer never started; a stop was never seen.
    const before = await Store.open(dir);
    before.put("assistants", assistant("a1", "Helper"));
    const one = conversation("a1", "Trip");
    const two = conversation("a1", "");
    before.put("conversations", one);
    before.put("conversations", two);
    const u1 = { ...asked("Where to?", one.id), done: true };
    before.put("items", u1);
    before.put("items", part(u1, 0, "text", "Lyon.", { done: true }));
    const u2 = asked("And when?", one.id);
    before.put("items", u2);
    before.put("items", part(u2, 0, "reasoning", "The person asks", { done: false }));
    before.put("items", part(u2, 1, "text", "In spr", { done: false }));
    before.put("items", part(u2, 2, "call", "", { name: "weather", input: "{}", state: "approval" }));
    const stop = stopped(one.id);
    before.put("items", stop);
    const u3 = asked("Hello?", two.id);
    before.put("items", u3);
    await before.close();

    const model = scripted([says("Hello!"), says("Greeting"), says("In May.")]);
    b = await bench(hostOf({ default: model }), {}, dir);
    assert.deepEqual(b.runner.recovered.interrupted, [u2.id]);
    await answered(b.store, u3.id);
    await b.runner.idle();

    const answer = answerOf(b.store, one.id, u2.id);
    assert.deepEqual(
      answer.map((i) => [i.kind, i.kind === "call" ? i.state : i.text, i.done]),
      [
        ["reasoning", "The person asks", true],
        ["text", "In spr", true],
        ["call", "interrupted", true],
        ["error", INTERRUPTED, true],
      ],
    );
    assert.equal(answer[2].text, CALL_INTERRUPTED);
    assert.equal(answer[3].state, "interrupted");
    assert.equal(b.store.get("items", u2.id)?.done, true);
    assert.equal(b.store.get("items", stop.id)?.done, true);
    // Only chat 2's message (and its title) went to the model: the interrupted one was not repeated.
    assert.deepEqual(
      model.requests.map((r) => r.messages.at(-1)?.text),
      ["Hello?", "Hello?"],
    );
    assert.equal(answerOf(b.store, two.id, u3.id)[0].text, "Hello!");

    const again = await b.send(retried(one.id));
    assert.equal(answerOf(b.store, one.id, again.id)[0].text, "In May.");
    assert.deepEqual(
      model.requests[2].messages.map((m) => `${m.role}:${m.text}`),
      ["user:Where to?", "assistant:Lyon.", "user:And when?"],
    );
  });

  it("does nothing more when started twice, and a second runner on the same store answers nothing twice", async () => {
    const model = scripted([says("Once."), says("Title")]);
    b = await bench(hostOf({ default: model }), {}, dir);
    const chat = b.chat();
    await b.send(asked("Hi", chat));
    await b.runner.idle();
    assert.equal(b.runner.start(), false);
    await b.end();
    b = undefined;
    const later = scripted([says("Twice?")]);
    b = await bench(hostOf({ default: later }), {}, dir);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await b.runner.idle();
    assert.equal(later.requests.length, 0);
    assert.deepEqual(b.runner.recovered, { interrupted: [], closed: 0 });
  });

  it("waits in a window that only reads, and starts once that window writes", async () => {
    const writer = await Store.open(dir);
    const model = scripted([says("From the second window."), says("Title")]);
    const started: { runner?: Runner } = {};
    const reader = await Store.open(dir, { followMs: 20, onWritable: () => started.runner?.start() });
    const runner = new Runner(reader, hostOf({ default: model }));
    started.runner = runner;
    try {
      assert.equal(reader.writable, false);
      assert.equal(runner.start(), false);
      writer.put("assistants", assistant("a1", "Helper"));
      const c = conversation("a1");
      writer.put("conversations", c);
      const user = asked("Hi", c.id);
      await writer.putDurable("items", user);
      await until(() => reader.items(c.id).length === 1, "the reader to follow the message");
      assert.equal(model.requests.length, 0, "a window that reads answers nothing");
      await writer.close();
      await answered(reader, user.id);
      assert.equal(answerOf(reader, c.id, user.id)[0].text, "From the second window.");
    } finally {
      await runner.close();
      await writer.close();
      await reader.close();
    }
  });
});
