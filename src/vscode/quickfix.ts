/**
 * "Fix with Tandem": a quick fix on every error and warning that opens the side panel's conversation
 * with the problem, where it is and the lines around it, as the person's message.
 */
import vscode = require("vscode");
import type { Severity } from "../chat/workspace";
import { core } from "./core";

/** Lines shown before and after the problem's range. */
const AROUND = 3;
/** Lines of the problem's own range shown at most. */
const SPAN = 30;

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "information",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

/** Offers "Fix with Tandem" for each error and warning under the cursor. */
class FixWithTandem implements vscode.CodeActionProvider {
  static readonly kinds = [vscode.CodeActionKind.QuickFix];

  provideCodeActions(
    document: vscode.TextDocument,
    _range: vscode.Range,
    context: vscode.CodeActionContext,
  ): vscode.CodeAction[] {
    return context.diagnostics
      .filter((d) => d.severity <= vscode.DiagnosticSeverity.Warning)
      .map((d) => {
        const action = new vscode.CodeAction(
          vscode.l10n.t("Fix with Tandem"),
          vscode.CodeActionKind.QuickFix,
        );
        action.diagnostics = [d];
        action.command = {
          command: "tandem.fixWithTandem",
          title: vscode.l10n.t("Fix with Tandem"),
          arguments: [document.uri, d],
        };
        return action;
      });
  }
}

/** The message that asks Tandem to fix diagnostic `d` of `document`. */
export function fixMessage(document: vscode.TextDocument, d: vscode.Diagnostic): string {
  const first = Math.max(0, d.range.start.line - AROUND);
  const end = Math.min(d.range.end.line, d.range.start.line + SPAN);
  const last = Math.min(document.lineCount - 1, end + AROUND);
  const lines: string[] = [];
  for (let i = first; i <= last; i++) lines.push(document.lineAt(i).text);
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return core().fixPrompt({
    shown: vscode.workspace.asRelativePath(document.uri),
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITY[d.severity],
    message: d.message,
    source: d.source,
    code: code === undefined ? undefined : String(code),
    language: document.languageId,
    lines,
    first: first + 1,
  });
}

/** Registers the quick fix and its command, which sends the problem through `ask` (the side panel). */
export function registerQuickFix(context: vscode.ExtensionContext, ask: (text: string) => Promise<void>) {
  context.subscriptions.push(
    vscode.languages.registerCodeActionsProvider({ scheme: "file" }, new FixWithTandem(), {
      providedCodeActionKinds: FixWithTandem.kinds,
    }),
    vscode.commands.registerCommand(
      "tandem.fixWithTandem",
      async (uri?: vscode.Uri, diagnostic?: vscode.Diagnostic) => {
        if (!(uri instanceof vscode.Uri) || !diagnostic) {
          vscode.window.showInformationMessage(
            vscode.l10n.t("Use Fix with Tandem from a problem's quick fixes (the light bulb)."),
          );
          return;
        }
        const document = await vscode.workspace.openTextDocument(uri);
        await ask(fixMessage(document, diagnostic));
      },
    ),
  );
}
