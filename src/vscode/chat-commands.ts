import vscode = require("vscode");
import type { Opened } from "./conversations";
import { pickWorkspaceFiles, type PanelProvider } from "./panel";
import { core } from "./core";
import { fileRef } from "../protocol/file-refs";
import { settings } from "./settings";

/** The commands that act on conversations in the side panel. */
export function registerChatCommands(
  context: vscode.ExtensionContext,
  panel: PanelProvider,
  conversations: () => Promise<Opened>,
) {
  /** Asks in the panel's open conversation (a new one when none is open). */
  const ask = async (text: string) => {
    const view = await panel.ready();
    const model = settings().defaultModel;
    await view.send(view.open, text, [], model, "");
  };

  const selectionPrompt = (editor: vscode.TextEditor) => {
    const where = vscode.workspace.asRelativePath(editor.document.uri);
    const range = editor.selection;
    const code = editor.document.getText(range);
    return {
      where: `${where}:${range.start.line + 1}-${range.end.line + 1}`,
      code,
      language: editor.document.languageId,
    };
  };

  const exportConversation = async () => {
    const { store } = await conversations();
    const view = await panel.ready();
    const chat = view.open || store.conversations()[0]?.id;
    const row = chat ? store.get("conversations", chat) : undefined;
    if (!row) {
      vscode.window.showInformationMessage(vscode.l10n.t("There is no conversation to export yet."));
      return;
    }
    const format = await vscode.window.showQuickPick(["Markdown", "JSON"], {
      title: vscode.l10n.t("Export as"),
    });
    if (!format) return;
    const { exportMarkdown, exportJson } = core();
    const items = store.items(chat);
    const content = format === "JSON" ? exportJson(row, items) : exportMarkdown(row, items);
    const document = await vscode.workspace.openTextDocument({
      content,
      language: format === "JSON" ? "json" : "markdown",
    });
    await vscode.window.showTextDocument(document);
  };

  context.subscriptions.push(
    vscode.commands.registerCommand("tandem.askSelection", async () => {
      const editor = vscode.window.activeTextEditor;
      if (!editor || editor.selection.isEmpty) {
        vscode.window.showInformationMessage(vscode.l10n.t("Select some code first."));
        return;
      }
      const { where, code, language } = selectionPrompt(editor);
      const question = await vscode.window.showInputBox({
        title: vscode.l10n.t("Ask about {0}", where),
        value: vscode.l10n.t("Explain this code."),
      });
      // A fence longer than any run of backticks in the code, so the code cannot close it.
      const fence = "`".repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));
      if (question) await ask(`${question}\n\nFrom ${where}:\n${fence}${language}\n${code}\n${fence}`);
    }),
    vscode.commands.registerCommand("tandem.askFile", async (uri?: vscode.Uri) => {
      const target = uri instanceof vscode.Uri ? uri : vscode.window.activeTextEditor?.document.uri;
      if (!target) {
        vscode.window.showInformationMessage(vscode.l10n.t("Open a file first."));
        return;
      }
      const shown = vscode.workspace.asRelativePath(target);
      const question = await vscode.window.showInputBox({
        title: vscode.l10n.t("Ask about {0}", shown),
        value: vscode.l10n.t("Explain this file."),
      });
      if (!question) return;
      const view = await panel.ready();
      await view.send(view.open, question, [fileRef(shown)], "", "");
    }),
    vscode.commands.registerCommand("tandem.newChat", async () => (await panel.ready()).openChat("")),
    vscode.commands.registerCommand("tandem.togglePlanMode", async () => (await panel.ready()).togglePlan()),
    vscode.commands.registerCommand("tandem.openConversation", async () => {
      const { store } = await conversations();
      const items = store
        .conversations()
        .map((c) => ({ label: c.title || vscode.l10n.t("(untitled)"), id: c.id }));
      if (!items.length) {
        vscode.window.showInformationMessage(vscode.l10n.t("No conversations yet."));
        return;
      }
      const picked = await vscode.window.showQuickPick(items, {
        title: vscode.l10n.t("Open a conversation"),
      });
      if (picked) (await panel.ready()).openChat(picked.id);
    }),
    vscode.commands.registerCommand("tandem.attachFiles", async (uri?: vscode.Uri, all?: vscode.Uri[]) => {
      const chosen = all?.length ? all : uri instanceof vscode.Uri ? [uri] : undefined;
      const files = chosen
        ? chosen.map((u) => fileRef(vscode.workspace.asRelativePath(u), u.path.split("/").pop()))
        : await pickWorkspaceFiles(vscode.l10n.t("Attach files to your message"));
      if (files.length) (await panel.ready()).attach(files);
    }),
    vscode.commands.registerCommand("tandem.exportConversation", exportConversation),
  );
  return { ask };
}
