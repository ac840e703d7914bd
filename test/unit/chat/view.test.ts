import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import { keyed } from "../../../src/markdown";
import type { HostMessage } from "../../../src/protocol/messages";
import type { Item } from "../../../src/protocol/rows";
import { z } from "zod";
import { BlockText } from "../../../webview-ui/item-blocks";
import { bench, hostOf, until, type Bench } from "./runner-fixture";
import { fileRef } from "../../../src/protocol/file-refs";

/** A panel replica, with the panel's own code: the messages it was sent and the blocks they build. */
function panelHost(): ViewHost & {
  sent: HostMessage[];
  blocks: Map<string, BlockText>;
  of<T extends HostMessage["type"]>(type: T): Extract<HostMessage, { type: T }>[];
} {
  const sent: HostMessage[] = [];
  const blocks = new Map<string, BlockText>();
  return {
    sent,
    blocks,
    of: <T extends HostMessage["type"]>(type: T) =>
      sent.filter((m) => m.type === type) as Extract<HostMessage, { type: T }>[],
    send(message) {
      // What crosses to the webview is JSON: a message that does not survive it is a bug.
      const copy = JSON.parse(JSON.stringify(message)) as HostMessage;
      sent.push(copy);
      if (copy.type === "snapshot" || copy.type === "opened")
        for (const [id, b] of Object.entries(copy.blocks)) blocks.set(id, new BlockText(b));
      if (copy.type === "blocks") {
        const text = blocks.get(copy.patch.key) ?? new BlockText();
        text.apply(copy.patch);
        blocks.set(copy.patch.key, text);
      }
    },
    choices: async () => [{ id: "m", name: "m", group: "Endpoint", note: "" }],
    defaultModel: async () => "m",
    pickFiles: async () => [fileRef("src/a.ts", "a.ts")],
    dropped: async (uris) => uris.map((u) => fileRef(u, u)),
    code: () => undefined,
    openLink: () => undefined,
    openFile: () => undefined,
    command: () => undefined,
    pluginKey: async () => undefined,
  };
}

