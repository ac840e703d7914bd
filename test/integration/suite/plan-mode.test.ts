import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import * as vscode from "vscode";
import {
  answer,
  calling,
  type FixtureServer,
  type Received,
  type Reply,
  toolNames,
} from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { chatFollowups, chatText, panelControl, panelSend, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

const ASK = "Plan a note that greets the reader";
const PLAN = "# Plan: a greeting note\n\n1. Create plan-mode/note.txt saying hello.";
/** The plan as the person leaves it in the editor: a step of their own. */
const EDITED = "# Plan: a greeting note\n\n1. Create plan-mode/note.txt saying edited by the person.";

/** The messages of a request, as JSON (a message's content may be text or parts). */
const said = (request: Received): string => JSON.stringify(request.body.messages);

/** The system message of a request. */
function systemOf(request: Received): string {
  const messages = request.body.messages as { role: string; content: unknown }[];
  return String(messages.find((m) => m.role === "system")?.content ?? "");
}

/**
 * The model's replies by what it is asked: a title; the checklist, then the plan; acting on the
 * plan, the file it names; after the file, its last words.
 */
function reply(request: Received): Reply {
  const messages = request.body.messages as { role: string }[];
  if (!Array.isArray(request.body.tools)) return answer("Greeting plan");
  if (messages.at(-1)?.role === "tool" && said(request).includes("Act on this plan:"))
    return answer("Done as planned.");
  if (said(request).includes("Act on this plan:"))
    return calling([
      [
        "w1",
        "create_file",
        JSON.stringify({ path: "plan-mode/note.txt", content: "edited by the person\n" }),
      ],
    ]);
  // Planning: the checklist first (update_plan is a tool that reads), then the plan.
  if (messages.at(-1)?.role === "user" && said(request).includes(ASK))
    return calling([["p1", "update_plan", JSON.stringify({ steps: STEPS })]]);
  return answer(PLAN);
}

/** The checklist the model pins while it plans. */
const STEPS = [
  { step: "Read the greeting files", done: true },
  { step: "Write the plan", done: false },
];

describe("Plan mode in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("plan", "plan-model", { asDefault: true });
    server.script(...Array.from({ length: 10 }, () => reply));
  });

  after(() => server.close());

  it("plans with only the tools that read, the plan edited in the editor, then acts on the edited plan with the tools that write", async () => {
    const { store } = await api().conversations();
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
    // The new chat's switch, then its first message: the conversation is made in Plan.
    await panelControl("button", "Plan");
    await panelSend(ASK);
    const planned = await until(
      () =>
        store
          .conversations()
          .flatMap((c) => store.items(c.id))
          .find((i) => i.kind === "text" && i.done && i.text === PLAN),
      30_000,
      "the plan",
    );
    assert.equal(store.get("conversations", planned.chat)?.mode, "plan");
    const asked = server.requests.find((r) => said(r).includes(ASK) && Array.isArray(r.body.tools))!;
    const tools = toolNames(asked);
    assert.ok(tools.includes("read_file"), tools.join(", "));
    for (const name of ["create_file", "propose_edit", "run_command"])
      assert.ok(!tools.includes(name), `${name} is offered in Plan mode: ${tools.join(", ")}`);
    assert.match(systemOf(asked), /You are in Plan mode/);
    // The checklist it wrote is pinned above the transcript, its steps as written.
    const pinned = await until(
      async () => {
        const text = await panelText();
        return text.includes("Write the plan") ? text : undefined;
      },
      20_000,
      "the pinned plan",
    );
    assert.match(pinned, /1\/2/);
    assert.match(pinned, /Read the greeting files/);

    // Edit plan: the plan opens as a Markdown file in the editor; the person changes a step and saves.
    await panelControl("button", "Edit plan");
    const editor = await until(
      () => {
        const active = vscode.window.activeTextEditor;
        return active && /plan-.*\.md$/.test(active.document.fileName) ? active : undefined;
      },
      20_000,
      "the plan in the editor",
    );
    assert.equal(editor.document.getText(), PLAN);
    assert.ok(!vscode.workspace.getWorkspaceFolder(editor.document.uri), "the plan is not in the workspace");
    const edit = new vscode.WorkspaceEdit();
    edit.replace(editor.document.uri, new vscode.Range(0, 0, editor.document.lineCount, 0), EDITED);
    assert.ok(await vscode.workspace.applyEdit(edit));
    // Saved as the person saves it (a save the editor is not ready for is tried again).
    await until(
      async () => (await editor.document.save()) || !editor.document.isDirty || undefined,
      20_000,
      "the plan saved",
    );
    assert.equal(readFileSync(editor.document.uri.fsPath, "utf8"), EDITED);

    // Act on this plan: out of Plan, the edited plan is the next message, with the tools that write.
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await panelControl("button", "Act on this plan");
    const acting = await until(
      () => server.requests.find((r) => said(r).includes("Act on this plan:")),
      30_000,
      "the request acting on the plan",
    );
    assert.ok(said(acting).includes("saying edited by the person"), "the plan as the person saved it");
    assert.ok(toolNames(acting).includes("create_file"), toolNames(acting).join(", "));
    assert.equal(store.get("conversations", planned.chat)?.mode, undefined);
    await until(
      () => store.items(planned.chat).find((i) => i.kind === "text" && i.text === "Done as planned."),
      30_000,
      "the answer after the write",
    );
    const call = store.items(planned.chat).find((i) => i.kind === "call" && i.name === "create_file");
    assert.equal(call?.kind === "call" && call.state, "done");
    // The write is the agent's pending change, as usual out of Plan: undone, as the other tests expect the workspace.
    const written = vscode.Uri.joinPath(vscode.workspace.workspaceFolders![0].uri, "plan-mode/note.txt");
    assert.equal(
      Buffer.from(await vscode.workspace.fs.readFile(written)).toString(),
      "edited by the person\n",
    );
    await vscode.commands.executeCommand("tandem.pending.undoFile", written.fsPath);
  });

  it("answers @tandem /plan with only the tools that read, and offers Act on this plan", async () => {
    await vscode.commands.executeCommand("workbench.action.chat.newChat");
    const before = server.requests.length;
    const result = await vscode.commands.executeCommand<{ errorDetails?: unknown }>(
      "workbench.action.chat.open",
      {
        query: "@tandem /plan a greeting note",
        modelSelector: { vendor: "tandem", id: "plan-model" },
        blockOnResponse: true,
      },
    );
    assert.equal(result?.errorDetails, undefined);
    const request = server.requests.slice(before).find((r) => Array.isArray(r.body.tools));
    assert.ok(request, "the model was asked");
    const tools = toolNames(request);
    assert.ok(tools.includes("read_file"), tools.join(", "));
    for (const name of ["create_file", "propose_edit", "run_command"])
      assert.ok(!tools.includes(name), `${name} is offered to /plan: ${tools.join(", ")}`);
    assert.match(systemOf(request), /You are in Plan mode/);
    assert.match(await chatText(), /a\s+greeting\s+note/);
    assert.match(await chatFollowups(), /Act on this plan/);
  });
});
