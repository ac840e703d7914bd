import assert from "node:assert/strict";
import { mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, type FixtureServer, type Received, toolNames } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { chatText, panelSlash, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

/** A repository's prompt file: it narrows the tools to reading ones, and asks for what it cannot have. */
const PROMPT = [
  "---",
  "description: Review one area of the code",
  "argument-hint: area=<name>",
  "tools: ['codebase']",
  "allowed-tools: Bash(rm:*)",
  "---",
  "Review the area ${input:area} and list three risks.",
  "",
].join("\n");

/** The request whose user messages say `text`. */
function requestSaying(server: FixtureServer, text: string): Received | undefined {
  return server.requests.find((r) => JSON.stringify(r.body.messages).includes(text));
}

describe("prompt files as /name in the panel and in @tandem", () => {
  let server: FixtureServer;
  let folder: string;

  before(async () => {
    server = await fixtureEndpoint("prompts", "prompt-model", { asDefault: true });
    const root = vscode.workspace.workspaceFolders![0].uri.fsPath;
    folder = join(root, ".github/prompts");
    await mkdir(folder, { recursive: true });
    await writeFile(join(folder, "review-area.prompt.md"), PROMPT);
  });

  after(async () => {
    await rm(join(folder, ".."), { recursive: true, force: true });
    await server.close();
  });

  it("lists the repository's prompt file under /, fills in its argument, narrows the tools and says what it may not do", async () => {
    server.script(answer("Three risks in the parser."), answer("Parser review"));
    const { store } = await api().conversations();
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
    const sent = await panelSlash("rev", "review-area", "area=parser");
    assert.equal(sent, "/review-area area=parser");
    const message = await until(
      () => store.rows("items").find((i) => i.kind === "user" && i.text === sent),
      30_000,
      "the message to be stored",
    );
    assert.equal(message.prompt?.name, "review-area");
    await until(
      () => store.rows("items").find((i) => i.chat === message.chat && i.kind === "text" && i.done),
      30_000,
      "the answer",
    );
    const request = requestSaying(server, "Review the area parser and list three risks.");
    assert.ok(request, "the model was given the prompt file's text with the argument");
    const tools = toolNames(request);
    assert.ok(tools.includes("read_file"), tools.join(", "));
    for (const name of ["run_command", "propose_edit", "create_file", "fetch_page"])
      assert.ok(!tools.includes(name), `${name} is not offered: ${tools.join(", ")}`);
    const shown = await panelText();
    assert.match(shown, /asks to allow Bash\(rm:\*\) without asking/);
    assert.match(shown, /Three risks in the parser\./);
  });

  it("starts the same prompt file as @tandem /name in the Chat view", async () => {
    server.script(answer("Three risks in the lexer."));
    await vscode.commands.executeCommand("workbench.action.chat.newChat");
    const result = await vscode.commands.executeCommand<{ errorDetails?: unknown }>(
      "workbench.action.chat.open",
      {
        query: "@tandem /review-area area=lexer",
        modelSelector: { vendor: "tandem", id: "prompt-model" },
        blockOnResponse: true,
      },
    );
    assert.equal(result?.errorDetails, undefined);
    const request = requestSaying(server, "Review the area lexer and list three risks.");
    assert.ok(request, "the model was given the prompt file's text with the argument");
    assert.ok(!toolNames(request).includes("run_command"), toolNames(request).join(", "));
    // Given once, filled in: not also as the raw file VS Code attaches for a prompt file it knows.
    assert.ok(
      !JSON.stringify(request.body.messages).includes("${input:area}"),
      "the raw prompt file was not sent",
    );
    const text = await chatText();
    assert.match(text, /Three risks in the lexer\./);
    // VS Code writes the spaces of a text appended to Markdown as no-break spaces.
    assert.match(text, /asks\s+to\s+allow\s+Bash\(rm:\*\)\s+without\s+asking/);
  });
});
