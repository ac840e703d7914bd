/**
 * "Keep" and "Undo" over each pending change of a file (and for the whole file over its first
 * line), and the changed lines marked as the diff editor marks added ones.
 */
import vscode = require("vscode");
import type { PendingChanges } from "../chat/pending";
import { core } from "./core";

/** What the lenses need of the pending changes (undefined: there are none, and nothing was loaded for them). */
interface Source {
  known(): Promise<PendingChanges | undefined>;
}

/** The CodeLens provider of pending changes, with the marks on their lines. */
export class PendingLenses implements vscode.CodeLensProvider, vscode.Disposable {
  private readonly emitter = new vscode.EventEmitter<void>();
  readonly onDidChangeCodeLenses = this.emitter.event;
  private readonly marks = vscode.window.createTextEditorDecorationType({
    isWholeLine: true,
    backgroundColor: new vscode.ThemeColor("diffEditor.insertedLineBackground"),
    overviewRulerColor: new vscode.ThemeColor("editorOverviewRuler.addedForeground"),
    overviewRulerLane: vscode.OverviewRulerLane.Left,
  });
  private readonly watch: vscode.Disposable[];

  constructor(private readonly source: Source) {
    this.watch = [
      vscode.window.onDidChangeVisibleTextEditors(() => void this.mark()),
      vscode.workspace.onDidChangeTextDocument(() => void this.mark()),
    ];
  }

  /** Asks VS Code for the lenses again and marks the visible editors. */
  refresh(): void {
    this.emitter.fire();
    void this.mark();
  }

  async provideCodeLenses(document: vscode.TextDocument): Promise<vscode.CodeLens[]> {
    const pending = (await this.source.known())?.get(document.uri.fsPath);
    if (!pending) return [];
    const hunks = core().hunksOf(pending.before ?? "", document.getText());
    if (!hunks.length) return [];
    const path = document.uri.fsPath;
    const last = Math.max(0, document.lineCount - 1);
    const at = (line: number) => new vscode.Range(Math.min(line, last), 0, Math.min(line, last), 0);
    const lenses = [
      new vscode.CodeLens(at(0), {
        title: vscode.l10n.t("Tandem: {0} pending changes — Review", hunks.length),
        command: "tandem.pending.review",
        arguments: [path],
      }),
      new vscode.CodeLens(at(0), {
        title: vscode.l10n.t("Keep File"),
        command: "tandem.pending.keepFile",
        arguments: [path],
      }),
      new vscode.CodeLens(at(0), {
        title: vscode.l10n.t("Undo File"),
        command: "tandem.pending.undoFile",
        arguments: [path],
      }),
    ];
    hunks.forEach((hunk, index) => {
      lenses.push(
        new vscode.CodeLens(at(hunk.afterStart), {
          title: vscode.l10n.t("Keep"),
          command: "tandem.pending.keepHunk",
          arguments: [path, index, hunk],
        }),
        new vscode.CodeLens(at(hunk.afterStart), {
          title: hunk.afterCount
            ? vscode.l10n.t("Undo")
            : vscode.l10n.t("Undo (puts back {0} deleted lines)", hunk.beforeCount),
          command: "tandem.pending.undoHunk",
          arguments: [path, index, hunk],
        }),
      );
    });
    return lenses;
  }

  dispose(): void {
    for (const part of this.watch) part.dispose();
    this.marks.dispose();
    this.emitter.dispose();
  }

  /** Marks the lines each pending change added or changed in the visible editors. */
  private async mark(): Promise<void> {
    const changes = await this.source.known();
    for (const editor of vscode.window.visibleTextEditors) {
      const pending =
        editor.document.uri.scheme === "file" ? changes?.get(editor.document.uri.fsPath) : undefined;
      const ranges = pending
        ? core()
            .hunksOf(pending.before ?? "", editor.document.getText())
            .filter((h) => h.afterCount > 0)
            .map((h) => new vscode.Range(h.afterStart, 0, h.afterStart + h.afterCount - 1, 0))
        : [];
      editor.setDecorations(this.marks, ranges);
    }
  }
}
