import assert from "node:assert/strict";
import * as vscode from "vscode";
import { calling, usage, text, type FixtureServer, type Received } from "../../fixtures/openai-server";
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
});
