import assert from "node:assert/strict";
import * as vscode from "vscode";
import {
  answer,
  promptTokens,
  type FixtureServer,
  type Received,
  toolNames,
} from "../../fixtures/openai-server";
import { until } from "./wait";
import { panelSend } from "./person";
import { FIXTURE_WINDOW, fixtureEndpoint } from "./endpoint";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

/** Tokens of a request's instructions and tools, four characters a token as condensing counts them. */
function fixedOf(request: Received): number {
  const messages = request.body.messages as { role: string; content: unknown }[];
  const system = messages.find((m) => m.role === "system");
  const tools = Array.isArray(request.body.tools) ? request.body.tools : [];
  return (
    4 +
    Math.ceil((typeof system?.content === "string" ? system.content.length : 0) / 4) +
    (tools.length ? Math.ceil(JSON.stringify(tools).length / 4) : 0)
  );
}

/** The request whose last user message says `text`. */
function requestFor(server: FixtureServer, text: string): Received | undefined {
  return server.requests.find((r) => {
    const messages = r.body.messages as { role: string; content: unknown }[];
    return JSON.stringify(messages.filter((m) => m.role === "user").pop()?.content ?? "").includes(text);
  });
}

/** What the request for `text` must show: it fits the window, its fixed part a quarter, none of VS Code's tools unasked. */
function assertFits(request: Received, text: string): void {
  const sent = toolNames(request);
  const vscodeTools = vscode.lm.tools.map((t) => t.name);
  assert.deepEqual(
    sent.filter((name) => vscodeTools.includes(name)),
    [],
    `VS Code's tools are offered on demand, not sent (${vscodeTools.length} present)`,
  );
  assert.ok(sent.includes("read_file") && sent.includes("open_tools"), sent.join(", "));
  assert.ok(sent.length <= 20, `${sent.length} tools for "${text}"`);
  const fixed = fixedOf(request);
  assert.ok(fixed <= FIXTURE_WINDOW / 4, `the fixed part took ${fixed} tokens`);
  assert.ok(
    promptTokens(request.body) <= FIXTURE_WINDOW * 0.8,
    `the prompt took ${promptTokens(request.body)}`,
  );
}

describe("a small local model in VS Code: the requests fit its 8,192-token window", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("fixture-small", "small-model", { asDefault: true });
  });

  after(async () => {
    await server.close();
  });

  it('answers "hi" in the panel with a request that fits', async () => {
    server.script(answer("Hello from the small model."), answer("Greeting"));
    const { store } = await api().conversations();
    const known = new Set(store.rows("conversations").map((c) => c.id));
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
    await panelSend("hi");
    const said = await until(
      () =>
        store
          .rows("items")
          .find(
            (i) =>
              !known.has(i.chat) &&
              ((i.kind === "text" && i.text === "Hello from the small model.") || i.kind === "error"),
          ),
      30_000,
      "the answer to be stored",
    );
    assert.equal(said.kind, "text", said.text);
    const request = requestFor(server, "hi");
    assert.ok(request, "the request reached the model");
    assertFits(request, "hi");
    // The meter shows what the fixed part takes.
    assert.ok((store.get("contexts", said.chat)?.fixed ?? 0) > 0);
  });

  it('answers "@tandem hi" in the Chat view with a request that fits', async () => {
    server.script(answer("Hello from the small model in the Chat view."));
    const before = server.requests.length;
    const result = await vscode.commands.executeCommand<{
      errorDetails?: unknown;
      metadata?: { model?: string };
    }>("workbench.action.chat.open", {
      query: "@tandem hi there",
      modelSelector: { vendor: "tandem", id: "small-model" },
      blockOnResponse: true,
    });
    assert.equal(result?.errorDetails, undefined);
    assert.equal(result?.metadata?.model, "small-model");
    assert.equal(server.requests.length, before + 1);
    assertFits(server.requests.at(-1)!, "hi there");
  });
});
