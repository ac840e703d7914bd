import assert from "node:assert/strict";
import * as vscode from "vscode";
import { metrics } from "./metrics";
import { panelText } from "./person";
import { until } from "./wait";

const ID = "tandem-dev.tandem";
/** An extension that does nothing (test/fixtures/empty-extension), activated as Tandem is: the baseline. */
const EMPTY = "tandem-dev.empty-baseline";
/**
 * An extension that makes Tandem's kinds of registrations with handlers that do nothing
 * (test/fixtures/registering-extension): installed only for the benchmark's windows.
 */
const REGISTERING = "tandem-dev.registering-baseline";

/** What an extension's activation took, from its first line to the end of activate (VS Code's API object included). */
interface Timed {
  activationMs: number;
  vscodeApiMs: number;
}

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
    metrics.load_ms = api.loadMs;
    metrics.call_ms = api.callMs;
    // The empty extension, installed by the harness with the same activation event, timed with the same
    // clocks in the same window: the benchmark's baseline, so that a slower machine cannot hide a regression.
    const empty = vscode.extensions.getExtension<Timed>(EMPTY);
    assert.ok(empty, "the empty baseline extension is installed");
    const baseline = await empty.activate();
    assert.ok(Number.isFinite(baseline.activationMs), `the baseline's activationMs ${baseline.activationMs}`);
    metrics.empty_ms = baseline.activationMs + baseline.vscodeApiMs;
    const registering = vscode.extensions.getExtension<Timed>(REGISTERING);
    if (registering) {
      const floor = await registering.activate();
      metrics.registering_ms = floor.activationMs + floor.vscodeApiMs;
    }
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
    const shown = performance.now();
    await vscode.commands.executeCommand("workbench.view.extension.tandem");
    await vscode.commands.executeCommand("tandem.chatView.focus");
    const deadline = Date.now() + 20_000;
    const ext = vscode.extensions.getExtension(ID)!;
    // The provider reports when VS Code asked it to resolve the view.
    while (!ext.exports.panelResolved?.() && Date.now() < deadline)
      await new Promise((r) => setTimeout(r, 200));
    assert.equal(ext.exports.panelResolved?.(), true, "the view was resolved");
    // What an empty history costs, the baseline of the history phase (BENCH history-vscode): the panel on
    // screen with its empty state, and opening the (empty) conversations.
    await until(
      async () => /Connect a model to start|Ask Tandem/.test(await panelText()),
      30_000,
      "the panel's empty state",
    );
    metrics.empty_panel_ms = performance.now() - shown;
    await ext.exports.conversations();
    metrics.empty_open_ms = ext.exports.conversationsOpenMs();
  });
});
