import assert from "node:assert/strict";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { copiedBefore } from "../../../src/chat/panel/fork";
import { asked, item } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { Editor, NewFile, Proposal, EditVerdict } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace";
import { fileRef } from "../../../src/protocol/file-refs";
import type { HostMessage } from "../../../src/protocol/messages";
import { answered, bench, hostOf, until, type Bench } from "./runner-fixture";
import { recordingHost } from "../../fixtures/view-host";

/** A panel host that records what it was sent; `restore` fills the checkpoint hook when given. */
function panelHost(restore?: (message: Item) => Promise<string>): ViewHost & { sent: HostMessage[] } {
  const sent: HostMessage[] = [];
  const host = recordingHost(sent, {
    choices: async () => [
      { id: "m", name: "m", group: "Endpoint", note: "" },
      { id: "other", name: "other", group: "Endpoint", note: "" },
    ],
    defaultModel: async () => "m",
    ...(restore ? { restoreFilesTo: restore } : {}),
  });
  return { ...host, sent };
}

/** A file that exists, attached to a message. */
const notes = fileRef(join(process.cwd(), "package.json"), "package.json");

/** An item as stored, without the fields a copy gets anew, for comparing a copy with its original. */
function shape(i: Item): string {
  const { id: _id, chat: _chat, copiedFrom: _from, ...rest } = i;
  return JSON.stringify(rest);
}

/** The messages a model was last sent, each as "role:its first line". */
function lastAsk(model: ReturnType<typeof scripted>): string[] {
  const request = model.requests[model.requests.length - 1];
  return request.messages.map((m) => `${m.role}:${"text" in m ? m.text.split("\n")[0] : ""}`);
}

