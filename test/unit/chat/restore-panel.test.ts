import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { asked } from "../../../src/chat/make";
import { RESTORED } from "../../../src/chat/panel/go-back";
import type { Item } from "../../../src/chat/row-schemas";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { bench, hostOf, type Bench } from "./runner-fixture";
import { setBundle } from "../../../src/protocol/l10n";
import { recordingHost } from "../../fixtures/view-host";

/** A panel host that records what it was sent, and the restores and diffs it was asked for. */
function panelHost(refuse = false) {
  const sent: HostMessage[] = [];
  const restored: string[] = [];
  const shown: string[] = [];
  const host: ViewHost = recordingHost(sent, {
    restoreFilesTo: async (message: Item) => {
      if (refuse) throw new Error("The restore was cancelled.");
      restored.push(message.id);
      return "Restored 2 files.";
    },
    changesSince: async (message: Item) => void shown.push(message.id),
  });
  return { host, sent, restored, shown };
}

/**
 * A panel host that restores as the editor does: after it asked its question through `ask` and the
 * answer was yes. `asked(n)` resolves once `n` questions are out (sent to the panel).
 */
function askingHost() {
  const sent: HostMessage[] = [];
  const restored: string[] = [];
  const refused: string[] = [];
  let count = 0;
  const waiters: Array<[number, () => void]> = [];
  const out = () => {
    count++;
    for (const [n, resolve] of waiters) if (count >= n) resolve();
  };
  const asked = (n = 1) =>
    new Promise<void>((resolve) => (count >= n ? resolve() : waiters.push([n, resolve])));
  const host: ViewHost = recordingHost(sent, {
    restoreFilesTo: async (message, ask) => {
      if (!ask) {
        out();
        throw new Error("asked in a notification, not in the panel");
      }
      const answer = ask(`Restore 2 files to how they were before “${message.text}”?`);
      out();
      if (!(await answer)) throw new Error("The restore was cancelled.");
      restored.push(message.id);
      return "Restored 2 files.";
    },
    refused: (why) => void refused.push(why),
  });
  const questions = () => sent.filter((s) => s.type === "restoreQuestion");
  const question = () => {
    const q = questions()[0];
    assert.ok(q, "the question was sent to the panel");
    return q;
  };
  const notices = () => sent.filter((s) => s.type === "notice");
  return { host, sent, restored, refused, asked, question, questions, notices };
}

