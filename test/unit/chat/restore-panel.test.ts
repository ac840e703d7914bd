import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { asked } from "../../../src/chat/make";
import { RESTORED } from "../../../src/chat/restore";
import type { Item } from "../../../src/chat/rows";
import { PanelView, type ViewHost } from "../../../src/chat/view";
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
});