describe("the panel's host half (PanelView)", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  const answerText =
    "# Result\n\nThe **sum** is:\n\n```ts\nconst x = 1 + 2;\n```\n\n| a | b |\n|---|---|\n| 1 | 2 |\n\nDone.";

  it("sends a snapshot, then the answer as patches whose blocks equal the whole text rendered", async () => {
    b = await bench(
      hostOf({
        default: scripted([says(answerText), says("Sum")]),
        m: scripted([says(answerText), says("Sum")]),
      }),
    );
    const host = panelHost();
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({ type: "ready" });
    const snapshot = host.of("snapshot")[0];
    assert.equal(snapshot.configured, true);
    assert.equal(snapshot.chat, "");

    await view.receive({
      type: "send",
      chat: "",
      text: "Add one and two",
      files: [],
      model: "",
      assistant: "",
    });
    const chat = view.open;
    assert.ok(chat, "a conversation was made for the first message");
    await until(() => b!.store.items(chat).some((i) => i.kind === "text" && i.done), "the answer");
    const text = b.store.items(chat).find((i) => i.kind === "text")!;
    await until(() => (host.blocks.get(text.id)?.html.length ?? 0) > 0, "the blocks");
    // The last patch of the frame follows within the frame's interval (later on a loaded machine).
    const final = keyed(answerText, text.id).map((block) => block.html);
    await until(() => isDeepStrictEqual(host.blocks.get(text.id)?.html, final), "the final blocks");
    assert.deepEqual(host.blocks.get(text.id)?.html, final);
    // The answer's words travelled as blocks, not again in its rows.
    const itemRows = host
      .of("rows")
      .filter((m) => m.table === "items")
      .flatMap((m) => m.put);
    assert.ok(itemRows.filter((r) => r.id === text.id).every((r) => r.text === ""));
    // The person's message is stored, durable, with what they wrote.
    assert.equal(b.store.items(chat)[0].text, "Add one and two");
    view.dispose();
  });

  it("tells an open panel the new model choices when the person's endpoints change", async () => {
    b = await bench(hostOf({ default: scripted([]) }));
    let choices = [{ id: "endpoint:old/a", name: "a", group: "old", note: "" }];
    const host = { ...panelHost(), choices: async () => choices };
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({ type: "ready" });
    assert.deepEqual(
      host.of("snapshot")[0].choices.map((c) => c.id),
      ["endpoint:old/a"],
    );
    choices = [{ id: "endpoint:two/model-b", name: "model-b", group: "two", note: "" }];
    await view.refreshChoices();
    const rows = host.of("rows").filter((m) => m.table === "choices");
    assert.deepEqual(
      rows.map((m) => [m.put.map((c) => c.id), m.delete]),
      [[["endpoint:two/model-b"], ["endpoint:old/a"]]],
    );
  });

  it("refuses malformed messages without touching the store", async () => {
    b = await bench(hostOf({ default: scripted([]) }));
    const host = panelHost();
    const refused: string[] = [];
    const view = new PanelView(b.store, b.runner, { ...host, refused: (why) => refused.push(why) });
    const before = b.store.count("items");
    await view.receive({ type: "send", chat: "", text: 42 });
    await view.receive({ type: "nope" });
    await view.receive("<script>alert(1)</script>");
    assert.equal(refused.length, 3);
    assert.equal(b.store.count("items"), before);
    view.dispose();
  });

  it("keeps a memory the person writes on the Memory page, saying it is theirs", async () => {
    b = await bench(hostOf({ default: scripted([]) }));
    const view = new PanelView(b.store, b.runner, panelHost());
    await view.receive({ type: "remember", agent: "a1", text: "  I review on Fridays.  " });
    await view.receive({ type: "remember", agent: "a1", text: "   " });
    await view.receive({ type: "remember", agent: "nobody", text: "Lost" });
    await view.receive({ type: "remember", agent: "a1", text: "x".repeat(1001) });
    assert.deepEqual(
      b.store.rows("memories").map((m) => [m.agent, m.text, m.source]),
      [["a1", "I review on Fridays.", { from: "person", chat: "", title: "" }]],
    );
    view.dispose();
  });

  it("lets the panel approve a call, and the decision is written on the item", async () => {
    const writes: string[] = [];
    const write = tool("write_note", "Writes a note", z.object({ text: z.string() }), ({ text }) => {
      writes.push(text);
      return "written";
    });
    const model = scripted([calls([["write_note", '{"text":"hi"}']]), says("Noted."), says("Note")]);
    b = await bench(hostOf({ default: model }, { tools: () => [write] }));
    const host = panelHost();
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({ type: "ready" });
    await view.receive({ type: "send", chat: "", text: "Write hi", files: [], model: "", assistant: "" });
    const chat = view.open;
    await until(
      () => b!.store.items(chat).some((i) => i.kind === "call" && i.state === "approval"),
      "the approval question",
    );
    const call = b.store.items(chat).find((i) => i.kind === "call")!;
    assert.ok(
      host
        .of("rows")
        .some((m) => m.put.some((r) => "state" in r && r.id === call.id && r.state === "approval")),
    );
    await view.receive({ type: "decide", item: call.id, yes: true, always: false });
    await until(
      () => b!.store.items(chat).some((i) => i.kind === "text" && i.done),
      "the answer after the call",
    );
    assert.deepEqual(writes, ["hi"]);
    assert.equal(b.store.get("items", call.id)?.state, "done");
    view.dispose();
  });

  it("shows the panel 'Always allow' on the call's row only where it applies, named by what it allows, and again on reopening", async () => {
    const make = tool("create_file", "Creates", z.object({ path: z.string() }), () => "made");
    const model = scripted([
      calls([["create_file", '{"path":"notes.md"}']]),
      calls([["create_file", '{"path":".vscode/tasks.json"}']]),
      says("Made."),
      says("Notes"),
    ]);
    const root = process.cwd();
    b = await bench(hostOf({ default: model }, { tools: () => [make], root: () => root }));
    const host = panelHost();
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({ type: "ready" });
    await view.receive({ type: "send", chat: "", text: "Make", files: [], model: "", assistant: "" });
    const chat = view.open;
    const waiting = (n: number) => b!.store.items(chat).filter((i) => i.kind === "call")[n];
    /** The rows of the call `id` the panel was sent while it waited. */
    const asked = (id: string) =>
      host
        .of("rows")
        .flatMap((m) => (m.table === "items" ? (m.put as Item[]) : []))
        .filter((r) => r.id === id && r.state === "approval");
    await until(() => waiting(0)?.state === "approval", "the first question");
    assert.deepEqual(
      asked(waiting(0).id).map((r) => [r.text, r.always]),
      [['Tandem wants to run create_file: {"path":"notes.md"}', "Always Allow in This Conversation"]],
      "one row, with the question and its 'Always allow'",
    );
    view.openChat(chat);
    assert.deepEqual(
      host
        .of("opened")
        .at(-1)!
        .items.filter((i) => i.kind === "call")
        .map((i) => [i.state, i.always]),
      [["approval", "Always Allow in This Conversation"]],
    );
    await view.receive({ type: "decide", item: waiting(0).id, yes: true, always: false });
    await until(() => waiting(1)?.state === "approval", "the second question");
    assert.deepEqual(
      asked(waiting(1).id).map((r) => r.always),
      [undefined],
      "not offered for a protected path",
    );
    assert.equal(waiting(0).always, undefined, "the decided call offers nothing any more");
    await view.receive({ type: "decide", item: waiting(1).id, yes: false, always: false });
    view.dispose();
  });

  it("starts a new conversation with the project instructions off when its first message says so", async () => {
    b = await bench(
      hostOf({ default: scripted([says("Hello."), says("Greeting"), says("Again."), says("T")]) }),
    );
    const view = new PanelView(b.store, b.runner, panelHost());
    const message = { type: "send", chat: "", text: "Hi", files: [], model: "", assistant: "" };
    await view.receive({ ...message, instructions: false });
    const off = b.store.conversations()[0];
    assert.equal(off.instructions, false);
    await view.receive({ ...message, text: "Hi again" });
    const on = b.store.rows("conversations").find((c) => c.id !== off.id);
    assert.equal(on?.instructions, undefined);
    await b.runner.idle();
    view.dispose();
  });

  it("deletes a conversation with undo, and renames one", async () => {
    b = await bench(hostOf({ default: scripted([says("Hello."), says("Greeting")]) }));
    const host = panelHost();
    const view = new PanelView(b.store, b.runner, host);
    const chat = await view.send("", "Hi there", [], "", "");
    await until(() => b!.store.items(chat).some((i) => i.kind === "text" && i.done), "the answer");
    await b.runner.idle();
    await view.receive({ type: "rename", chat, title: "  My chat  " });
    assert.equal(b.store.get("conversations", chat)?.title, "My chat");
    const count = b.store.items(chat).length;
    await view.receive({ type: "deleteChat", chat });
    assert.equal(b.store.get("conversations", chat), undefined);
    assert.equal(b.store.items(chat).length, 0);
    await view.receive({ type: "undoDelete", chat });
    assert.equal(b.store.get("conversations", chat)?.title, "My chat");
    assert.equal(b.store.items(chat).length, count);
    view.dispose();
  });

  it("finds conversations by their text and attaches picked files", async () => {
    b = await bench(hostOf({ default: scripted([says("Bananas are yellow."), says("Fruit")]) }));
    const host = panelHost();
    const view = new PanelView(b.store, b.runner, host);
    const chat = await view.send("", "Tell me about fruit", [], "", "");
    await until(() => b!.store.items(chat).some((i) => i.kind === "text" && i.done), "the answer");
    await view.receive({ type: "search", query: "BANANAS" });
    assert.deepEqual(host.of("found")[0].chats, [chat]);
    await view.receive({ type: "attach" });
    assert.deepEqual(host.of("attached")[0].files, [{ path: "src/a.ts", name: "a.ts", kind: "text" }]);
    view.dispose();
  });
});