describe("restore to one of the person's messages from the panel", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  async function twoMessages() {
    b = await bench(hostOf({ default: scripted([says("A1"), says("Title"), says("A2")]) }));
    const chat = b.chat();
    const first = await b.send(asked("one", chat));
    await b.runner.idle();
    const second = await b.send(asked("two", chat));
    await b.runner.idle();
    return { chat, first, second };
  }

  it("restores the files only, telling the person; the conversation stays as it is", async () => {
    const { chat, second } = await twoMessages();
    const p = panelHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    const before = JSON.stringify(b!.store.items(chat));
    await view.receive({ type: "restoreTo", item: second.id, files: true, conversation: false });
    assert.deepEqual(p.restored, [second.id]);
    assert.ok(
      p.sent.some((s) => s.type === "notice" && s.level === "info" && s.text === "Restored 2 files."),
    );
    assert.equal(b!.store.rows("conversations").length, 1);
    assert.equal(JSON.stringify(b!.store.items(chat)), before);
  });

  it("restores the conversation only: a new conversation holding what came before the message, opened", async () => {
    const { chat, second } = await twoMessages();
    const p = panelHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    await view.receive({ type: "restoreTo", item: second.id, files: false, conversation: true });
    assert.deepEqual(p.restored, []);
    const fork = view.open;
    assert.notEqual(fork, chat);
    assert.equal(b!.store.get("conversations", fork)?.title, `Title${RESTORED}`);
    const texts = (id: string) => b!.store.items(id).map((i) => `${i.kind}:${i.text}`);
    assert.deepEqual(texts(fork), ["user:one", "text:A1"]);
    assert.deepEqual(
      texts(chat),
      ["user:one", "text:A1", "user:two", "text:A2"],
      "the original is untouched",
    );
  });

  it("restores both, the files first; a cancelled restore makes no new conversation and says so", async () => {
    const { first } = await twoMessages();
    const cancelled = panelHost(true);
    await new PanelView(b!.store, b!.runner, cancelled.host).receive({
      type: "restoreTo",
      item: first.id,
      files: true,
      conversation: true,
    });
    assert.equal(b!.store.rows("conversations").length, 1);
    assert.ok(
      cancelled.sent.some(
        (s) =>
          s.type === "notice" &&
          s.level === "error" &&
          s.text === "Nothing was restored: The restore was cancelled.",
      ),
    );
    const p = panelHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    await view.receive({ type: "restoreTo", item: first.id, files: true, conversation: true });
    assert.deepEqual(p.restored, [first.id]);
    assert.deepEqual(
      b!.store.items(view.open).map((i) => i.kind),
      [],
      "before the first message there is nothing",
    );
  });

  it("shows the changes since a message's checkpoint, and refuses what is not one of the person's messages", async () => {
    const { chat, first } = await twoMessages();
    const p = panelHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    await view.receive({ type: "changesSince", item: first.id });
    assert.deepEqual(p.shown, [first.id]);
    const answer = b!.store.items(chat).find((i) => i.kind === "text")!;
    await view.receive({ type: "restoreTo", item: answer.id, files: true, conversation: false });
    await view.receive({ type: "restoreTo", item: "gone", files: true, conversation: false });
    assert.deepEqual(p.restored, []);
    assert.equal(p.sent.filter((s) => s.type === "notice" && s.level === "error").length, 2);
  });

  it("says why nothing was restored in the person's language", async () => {
    const { second } = await twoMessages();
    const p = panelHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    const de = readFileSync(join(__dirname, "../../../l10n/bundle.l10n.de.json"), "utf8");
    setBundle(JSON.parse(de) as Record<string, string>);
    try {
      const answer = b!.store.items(second.chat).find((i) => i.kind === "text" && i.text === "A2")!;
      await view.receive({ type: "restoreTo", item: answer.id, files: true, conversation: false });
    } finally {
      setBundle(undefined);
    }
    assert.ok(
      p.sent.some(
        (s) =>
          s.type === "notice" &&
          s.text === "Es wurde nichts wiederhergestellt: Diese Nachricht ist nicht mehr in der Unterhaltung.",
      ),
      JSON.stringify(p.sent.filter((s) => s.type === "notice")),
    );
  });

  it("asks in the panel, under the message, and restores only after the person's yes there", async () => {
    const { second } = await twoMessages();
    const p = askingHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    const done = view.receive({ type: "restoreTo", item: second.id, files: true, conversation: false });
    await p.asked();
    const q = p.question();
    assert.equal(q.item, second.id);
    assert.equal(q.question, "Restore 2 files to how they were before “two”?");
    assert.deepEqual(p.restored, [], "nothing is restored before the answer");
    // An answer that names another question, and one the schema refuses, change nothing.
    await view.receive({ type: "restoreAnswer", ask: "not-the-question", yes: true });
    await view.receive({ type: "restoreAnswer", ask: q.ask, yes: "yes" });
    assert.equal(p.refused.length, 1);
    assert.deepEqual(p.restored, []);
    await view.receive({ type: "restoreAnswer", ask: q.ask, yes: true });
    await done;
    assert.deepEqual(p.restored, [second.id]);
    assert.deepEqual(p.notices(), [{ type: "notice", level: "info", text: "Restored 2 files." }]);
    // The same answer again is one to an answered question: nothing more happens.
    await view.receive({ type: "restoreAnswer", ask: q.ask, yes: true });
    assert.deepEqual(p.restored, [second.id]);
  });

  it("restores nothing on the person's no in the panel, says so, and makes no new conversation", async () => {
    const { first } = await twoMessages();
    const p = askingHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    const done = view.receive({ type: "restoreTo", item: first.id, files: true, conversation: true });
    await p.asked();
    await view.receive({ type: "restoreAnswer", ask: p.question().ask, yes: false });
    await done;
    assert.deepEqual(p.restored, []);
    assert.deepEqual(p.notices(), [
      { type: "notice", level: "error", text: "Nothing was restored: The restore was cancelled." },
    ]);
    assert.equal(b!.store.rows("conversations").length, 1);
  });

  it("tells the message's menu when its restore is done: what was restored, a refusal, a cancel", async () => {
    const { first, second } = await twoMessages();
    const done = (sent: HostMessage[]) => sent.filter((s) => s.type === "restoreDone");

    // Restored after the person's yes: the files' words, and the new conversation for both.
    const yes = askingHost();
    const view = new PanelView(b!.store, b!.runner, yes.host);
    const restoring = view.receive({ type: "restoreTo", item: second.id, files: true, conversation: true });
    await yes.asked();
    assert.deepEqual(done(yes.sent), [], "nothing is done while the question waits");
    await view.receive({ type: "restoreAnswer", ask: yes.question().ask, yes: true });
    await restoring;
    assert.deepEqual(done(yes.sent), [
      {
        type: "restoreDone",
        item: second.id,
        ok: true,
        text: "Restored 2 files. The conversation before this message is open as a new conversation.",
      },
    ]);

    // The person's no in the panel.
    const no = askingHost();
    const other = new PanelView(b!.store, b!.runner, no.host);
    const cancelled = other.receive({ type: "restoreTo", item: first.id, files: true, conversation: false });
    await no.asked();
    await other.receive({ type: "restoreAnswer", ask: no.question().ask, yes: false });
    await cancelled;
    assert.deepEqual(done(no.sent), [
      {
        type: "restoreDone",
        item: first.id,
        ok: false,
        text: "Nothing was restored: The restore was cancelled.",
      },
    ]);

    // Refused: not one of the person's messages; and a host that cannot restore files.
    const refused = panelHost();
    const third = new PanelView(b!.store, b!.runner, refused.host);
    await third.receive({ type: "restoreTo", item: "gone", files: true, conversation: false });
    assert.deepEqual(done(refused.sent), [
      {
        type: "restoreDone",
        item: "gone",
        ok: false,
        text: "Nothing was restored: That message is no longer in the conversation.",
      },
    ]);
    await third.receive({ type: "changesSince", item: first.id });
    assert.equal(done(refused.sent).length, 1, "showing the changes is no restore");
  });

  it("answers no when the panel is closed, or reloads, while its question waits", async () => {
    const { first, second } = await twoMessages();
    const closed = askingHost();
    const view = new PanelView(b!.store, b!.runner, closed.host);
    const done = view.receive({ type: "restoreTo", item: first.id, files: true, conversation: false });
    await closed.asked();
    view.dispose();
    await done;
    assert.deepEqual(closed.restored, []);
    assert.equal(closed.notices()[0]?.level, "error");

    // A reloaded panel shows the transcript anew, without the question: it is answered no too.
    const reloaded = askingHost();
    const again = new PanelView(b!.store, b!.runner, reloaded.host);
    const waited = again.receive({ type: "restoreTo", item: second.id, files: true, conversation: false });
    await reloaded.asked();
    await again.receive({ type: "ready" });
    await waited;
    assert.deepEqual(reloaded.restored, []);
    await again.receive({ type: "restoreAnswer", ask: reloaded.question().ask, yes: true });
    assert.deepEqual(reloaded.restored, [], "a late yes to a cancelled question restores nothing");
  });

  it("a second question answers the first no; only the second's answer restores", async () => {
    const { first, second } = await twoMessages();
    const p = askingHost();
    const view = new PanelView(b!.store, b!.runner, p.host);
    const one = view.receive({ type: "restoreTo", item: first.id, files: true, conversation: false });
    await p.asked();
    const two = view.receive({ type: "restoreTo", item: second.id, files: true, conversation: false });
    await p.asked(2);
    await one;
    const [q1, q2] = p.questions();
    assert.equal(q2?.item, second.id);
    assert.notEqual(q1.ask, q2.ask, "each question has its own id");
    assert.equal(p.notices()[0]?.level, "error", "the first restore is told it was cancelled");
    await view.receive({ type: "restoreAnswer", ask: q1.ask, yes: true });
    assert.deepEqual(p.restored, []);
    await view.receive({ type: "restoreAnswer", ask: q2.ask, yes: true });
    await two;
    assert.deepEqual(p.restored, [second.id]);
  });
});
