import { loaded } from "./clock";
import * as vscode from "vscode";
import { askByNotification } from "./approval";
import { registerCommands } from "./commands";
import { Models } from "./models";
import { registerPanel } from "./panel";
import { registerParticipant } from "./participant";
import { registerProvider } from "./provider";
import { Status } from "./status";

/** Wires Tandem's parts into the editor. Nothing heavy is loaded here: parts load on first use. */
export function activate(context: vscode.ExtensionContext) {
  const models = new Models(context.secrets);
  const status = new Status();
  context.subscriptions.push(status);
  registerProvider(context, models);
  const participant = registerParticipant(context, {
    models,
    tools: () => [],
    approve: async (tool, args) => (await askByNotification(tool, args)) !== "decline",
  });
  const panel = registerPanel(context);
  registerCommands(context, {
    models,
    ask: async (text) => {
      await vscode.commands.executeCommand("workbench.action.chat.open", { query: `@tandem ${text}` });
    },
    onModelChosen: (_id, name) => status.setModel(name),
  });
  const activationMs = performance.now() - loaded;
  return {
    activationMs,
    version: context.extension.packageJSON.version as string,
    participant: participant.id,
    /** Whether VS Code has asked for the side panel (tests and other extensions read it). */
    panelResolved: () => panel.view !== undefined,
  };
}

export function deactivate() {}