describe("edit and resend, regenerate, retry on another model", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  /** A conversation of three answered messages (named "Title"), the second with a file attached. */
  async function threeMessages(models: Record<string, ReturnType<typeof scripted>>) {
    b = await bench(hostOf(models));
    const chat = b.chat();
    const first = await b.send(asked("one", chat));
    // The conversation is named after its first answer (the model's second turn), before the next message.
    await b.runner.idle();
    const second = await b.send(asked("two", chat, "", [notes]));
    const third = await b.send(asked("three", chat));
    await b.runner.idle();
    return { chat, first, second, third };
  }

  it("forks at an edited message: the original stays byte for byte, the fork is the prefix and the edited message", async () => {
    const m = scripted([says("A1"), says("Title"), says("A2"), says("A3"), says("A2 edited")]);
    const { chat, second } = await threeMessages({ default: m, m });
    const before = JSON.stringify(b!.store.items(chat));
    const prefix = b!.store.items(chat).filter((i) => i.id < second.id);
    const host = panelHost();
    const view = new PanelView(b!.store, b!.runner, host);
    await view.receive({ type: "ready" });
    assert.equal(
      host.sent.find((s) => s.type === "snapshot" && s.restore),
      undefined,
      "no restore offered",
    );

    await view.receive({
      type: "resend",
      item: second.id,
      text: "two, edited",
      files: [notes],
      model: "",
      restore: false,
    });
    const forked = view.open;
    assert.notEqual(forked, chat, "the panel opened the fork");
    const message = b!.store.items(forked).find((i) => i.kind === "user" && i.text === "two, edited")!;
    await answered(b!.store, message.id);
    await b!.runner.idle();

    assert.equal(JSON.stringify(b!.store.items(chat)), before, "the original conversation is untouched");
    const items = b!.store.items(forked);
    const upTo = items.findIndex((i) => i.id === message.id);
    assert.deepEqual(items.slice(0, upTo).map(shape), prefix.map(shape), "exactly the prefix, every field");
    assert.ok(items.slice(0, upTo).every((i) => i.chat === forked && !prefix.some((p) => p.id === i.id)));
    assert.deepEqual(
      items.slice(0, upTo).map((i) => i.copiedFrom),
      prefix.map((p) => ({ chat, item: p.id })),
      "each copy names the item it copies",
    );
    assert.deepEqual(message.files, [notes]);
    assert.deepEqual(
      items.slice(upTo + 1).map((i) => `${i.kind}:${i.text}`),
      ["text:A2 edited"],
      "the runner answered the edited message",
    );
    assert.deepEqual(lastAsk(m).slice(-3), ["user:one", "assistant:A1", "user:two, edited"]);
    assert.equal(b!.store.get("conversations", forked)!.title, "Title (edited)");
    assert.equal(b!.store.rows("conversations").length, 2);
  });

  it("restores the files first when the person asks and the host can, and sends nothing when it fails", async () => {
    const m = scripted([says("A1"), says("Title"), says("A2"), says("A3"), says("again")]);
    const { chat, second } = await threeMessages({ default: m, m });
    const restored: string[] = [];
    let fail = true;
    const host = panelHost(async (message) => {
      if (fail) throw new Error("the checkpoint is gone");
      restored.push(message.id);
      return "2 files were put back.";
    });
    const view = new PanelView(b!.store, b!.runner, host);
    await view.receive({ type: "ready" });
    assert.ok(
      host.sent.some((s) => s.type === "snapshot" && s.restore === true),
      "restore is offered",
    );
    const resend = {
      type: "resend",
      item: second.id,
      text: "two again",
      files: [],
      model: "",
      restore: true,
    };

    await view.receive(resend);
    assert.equal(b!.store.rows("conversations").length, 1, "no fork when the files could not be restored");
    assert.ok(
      host.sent.some(
        (s) => s.type === "notice" && s.level === "error" && s.text.includes("the checkpoint is gone"),
      ),
    );

    fail = false;
    await view.receive(resend);
    assert.deepEqual(restored, [second.id], "restored to the edited message");
    assert.ok(host.sent.some((s) => s.type === "notice" && s.text === "2 files were put back."));
    assert.notEqual(view.open, chat);
    assert.equal(b!.store.rows("conversations").length, 2);
  });

  it("refuses a restore the host cannot do, and an empty edited message, forking nothing", async () => {
    const m = scripted([says("A1"), says("Title"), says("A2"), says("A3")]);
    const { second } = await threeMessages({ default: m, m });
    const host = panelHost();
    const view = new PanelView(b!.store, b!.runner, host);
    await view.receive({ type: "resend", item: second.id, text: "x", files: [], model: "", restore: true });
    await view.receive({ type: "resend", item: second.id, text: "  ", files: [], model: "", restore: false });
    await view.receive({ type: "resend", item: "gone", text: "x", files: [], model: "", restore: false });
    assert.equal(b!.store.rows("conversations").length, 1);
    assert.equal(host.sent.filter((s) => s.type === "notice" && s.level === "error").length, 3);
  });

  it("regenerates the latest answer on another model: a retry item, and that model receives the request", async () => {
    const m = scripted([says("A1"), says("Title"), says("A2"), says("A3")], "m");
    const other = scripted([says("from other")], "other");
    const { chat, third } = await threeMessages({ default: m, m, other });
    const view = new PanelView(b!.store, b!.runner, panelHost());
    const answer = b!.store.items(chat).find((i) => i.id.startsWith(`${third.id}.`) && i.kind === "text")!;
    await view.receive({ type: "regenerate", item: answer.id, model: "other" });
    const retry = b!.store.items(chat).find((i) => i.kind === "retry")!;
    assert.equal(retry.model, "other");
    await answered(b!.store, retry.id);
    assert.equal(other.requests.length, 1, "the chosen model was asked");
    assert.equal(m.requests.length, 4, "the first model was not asked again");
    assert.deepEqual(lastAsk(other).slice(-1), ["user:three"]);
    const again = b!.store.items(chat).filter((i) => i.id.startsWith(`${retry.id}.`));
    assert.deepEqual(
      again.map((i) => [i.kind, i.text, i.model]),
      [["text", "from other", "other"]],
    );
  });

  it("regenerates an earlier answer by forking at its message, on the chosen model", async () => {
    const m = scripted([says("A1"), says("Title"), says("A2"), says("A3")], "m");
    const other = scripted([says("A1 again")], "other");
    const { chat, first } = await threeMessages({ default: m, m, other });
    const before = JSON.stringify(b!.store.items(chat));
    const view = new PanelView(b!.store, b!.runner, panelHost());
    await view.receive({ type: "regenerate", item: first.id, model: "other" });
    const forked = view.open;
    assert.notEqual(forked, chat);
    await until(() => b!.store.items(forked).some((i) => i.kind === "text" && i.done), "the fork's answer");
    await b!.runner.idle();
    assert.equal(JSON.stringify(b!.store.items(chat)), before);
    assert.deepEqual(
      b!.store.items(forked).map((i) => `${i.kind}:${i.text}:${i.model}`),
      ["user:one:other", "text:A1 again:other"],
    );
    assert.equal(other.requests.length, 1);
    assert.equal(b!.store.get("conversations", forked)!.title, "Title (regenerated)");
  });

  it("sets the call's file for every file the agent creates or edits, through the real workspace tools", async () => {
    const written: string[] = [];
    const editor: Editor = {
      open: async () => undefined,
      async propose(p: Proposal): Promise<EditVerdict> {
        await writeFile(p.path, p.after);
        written.push(p.shown);
        return { accepted: true };
      },
      async create(f: NewFile): Promise<void> {
        await mkdir(dirname(f.path), { recursive: true });
        await writeFile(f.path, f.content);
        written.push(f.shown);
      },
      run: async () => ({ exitCode: 0, output: "" }),
    };
    const model = scripted([
      calls([["create_file", JSON.stringify({ path: "src/new.ts", content: "export const a = 1;\n" })]]),
      calls([
        ["propose_edit", JSON.stringify({ path: "src/new.ts", oldText: "a = 1", newText: "a = 2" })],
        ["read_file", JSON.stringify({ path: "src/new.ts" })],
      ]),
      says("Done."),
    ]);
    b = await bench(hostOf({ default: model }, { approve: async () => true }));
    const root = b.dir;
    b.host.tools = () => workspaceTools({ root, editor, trusted: true });
    const chat = b.chat();
    await b.send(asked("make a file and change it", chat));
    const callsMade = b.store.items(chat).filter((i) => i.kind === "call");
    assert.deepEqual(
      callsMade.map((c) => [c.name, c.state, c.file]),
      [
        ["create_file", "done", "src/new.ts"],
        ["propose_edit", "done", "src/new.ts"],
        ["read_file", "done", ""],
      ],
    );
    assert.deepEqual(written, ["src/new.ts", "src/new.ts"]);
    assert.equal(await readFile(join(root, "src/new.ts"), "utf8"), "export const a = 2;\n");
  });

  it("closes in the fork what a run still writes in the original, so the fork answers only the edited message", () => {
    const message = asked("first", "c");
    const open = [
      message,
      { ...item("text", "half an ans", "c"), id: `${message.id}.0000` },
      { ...item("call", "", "c"), id: `${message.id}.0001`, name: "read_file", state: "approval" as const },
    ];
    const later = asked("second", "c");
    const copies = copiedBefore([...open, later], later, "f");
    assert.deepEqual(
      copies.map((i) => [i.kind, i.text, i.state, i.done, i.chat]),
      [
        ["user", "first", "", true, "f"],
        ["text", "half an ans", "interrupted", true, "f"],
        ["call", "", "interrupted", true, "f"],
      ],
    );
    const [user, text, call] = copies;
    assert.ok(user.id > later.id, "new keys, after every key before");
    assert.equal(text.id, `${user.id}.0000`, "an answer's items keyed after their message's new key");
    assert.equal(call.id, `${user.id}.0001`);
  });
});
