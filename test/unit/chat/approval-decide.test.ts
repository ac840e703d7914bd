import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import type { Tool } from "../../../src/agent/types";
import type { Decision } from "../../../src/chat/approval/approval";
import { asked } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { PanelView } from "../../../src/chat/panel/view";
import { Runner } from "../../../src/chat/runner/runner";
import { Store } from "../../../src/chat/store/store";
import type { HostMessage } from "../../../src/protocol/messages";
import { recordingHost } from "../../fixtures/view-host";
import { answerOf, answered, bench, gate, hostOf, until, type Bench } from "./runner-fixture";

/** Holds what the store tells the followers added from now on until `release`: followers that are late. */
function lateFollowers(store: Store): { release(): void } {
  const follow = store.follow.bind(store);
  const held: (() => void)[] = [];
  store.follow = ((what, listener) =>
    follow(what, (change) => held.push(() => listener(change)))) as Store["follow"];
  return {
    release() {
      store.follow = follow;
      for (const tell of held.splice(0)) tell();
    },
  };
}

describe("approval: the person's answer settles the waiting call directly", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  function notes(): { tool: Tool; written: string[] } {
    const written: string[] = [];
    const t = tool("write_note", "Writes a note.", z.object({ text: z.string() }), ({ text }) => {
      written.push(text);
      return "written";
    });
    return { tool: t, written };
  }

  /** A message whose answer calls write_note twice (two rounds), then says it is done. */
  const twice = () =>
    scripted([
      calls([["write_note", '{"text":"a"}']]),
      calls([["write_note", '{"text":"b"}']]),
      says("Wrote them."),
      says("Notes"),
    ]);

  /** Every change of the call rows of `chat`, as the store tells them (put before the message is sent). */
  function callRows(chat: string): Item[] {
    const rows: Item[] = [];
    b!.store.follow({ table: "items", where: { chat, kind: "call" } }, (c) => c.row && rows.push(c.row));
    return rows;
  }

  /** The `n`th call of the answer to `user`, once it waits for the person. */
  async function waiting(chat: string, user: Item, n = 0): Promise<Item> {
    const call = () => answerOf(b!.store, chat, user.id).filter((i) => i.kind === "call")[n];
    await until(() => call()?.state === "approval", `call ${n} to wait for the person`);
    return call();
  }

  it("goes on with the panel's answer although the store's followers have not been told it", async () => {
    const { tool: t, written } = notes();
    b = await bench(hostOf({ default: twice() }, { tools: () => [t] }));
    const chat = b.chat();
    const user = asked("Write a and b", chat);
    const late = lateFollowers(b.store);
    b.store.put("items", user);
    try {
      assert.equal(b.runner.decide((await waiting(chat, user, 0)).id, true), true);
      assert.equal(b.runner.decide((await waiting(chat, user, 1)).id, false), true);
      await answered(b.store, user.id);
    } finally {
      late.release();
    }
    assert.deepEqual(written, ["a"]);
    assert.deepEqual(
      answerOf(b.store, chat, user.id).map((i) => [i.kind, i.state]),
      [
        ["call", "done"],
        ["call", "declined"],
        ["text", ""],
      ],
    );
  });

  it("writes the question with its 'Always allow' in one row, the decision in one more, and a late answer writes nothing", async () => {
    const { tool: t, written } = notes();
    const notification = gate<Decision>();
    let dismissed = false;
    const approve = (_c: Item, signal: AbortSignal) => {
      signal.addEventListener("abort", () => (dismissed = true));
      return notification.promise;
    };
    b = await bench(
      hostOf(
        { default: scripted([calls([["write_note", '{"text":"a"}']]), says("Wrote a."), says("N")]) },
        {
          tools: () => [t],
          approve,
        },
      ),
    );
    const chat = b.chat();
    const rows = callRows(chat);
    const user = asked("Write a", chat);
    b.store.put("items", user);
    const call = await waiting(chat, user);
    assert.deepEqual(
      rows.filter((r) => r.state === "approval").map((r) => [r.text, r.always]),
      [['Tandem wants to run write_note: {"text":"a"}', "Always Allow in This Conversation"]],
      "one write carries the question and what 'Always allow' offers",
    );
    assert.equal(b.runner.decide(call.id, true), true);
    await until(() => dismissed, "the notification to be dismissed");
    notification.open("always");
    assert.equal(b.runner.decide(call.id, false), false, "a second answer does not count");
    await answered(b.store, user.id);
    assert.deepEqual(
      rows.map((r) => r.state),
      ["running", "approval", "approved", "done"],
      "the decision is written once, and the late answers wrote nothing",
    );
    assert.deepEqual(written, ["a"]);
  });

  for (const first of ["panel", "notification"] as const) {
    it(`takes the first of two answers at once (the ${first}'s), and the second changes nothing`, async () => {
      const { tool: t, written } = notes();
      const notifications: ((d: Decision) => void)[] = [];
      b = await bench(
        hostOf(
          { default: twice() },
          {
            tools: () => [t],
            approve: () => new Promise<Decision>((resolve) => notifications.push(resolve)),
          },
        ),
      );
      const chat = b.chat();
      const rows = callRows(chat);
      const user = asked("Write a and b", chat);
      b.store.put("items", user);
      const call = await waiting(chat, user);
      await until(() => notifications.length === 1, "the notification");
      // The panel says no, the notification "always": both in the same moment.
      if (first === "panel") {
        assert.equal(b.runner.decide(call.id, false), true);
        notifications[0]("always");
      } else {
        notifications[0]("always");
        await until(() => b!.store.get("items", call.id)?.state !== "approval", "the notification's answer");
        assert.equal(b.runner.decide(call.id, false), false);
      }
      if (first === "panel") {
        // The notification's "always" came second: nothing is allowed, the next call is asked again.
        const next = await waiting(chat, user, 1);
        await until(() => notifications.length === 2, "the second call's notification");
        notifications[1](false);
        await answered(b.store, user.id);
        assert.deepEqual(written, []);
        assert.equal(next.always, "Always Allow in This Conversation");
      } else {
        await answered(b.store, user.id);
        assert.deepEqual(written, ["a", "b"], "'always' allowed the second call");
        assert.equal(notifications.length, 1, "the second call was not asked");
      }
      // One write of the decision; the call's end is the run's own write.
      const decision = first === "panel" ? "declined" : "approved";
      assert.deepEqual(
        rows.filter((r) => r.id === call.id).map((r) => [r.state, r.done]),
        [
          ["running", false],
          ["approval", false],
          [decision, false],
          [first === "panel" ? "declined" : "done", true],
        ],
      );
    });
  }

  it("takes the question away, unanswered, when the conversation is deleted while its call waits", async () => {
    const { tool: t, written } = notes();
    const dismissed = gate();
    const once = scripted([calls([["write_note", '{"text":"a"}']]), says("Gone."), says("N")]);
    b = await bench(
      hostOf(
        { default: once },
        {
          tools: () => [t],
          approve: (_c, signal) =>
            new Promise<Decision>((resolve) =>
              signal.addEventListener("abort", () => (dismissed.open(), resolve(true))),
            ),
        },
      ),
    );
    const chat = b.chat();
    const user = asked("Write a", chat);
    b.store.put("items", user);
    const call = await waiting(chat, user);
    b.store.deleteConversation(chat);
    await dismissed.promise;
    await b.runner.idle();
    assert.equal(b.runner.decide(call.id, true), false);
    assert.deepEqual(written, []);
  });

  it("counts no answer in a second window, which only reads: it says where to answer, and the first window's call still waits", async () => {
    const { tool: t, written } = notes();
    const once = scripted([calls([["write_note", '{"text":"a"}']]), says("Wrote a."), says("N")]);
    b = await bench(hostOf({ default: once }, { tools: () => [t] }));
    const chat = b.chat();
    const user = asked("Write a", chat);
    b.store.put("items", user);
    const call = await waiting(chat, user);
    const reader = await Store.open(b.dir, { followMs: 20 });
    const second = new Runner(reader, hostOf({ default: scripted([]) }));
    const sent: HostMessage[] = [];
    const view = new PanelView(reader, second, recordingHost(sent));
    try {
      // The person opens the conversation in the second window: it follows its items from then on.
      view.openChat(chat);
      await until(
        () => reader.get("items", call.id)?.state === "approval",
        "the second window to see the question",
      );
      assert.equal(reader.get("items", call.id)?.always, "Always Allow in This Conversation");
      await view.receive({ type: "decide", item: call.id, yes: true, always: true });
      assert.deepEqual(sent.at(-1), {
        type: "notice",
        level: "warning",
        text: "This conversation is answered in another window of this workspace: answer its question there.",
      });
      assert.equal(b.store.get("items", call.id)?.state, "approval", "the first window's call still waits");
      assert.equal(b.runner.decide(call.id, true), true, "and is answered there");
      await answered(b.store, user.id);
      assert.deepEqual(written, ["a"]);
    } finally {
      view.dispose();
      await second.close();
      await reader.close();
    }
  });
});
