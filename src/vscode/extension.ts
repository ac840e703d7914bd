import { loaded } from "./clock";
import * as vscode from "vscode";
import { registerParticipant } from "./participant";
import { registerPanel } from "./panel";
import { registerCommands } from "./commands";

/** Wires Tandem's parts into the editor. Nothing heavy is loaded here: parts load on first use. */
export function activate(context: vscode.ExtensionContext) {
  const participant = registerParticipant(context);
  const panel = registerPanel(context);
  registerCommands(context);
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
