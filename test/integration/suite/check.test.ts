import assert from "node:assert/strict";
import * as vscode from "vscode";
import {
  answer,
  calling,
  openaiServer,
  promptTokens,
  usage,
  text,
  type FixtureServer,
  type Received,
} from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";

/** "Tandem: Check Endpoint" against a fixture endpoint that streams, reports usage and calls tools natively. */
describe("Check Endpoint", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("probed", "probe-model", { window: 65536 });
  });

  after(() => server.close());

  it("probes the model and shows a readable report", async () => {
    const reply = (request: Received) => {
      const tools = request.body.tools as Array<{ function: { name: string } }> | undefined;
      if (tools?.length) return calling([["call_1", tools[0].function.name, "{}"]]);
      return { events: [...text("A red pixel."), usage(12, 4)] };
    };
    server.script(reply, reply, reply, reply, reply, reply);
    const report = await vscode.commands.executeCommand<{
      window: { tokens?: number };
      tools: { mode?: string };
      streaming: { ok?: boolean };
    }>("tandem.checkEndpoint");
    assert.ok(report, "the command returned its report");
    assert.equal(report.streaming.ok, true);
    assert.equal(report.tools.mode, "native");
    assert.equal(report.window.tokens, 65536);
    const shown = vscode.workspace.textDocuments.find(
      (d) => d.languageId === "markdown" && d.getText().includes("probe-model"),
    );
    assert.ok(shown, "the report is open as Markdown");
    assert.match(shown.getText(), /\|/);
  });

  it("reports a prompt the server cut without a word in an earlier run, with the fix", async () => {
    // A server in front of the model says nothing of its window and cuts prompts at 4k.
    const cutting = await openaiServer();
    try {
      cutting.models = [{ id: "cut-model", object: "model" }];
      cutting.cut = 4096;
      const config = vscode.workspace.getConfiguration("tandem");
      await config.update(
        "endpoints",
        [{ name: "cutting", baseURL: cutting.baseURL, models: ["cut-model"] }],
        vscode.ConfigurationTarget.Global,
      );
      const counted = (request: Received) =>
        answer("Read.", { prompt: promptTokens(request.body), completion: 2 });
      cutting.script(counted, counted, counted);
      await vscode.commands.executeCommand("workbench.action.chat.open", {
        query: `@tandem Summarise this: ${"a sentence of many words ".repeat(1200)}`,
        modelSelector: { vendor: "tandem", id: "cut-model" },
        blockOnResponse: true,
      });
      assert.ok(cutting.truncated >= 1, "the server cut the prompt");
      const reply = (request: Received) => {
        const tools = request.body.tools as Array<{ function: { name: string } }> | undefined;
        if (tools?.length) return calling([["call_1", tools[0].function.name, "{}"]]);
        return { events: [...text("A red pixel."), usage(12, 4)] };
      };
      cutting.script(reply, reply, reply, reply, reply, reply);
      const report = await vscode.commands.executeCommand<{ cut?: { held: number; note: string } }>(
        "tandem.checkEndpoint",
      );
      assert.equal(report?.cut?.held, 4096);
      const shown = vscode.workspace.textDocuments.find(
        (d) => d.languageId === "markdown" && d.getText().includes("Prompts cut"),
      );
      assert.ok(shown, "the report names the cut");
      assert.match(shown.getText(), /raise the context length in the model server's settings/);
    } finally {
      await cutting.close();
    }
  });
});
