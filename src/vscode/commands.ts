import vscode = require("vscode");
import type { Models } from "./models";
import { VENDOR } from "./models";
import { originOf, storeKey } from "../chat/models";
import { endpointSettings, keyName, keySetAgain, ENV_ENDPOINT } from "./settings";

/** What the commands reach: the models, and the side panel (once the panel part is wired). */
export interface CommandParts {
  models: Models;
  /** Sends a question to the side panel's current conversation. */
  ask: (text: string) => Promise<void>;
  onModelChosen: (id: string, name: string) => void;
}

/**
 * "Tandem: Set API Key": the key of one endpoint (`name`, else the person picks), into SecretStorage only,
 * bound to the origin the person's settings give that endpoint. The key itself is only ever typed by the person.
 */
async function setApiKey(context: vscode.ExtensionContext, parts: CommandParts, name?: unknown) {
  const endpoints = endpointSettings();
  if (!endpoints.length) {
    const open = vscode.l10n.t("Open Settings");
    const pick = await vscode.window.showInformationMessage(
      vscode.l10n.t("Add an endpoint under Settings › Tandem › Endpoints first."),
      open,
    );
    if (pick === open)
      await vscode.commands.executeCommand("workbench.action.openSettings", "tandem.endpoints");
    return;
  }
  const named = typeof name === "string" ? endpoints.find((e) => e.name === name) : undefined;
  const picked =
    named ??
    (endpoints.length === 1
      ? endpoints[0]
      : (
          await vscode.window.showQuickPick(
            endpoints.map((e) => ({ label: e.name, description: e.baseURL, endpoint: e })),
            { title: vscode.l10n.t("Set the API key of which endpoint?") },
          )
        )?.endpoint);
  if (!picked) return;
  const key = await vscode.window.showInputBox({
    title: vscode.l10n.t("API key for {0}", picked.name),
    prompt:
      picked.name === ENV_ENDPOINT
        ? vscode.l10n.t("Overrides AI_API_KEY for this endpoint.")
        : vscode.l10n.t("Sent only to {0}.", originOf(picked.baseURL) ?? picked.baseURL),
    password: true,
    ignoreFocusOut: true,
    placeHolder: vscode.l10n.t("Paste the key; leave empty to remove it"),
  });
  if (key === undefined) return;
  if (key.trim()) await storeKey(context.secrets, picked.name, key.trim(), picked.baseURL);
  else await context.secrets.delete(keyName(picked.name));
  keySetAgain(picked.name);
  parts.models.refresh();
  vscode.window.showInformationMessage(
    key.trim()
      ? vscode.l10n.t("The key of {0} is saved.", picked.name)
      : vscode.l10n.t("The key of {0} is removed.", picked.name),
  );
}

/** "Tandem: Select Model": picks from the catalogue, makes it Tandem's default and selects it in the Chat view. */
async function selectModel(parts: CommandParts) {
  const choices = await parts.models.choices();
  if (!choices.length) {
    vscode.window.showInformationMessage(
      vscode.l10n.t("No model found. Add an endpoint in settings, or start a local model server."),
    );
    return;
  }
  const items: Array<vscode.QuickPickItem & { id?: string }> = [];
  let group = "";
  for (const c of choices) {
    if (c.group !== group) {
      items.push({ label: c.group, kind: vscode.QuickPickItemKind.Separator });
      group = c.group;
    }
    items.push({ label: c.name, description: c.id, detail: c.note || undefined, id: c.id });
  }
  const picked = await vscode.window.showQuickPick(items, {
    title: vscode.l10n.t("Tandem's model"),
    matchOnDescription: true,
  });
  if (!picked?.id) return;
  await vscode.workspace
    .getConfiguration("tandem")
    .update("defaultModel", picked.id, vscode.ConfigurationTarget.Global);
  parts.onModelChosen(picked.id, picked.label);
  if (!picked.id.startsWith("vscode:")) {
    // Select it in VS Code's Chat view too, so @tandem and the Chat view use it.
    // Best effort (a VS Code without the Chat view): a failure is logged, the choice is kept.
    await vscode.commands
      .executeCommand("workbench.action.chat.open", { modelSelector: { vendor: VENDOR, id: picked.id } })
      .then(undefined, (error) =>
        console.error("Tandem: selecting the model in the Chat view failed:", error),
      );
  }
}

/** The command-palette commands that need no conversation. */
export function registerCommands(context: vscode.ExtensionContext, parts: CommandParts) {
  context.subscriptions.push(
    vscode.commands.registerCommand("tandem.ask", async (question?: string) => {
      const text =
        typeof question === "string"
          ? question
          : await vscode.window.showInputBox({
              title: vscode.l10n.t("Ask Tandem"),
              prompt: vscode.l10n.t("The answer appears in the Tandem panel."),
              ignoreFocusOut: true,
            });
      if (text?.trim()) await parts.ask(text.trim());
    }),
    vscode.commands.registerCommand("tandem.setApiKey", (name?: unknown) => setApiKey(context, parts, name)),
    vscode.commands.registerCommand("tandem.selectModel", () => selectModel(parts)),
  );
}
