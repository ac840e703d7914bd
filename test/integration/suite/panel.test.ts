import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { until } from "./wait";
import { clickNotification, panelControl, panelSend, panelText, screenshot } from "./person";
import { fixtureEndpoint } from "./endpoint";
import { setKeyAsThePerson } from "./keys";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;
const KEY = "sk-tandem-test-0123456789-secret";

/** Every file under `dir`, with its text. */
function filesUnder(dir: string): Array<[string, string]> {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) return [];
    if (info.isDirectory()) return filesUnder(path);
    // Sockets and pipes of the running server are not files to read.
    return info.isFile() && info.size < 64 * 1024 * 1024
      ? [[path, readFileSync(path, "latin1")] as [string, string]]
      : [];
  });
}

/** The user message the fixture received last, as text. */
function lastUser(server: FixtureServer): string {
  const messages = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
  return JSON.stringify(messages.filter((m) => m.role === "user").pop()?.content);
}

describe("the side panel in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    // These tests answer Tandem's questions about writes: the person chose to be asked before each one.
    await vscode.workspace
      .getConfiguration("tandem")
      .update("edits.mode", "ask", vscode.ConfigurationTarget.Global);
    server = await fixtureEndpoint("fixture", "fixture-model", { asDefault: true });
    await setKeyAsThePerson("fixture", KEY);
    await vscode.commands.executeCommand("tandem.chatView.focus");
  });

  after(async () => {
    // The key is bound to this server's address: later tests' fixture servers listen elsewhere.
    await setKeyAsThePerson("fixture", "");
    await server.close();
  });

  it("sends the person's message and shows the streamed answer", async () => {
    server.script(
      answer("**Hi** from the panel test, in several pieces.", { size: 3 }),
      answer("Panel greeting"),
    );
    await panelSend("Hello panel");
    const shown = await until(
      async () => {
        const text = await panelText();
        return text.includes("Hi from the panel test, in several pieces.") ? text : undefined;
      },
      30_000,
      "the answer in the panel",
    );
    assert.match(shown, /Hello panel/);
    const { store } = await api().conversations();
    const chat = store.conversations()[0];
    const items = store.items(chat.id);
    assert.equal(items[0].kind, "user");
    assert.equal(items[0].text, "Hello panel");
    assert.ok(items.some((i) => i.kind === "text" && i.text.includes("Hi") && i.done));
    await screenshot("vscode-panel.png");
  });

  it("asks the person about a tool call in a notification, and writes the decision on the call", async () => {
    server.script(
      calling([
        [
          "call_1",
          "create_file",
          JSON.stringify({ path: "notes/hello.txt", content: "hello from tandem\n" }),
        ],
      ]),
      answer("Created the note."),
    );
    await panelSend("Create a note");
    const { store } = await api().conversations();
    await until(
      () => store.rows("items").find((i) => i.kind === "call" && i.state === "approval"),
      30_000,
      "the question",
    );
    // The person opens the notifications (VS Code under test keeps them out of view) and allows the call.
    await vscode.commands.executeCommand("notifications.showList");
    const message = await clickNotification("create_file", "Allow");
    assert.match(message, /create_file/);
    assert.match(message, /notes\/hello\.txt/);
    // Found by its name, not by its state: the call the person allowed ran, and the file is there.
    const call = await until(
      () => {
        const found = store.rows("items").find((i) => i.kind === "call" && i.name === "create_file");
        return found?.done ? found : undefined;
      },
      30_000,
      "the call to finish",
    );
    assert.equal(call.state, "done");
    assert.equal(readFileSync(join(workspace(), "notes/hello.txt"), "utf8"), "hello from tandem\n");
  });

  it("gives the model a file attached from the workspace", async () => {
    server.script(answer("It adds two numbers."));
    await vscode.commands.executeCommand("tandem.attachFiles", vscode.Uri.file(join(workspace(), "math.ts")));
    await panelSend("What does this file do?");
    await until(
      () =>
        server.requests.length && lastUser(server).includes("What does this file do?") ? true : undefined,
      30_000,
      "the request",
    );
    assert.match(lastUser(server), /export function add/);
  });

  it("sends the API key to the endpoint and keeps it out of storage, settings and the panel", async () => {
    const auth = server.requests.at(-1)!.headers.authorization;
    assert.equal(auth, `Bearer ${KEY}`);
    const { store } = await api().conversations();
    await store.flush();
    // The run's folder holds VS Code's user data, server data, logs, extensions and the workspace.
    const leaks = filesUnder(join(workspace(), ".."))
      .filter(([, text]) => text.includes(KEY))
      .map(([path]) => path);
    assert.deepEqual(leaks, []);
    assert.ok(!(await panelText()).includes(KEY));
  });
  it("offers 'Always Allow in This Conversation' on the panel's call, and the next such call runs unasked", async () => {
    const { store } = await api().conversations();
    /** Opens a new conversation in the panel and sends `text` (its answer and title scripted); gives its id. */
    const fresh = async (text: string, ...replies: Parameters<FixtureServer["script"]>): Promise<string> => {
      await vscode.commands.executeCommand("tandem.newChat");
      const before = new Set(store.conversations().map((c) => c.id));
      server.script(...replies, answer(`${text} title`));
      await panelSend(text);
      const made = await until(
        () => store.conversations().find((c) => !before.has(c.id) && c.title === `${text} title`),
        30_000,
        "the answer and the title",
      );
      return made.id;
    };
    const note = (id: string, name: string): [string, string, string] => [
      id,
      "create_file",
      JSON.stringify({ path: `notes/${name}.txt`, content: `${name}\n` }),
    ];
    // Every call that waited for the person, by its input.
    const waited: string[] = [];
    const stop = store.follow({ table: "items", where: { kind: "call" } }, (c) => {
      if (c.row?.state === "approval" && !waited.includes(c.row.input)) waited.push(c.row.input);
    });
    try {
      const asking = fresh(
        "Create the two always notes",
        calling([note("call_a1", "always-a")]),
        calling([note("call_a2", "always-b")]),
        answer("Created both notes."),
      );
      const first = await until(
        () =>
          store
            .rows("items")
            .find((i) => i.kind === "call" && i.state === "approval" && i.input.includes("always-a")),
        30_000,
        "the first question",
      );
      assert.equal(first.always, "Always Allow in This Conversation");
      await panelControl("button", "Always Allow in This Conversation", { nth: -1 });
      const chat = await asking;
      assert.ok(store.items(chat).some((i) => i.kind === "text" && i.text === "Created both notes."));
      assert.equal(readFileSync(join(workspace(), "notes/always-a.txt"), "utf8"), "always-a\n");
      assert.equal(readFileSync(join(workspace(), "notes/always-b.txt"), "utf8"), "always-b\n");
      assert.deepEqual(
        waited.map((input) => (JSON.parse(input) as { path: string }).path),
        ["notes/always-a.txt"],
        "only the first call was asked",
      );
    } finally {
      stop();
    }
    // Later tests write in the panel's open conversation: one where nothing is allowed "always".
    await fresh("Start afresh", answer("Fresh."));
  });
});
