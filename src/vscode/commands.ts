import * as vscode from "vscode";

/** The command-palette commands. */
export function registerCommands(context: vscode.ExtensionContext) {
  context.subscriptions.push(
    vscode.commands.registerCommand("tandem.ask", async (question?: string) => {
      const text =
        question ??
        (await vscode.window.showInputBox({
          title: vscode.l10n.t("Ask Tandem"),
          prompt: vscode.l10n.t("What should Tandem do?"),
          ignoreFocusOut: true,
        }));
      if (!text) return undefined;
      await vscode.commands.executeCommand("tandem.chatView.focus");
      return text;
    }),
  );
}
