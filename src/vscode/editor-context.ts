/**
 * What the editor knows, for the panel's `@` picker and its references: workspace files (through
 * `findFiles`, so `files.exclude` and `search.exclude` hold), workspace symbols, the selection, the
 * open editors, the problems, and the last terminal output Tandem could read. VS Code gives an
 * extension no terminal's buffer: only the output of commands run through shell integration, read
 * while they run, so Tandem follows those from activation on and keeps the latest one's tail.
 */
import vscode = require("vscode");
import type { EditorContext, EditorSelection, EditorSymbol, TerminalOutput } from "../chat/panel";
import { workspaceFolders, workspaceRoot } from "./conversations";
import { core } from "./core";

/** Characters of a command's output kept (its end). */
const TERMINAL_CHARS = 100_000;
/** Problems listed at most. */
const MAX_PROBLEMS = 200;

/** A glob matching `query` anywhere in a path, letters in either case. */
function globOf(query: string): string {
  const pattern = [...query]
    .map((c) => {
      if (/[a-z]/i.test(c)) return `[${c.toLowerCase()}${c.toUpperCase()}]`;
      return /[*?[\]{}!\\,]/.test(c) ? "?" : c;
    })
    .join("");
  return pattern ? `{**/*${pattern}*,**/*${pattern}*/**}` : "**/*";
}

/**
 * A path relative to the workspace, or undefined for a file outside it: with several folders it
 * starts with its folder's name as the tools name it (`api/src/a.ts`), so the two agree.
 */
function relativeOf(uri: vscode.Uri): string | undefined {
  if (uri.scheme !== "file") return undefined;
  const shown = vscode.workspace.asRelativePath(uri, false);
  if (shown === uri.fsPath) return undefined;
  const folders = workspaceFolders();
  if (folders.length < 2) return shown;
  const holder = vscode.workspace.getWorkspaceFolder(uri)?.uri.fsPath;
  const named = core()
    .nameFolders(folders)
    .find((f) => f.root === holder);
  return named ? `${named.name}/${shown}` : undefined;
}

/** The output of the latest command run through shell integration, kept while it comes. */
class TerminalTail {
  private latest?: { command: string; text: string };

  constructor(context: vscode.ExtensionContext) {
    context.subscriptions.push(
      vscode.window.onDidStartTerminalShellExecution((event) => void this.follow(event.execution)),
    );
  }

  private async follow(execution: vscode.TerminalShellExecution): Promise<void> {
    const kept = { command: execution.commandLine.value, text: "" };
    this.latest = kept;
    for await (const data of execution.read()) {
      // Colours and cursor moves are escape sequences: the model wants the words.
      // eslint-disable-next-line no-control-regex -- the escape characters are what is matched
      kept.text += data.replace(/\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\r/g, "");
      if (kept.text.length > TERMINAL_CHARS * 2) kept.text = kept.text.slice(-TERMINAL_CHARS);
    }
  }

  output(): TerminalOutput {
    if (this.latest) return { command: this.latest.command, text: this.latest.text.slice(-TERMINAL_CHARS) };
    const terminal = vscode.window.activeTerminal;
    return {
      missing: terminal
        ? terminal.shellIntegration
          ? vscode.l10n.t("No command has run in a terminal since Tandem started.")
          : vscode.l10n.t(
              "The terminal has no shell integration; VS Code lets Tandem read only the output of commands run with it.",
            )
        : vscode.l10n.t("No terminal is open."),
    };
  }
}

/** The editor's context for the panel, following terminal commands from now on. */
export function editorContext(context: vscode.ExtensionContext): EditorContext {
  const tail = new TerminalTail(context);
  return {
    root: workspaceRoot,
    folders: workspaceFolders,
    files: async (query, max) => {
      const uris = await vscode.workspace.findFiles(globOf(query), undefined, max);
      return uris
        .map(relativeOf)
        .filter((p): p is string => p !== undefined)
        .sort((a, b) => a.length - b.length || a.localeCompare(b));
    },
    symbols: async (query, max) => {
      const found =
        (await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
          "vscode.executeWorkspaceSymbolProvider",
          query,
        )) ?? [];
      const out: EditorSymbol[] = [];
      for (const s of found) {
        const path = relativeOf(s.location.uri);
        if (!path) continue;
        out.push({
          name: s.name,
          kind: vscode.SymbolKind[s.kind]?.toLowerCase() ?? "symbol",
          container: s.containerName,
          path,
          line: s.location.range.start.line,
        });
        if (out.length >= max) break;
      }
      return out;
    },
    selection: (): EditorSelection | undefined => {
      const editor = vscode.window.activeTextEditor ?? vscode.window.visibleTextEditors[0];
      if (!editor || editor.selection.isEmpty) return undefined;
      const { document, selection } = editor;
      return {
        path: relativeOf(document.uri) ?? document.fileName,
        start: selection.start.line + 1,
        end: selection.end.line + 1,
        text: document.getText(selection),
        language: document.languageId,
      };
    },
    editors: () => {
      const paths = new Set<string>();
      for (const tab of vscode.window.tabGroups.all.flatMap((g) => g.tabs)) {
        const input = tab.input;
        if (input instanceof vscode.TabInputText) paths.add(relativeOf(input.uri) ?? tab.label);
      }
      return [...paths];
    },
    problems: () => {
      const lines: string[] = [];
      let count = 0;
      for (const [uri, diagnostics] of vscode.languages.getDiagnostics()) {
        const path = relativeOf(uri);
        if (!path) continue;
        for (const d of diagnostics) {
          if (d.severity > vscode.DiagnosticSeverity.Warning) continue;
          count++;
          if (lines.length >= MAX_PROBLEMS) continue;
          const level = d.severity === vscode.DiagnosticSeverity.Error ? "error" : "warning";
          const source = d.source ? ` (${d.source})` : "";
          lines.push(
            `${path}:${d.range.start.line + 1}:${d.range.start.character + 1} ${level}: ${d.message}${source}`,
          );
        }
      }
      if (count > lines.length) lines.push(`[${count - lines.length} more are not listed.]`);
      return { count, text: lines.join("\n") };
    },
    terminal: () => tail.output(),
  };
}
