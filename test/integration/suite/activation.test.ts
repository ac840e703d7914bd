import assert from "node:assert/strict";
import * as vscode from "vscode";
import { metrics } from "./metrics";

const ID = "tandem-dev.tandem";

describe("Tandem in VS Code", () => {
  it("activates and returns its API", async () => {
    const ext = vscode.extensions.getExtension(ID);
    assert.ok(ext, "the extension is installed");
    const api = await ext.activate();
    assert.equal(ext.isActive, true);
    assert.equal(typeof api.version, "string");
    // How long activation took is a figure for the benchmark (BENCH package), not a pass/fail line.
    assert.ok(Number.isFinite(api.activationMs) && api.activationMs >= 0, `activationMs ${api.activationMs}`);
    metrics.activate_ms = api.activationMs;
    metrics.vscode_api_ms = api.vscodeApiMs;
  });

  it("contributes the Ask command", async () => {
    const commands = await vscode.commands.getCommands(true);
    assert.ok(commands.includes("tandem.ask"), "tandem.ask is registered");
  });

  it("registers the @tandem participant", () => {
    const ext = vscode.extensions.getExtension(ID)!;
    // The id of the participant activate() made with VS Code's chat API (not what the manifest says).
    assert.equal(ext.exports.participant, "tandem.chat");
    const declared = ext.packageJSON.contributes.chatParticipants as Array<{ id: string; name: string }>;
    assert.deepEqual(
      declared.map((p) => [p.id, p.name]),
      [["tandem.chat", "tandem"]],
    );
  });

  it("resolves the side panel view", async () => {
    await vscode.commands.executeCommand("workbench.view.extension.tandem");
    await vscode.commands.executeCommand("tandem.chatView.focus");
    const deadline = Date.now() + 20_000;
    const ext = vscode.extensions.getExtension(ID)!;
    // The provider reports when VS Code asked it to resolve the view.
    while (!ext.exports.panelResolved?.() && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    assert.equal(ext.exports.panelResolved?.(), true, "the view was resolved");
  });
});
