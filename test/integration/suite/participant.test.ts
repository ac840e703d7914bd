import assert from "node:assert/strict";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { until } from "./wait";
import { clickNotification } from "./person";
import { fixtureEndpoint } from "./endpoint";

describe("@tandem in the Chat view", () => {
  let server: FixtureServer;

  before(async () => {
    // These tests answer Tandem's questions about writes: the person chose to be asked before each one.
    await vscode.workspace
      .getConfiguration("tandem")
      .update("edits.mode", "ask", vscode.ConfigurationTarget.Global);
    server = await fixtureEndpoint("fixture", "fixture-model");
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("offers the configured endpoint's model to VS Code through Tandem's provider", async () => {
    const models = await until(
      async () => {
        const found = await vscode.lm.selectChatModels({ vendor: "tandem" });
        return found.length ? found : undefined;
      },
      20_000,
      "Tandem's models in vscode.lm",
    );
    assert.deepEqual(
      models.map((m) => m.name),
      ["fixture-model"],
    );
  });

  it("answers through the fixture endpoint", async () => {
    server.script(answer("Hello from the fixture endpoint."));
    const result = await vscode.commands.executeCommand<{
      metadata?: { model?: string };
      errorDetails?: unknown;
    }>("workbench.action.chat.open", {
      query: "@tandem say hello",
      modelSelector: { vendor: "tandem", id: "fixture-model" },
      blockOnResponse: true,
    });
    assert.equal(result?.errorDetails, undefined);
    assert.equal(result?.metadata?.model, "fixture-model");
    await until(() => server.requests.length > 0 || undefined, 30_000, "the request to reach the endpoint");
    const messages = server.requests[0].body.messages as Array<{ role: string; content: unknown }>;
    const last = messages.filter((m) => m.role === "user").pop();
    assert.match(JSON.stringify(last?.content), /say hello/);
  });

  it("reads the workspace with its tools and answers from what it read", async () => {
    const before = server.requests.length;
    server.script(
      calling([["call_1", "read_file", JSON.stringify({ path: "math.ts" })]]),
      answer("It adds two numbers."),
    );
    const result = await vscode.commands.executeCommand<{ metadata?: { model?: string } }>(
      "workbench.action.chat.open",
      {
        query: "@tandem what does math.ts do?",
        modelSelector: { vendor: "tandem", id: "fixture-model" },
        blockOnResponse: true,
      },
    );
    assert.equal(result?.metadata?.model, "fixture-model");
    assert.equal(server.requests.length, before + 2);
    const messages = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    const read = messages.find((m) => m.role === "tool");
    assert.match(String(read?.content), /export function add/);
  });

  it("keeps 'Always Allow in This Conversation' for the next request of the conversation", async () => {
    const ask = (query: string) =>
      vscode.commands.executeCommand<{ metadata?: { allowed?: { tools?: string[] } } }>(
        "workbench.action.chat.open",
        { query, modelSelector: { vendor: "tandem", id: "fixture-model" }, blockOnResponse: true },
      );
    const file = (name: string) => JSON.stringify({ path: `notes/${name}`, content: `${name}\n` });
    server.script(calling([["call_1", "create_file", file("always-1.txt")]]), answer("Made the first."));
    const first = ask("@tandem make the first note");
    await vscode.commands.executeCommand("notifications.showList");
    const message = await clickNotification("always-1.txt", "Always Allow in This Conversation");
    assert.match(message, /create_file: notes\/always-1\.txt \(1 line\)/);
    assert.deepEqual((await first)?.metadata?.allowed?.tools, ["create_file"]);
    server.script(calling([["call_2", "create_file", file("always-2.txt")]]), answer("Made the second."));
    // Asked again, this request would wait for a notification nobody clicks.
    const second = await ask("@tandem make the second note");
    assert.deepEqual(second?.metadata?.allowed?.tools, ["create_file"]);
    const root = process.env.TANDEM_WORKSPACE!;
    assert.ok(existsSync(join(root, "notes/always-2.txt")), "the second note was written without asking");
  });
  it("remembers a tool group the model opened with open_tools: the next request of the conversation offers it", async () => {
    type Sent = { function: { name: string; description: string } }[];
    const ask = (query: string) =>
      vscode.commands.executeCommand<{ metadata?: { opened?: string[] }; errorDetails?: unknown }>(
        "workbench.action.chat.open",
        { query, modelSelector: { vendor: "tandem", id: "fixture-model" }, blockOnResponse: true },
      );
    const sent = () => (server.requests.at(-1)!.body.tools ?? []) as Sent;
    server.script(answer("These are my tools."));
    await ask("@tandem which tools do you have?");
    // A group the small window left closed: its tool is not sent, open_tools names the group.
    const opener = sent().find((t) => t.function.name === "open_tools")?.function.description ?? "";
    const groups: [group: string, tool: string][] = [
      ["web", "fetch_page"],
      ["git", "git_diff"],
      ["code", "problems"],
    ];
    const closed = groups.find(
      ([group, tool]) =>
        new RegExp(`\\b${group}\\b`).test(opener) && !sent().some((t) => t.function.name === tool),
    );
    assert.ok(closed, `a closed group among the tools sent: ${opener}`);
    const [group, tool] = closed;
    server.script(calling([["call_1", "open_tools", JSON.stringify({ name: group })]]), answer("Opened."));
    const opened = await ask(`@tandem open the ${group} tools`);
    assert.equal(opened?.errorDetails, undefined);
    assert.ok(opened?.metadata?.opened?.includes(tool), JSON.stringify(opened?.metadata));
    server.script(answer("Using them now."));
    const before = server.requests.length;
    await ask("@tandem go on");
    assert.equal(server.requests.length, before + 1);
    assert.ok(
      sent().some((t) => t.function.name === tool),
      `${tool} offered in the next turn: ${sent()
        .map((t) => t.function.name)
        .join(", ")}`,
    );
  });

  it("condenses the conversation on /compact: later requests carry the summary, not the turns before it", async () => {
    const ask = (query: string) =>
      vscode.commands.executeCommand<{ metadata?: { summary?: string }; errorDetails?: unknown }>(
        "workbench.action.chat.open",
        { query, modelSelector: { vendor: "tandem", id: "fixture-model" }, blockOnResponse: true },
      );
    server.script(answer("The parser reads one token at a time."));
    await ask("@tandem how does the zebra-parser read its input?");
    server.script(
      answer("SUMMARY-7: the person asked how the zebra parser reads; it reads a token at a time."),
    );
    const compacted = await ask("@tandem /compact");
    assert.equal(compacted?.errorDetails, undefined);
    assert.match(compacted?.metadata?.summary ?? "", /SUMMARY-7/);
    const summarising = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(summarising, /zebra-parser/, "the summary was made from the earlier turns");
    server.script(answer("Next, the lexer."));
    await ask("@tandem what next?");
    const after = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(after, /SUMMARY-7/, "the model reads the summary");
    assert.doesNotMatch(after, /zebra-parser read its input/, "and not the turns it replaced");
    assert.match(after, /what next\?/);
  });
});
