import assert from "node:assert/strict";
import * as vscode from "vscode";
import {
  answer,
  calling,
  openaiServer,
  type FixtureServer,
  type Received,
  type Reply,
} from "../../fixtures/openai-server";
import { until } from "./wait";
import { chatText, panelSend, panelText } from "./person";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

const TASKS = ["What does add in math.ts return?", "What does the README say the project is?"];

/** The messages of a request. */
function messagesOf(request: Received): { role: string; content: unknown }[] {
  return request.body.messages as { role: string; content: unknown }[];
}

/** The task a subagent's request carries ("" for the agent's own). */
function taskOf(request: Received): string {
  const system = messagesOf(request).find((m) => m.role === "system");
  if (!String(system?.content ?? "").includes("read-only subagent")) return "";
  const user = messagesOf(request).find((m) => m.role === "user");
  return TASKS.find((t) => String(user?.content ?? "").includes(t)) ?? "?";
}

/**
 * The model's replies by what it is asked: the agent delegates both tasks, then answers; each
 * subagent reads math.ts, then reports.
 */
function reply(request: Received): Reply {
  const task = taskOf(request);
  const last = messagesOf(request).at(-1);
  if (task) {
    if (last?.role !== "tool") return calling([["r1", "read_file", JSON.stringify({ path: "math.ts" })]]);
    return answer(`Report on "${task}": add returns a + b (math.ts:2).`, { prompt: 100, completion: 20 });
  }
  if (!Array.isArray(request.body.tools)) return answer("Subagents");
  if (last?.role === "tool") return answer("Both subagents reported: add returns a + b.");
  return calling([["d1", "delegate", JSON.stringify({ tasks: TASKS.map((task) => ({ task })) })]]);
}

describe("read-only subagents in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    server = await openaiServer();
    server.models = [{ id: "sub-model", object: "model", context_length: 32768 }];
    server.window = 32768;
    const config = vscode.workspace.getConfiguration("tandem");
    await config.update(
      "endpoints",
      [
        {
          name: "fixture-sub",
          baseURL: server.baseURL,
          models: ["sub-model"],
          prices: { "*": { input: 1, output: 2 } },
        },
      ],
      vscode.ConfigurationTarget.Global,
    );
    await config.update("defaultModel", "sub-model", vscode.ConfigurationTarget.Global);
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration("tandem");
    await config.update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await config.update("defaultModel", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("runs two subagents side by side from the panel and shows their cost under the call", async () => {
    server.script(...Array.from({ length: 7 }, () => reply));
    const { store } = await api().conversations();
    const known = new Set(store.rows("conversations").map((c) => c.id));
    const from = server.requests.length;
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
    await panelSend("Find out what add returns and what the project is, with subagents");
    const call = await until(
      () =>
        store
          .rows("items")
          .find(
            (i) =>
              !known.has(i.chat) &&
              i.kind === "call" &&
              i.name === "delegate" &&
              i.state === "done" &&
              i.subagents?.length === 2,
          ),
      60_000,
      "the delegate call to end",
    );
    // Side by side: both subagents asked their first turn before either asked its second.
    const asked = server.requests.slice(from).map(taskOf).filter(Boolean);
    assert.deepEqual(asked.slice(0, 2).sort(), [...TASKS].sort(), asked.join(" | "));
    assert.deepEqual(
      call.subagents?.map((s) => [s.state, s.rounds, s.usage.cost]),
      [
        ["done", 2, 0.00016],
        ["done", 2, 0.00016],
      ],
    );
    assert.match(call.output, /\[Subagent 1 of 2, done, 2 rounds\][^\n]*\nReport on "What does add/);
    // The panel shows them under the call, folded, with their cost.
    const shown = await until(
      async () => {
        const text = await panelText();
        return /2 subagents · 4 rounds · 220 in · 50 out · \$0\.00032/.test(text) ? text : undefined;
      },
      20_000,
      "the subagents' line in the panel",
    );
    assert.match(shown, /What does add in math\.ts return\?[\s\S]*\$0\.00016/);
  });

  it("runs them from @tandem too, with each report in the Chat view", async () => {
    server.script(...Array.from({ length: 6 }, () => reply));
    await vscode.commands.executeCommand("workbench.action.chat.newChat");
    const result = await vscode.commands.executeCommand<{ errorDetails?: unknown }>(
      "workbench.action.chat.open",
      {
        query: "@tandem Find out what add returns and what the project is, with subagents",
        modelSelector: { vendor: "tandem", id: "sub-model" },
        blockOnResponse: true,
      },
    );
    assert.equal(result?.errorDetails, undefined);
    const text = await chatText();
    // The reports are text (VS Code writes its spaces as no-break spaces), with each subagent's cost.
    const flat = text.replace(/\s/g, " ");
    assert.match(
      flat,
      /Subagent 1: What does add in math\.ts return\? \(2 rounds, 110 tokens in, 25 out, \$0\.00016\)/,
    );
    assert.match(flat, /Report on "What does the README say the project is\?"/);
    assert.match(text, /Both subagents reported/);
  });
});
