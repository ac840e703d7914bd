/**
 * What the editor's language features know, for the workspace tools: problems (diagnostics),
 * definitions, references and symbols, as the core's plain records.
 */
import vscode = require("vscode");
import type { CodeSymbol, Place, Problem, Severity } from "../chat/workspace";

/** How long the problems of a just-written file are waited for at most. */
const SETTLE_MS = 5000;
/** How long a file's problems must stay unchanged after a change to count as settled (a server sends them in parts). */
const QUIET_MS = 500;

const SEVERITY: Record<vscode.DiagnosticSeverity, Severity> = {
  [vscode.DiagnosticSeverity.Error]: "error",
  [vscode.DiagnosticSeverity.Warning]: "warning",
  [vscode.DiagnosticSeverity.Information]: "information",
  [vscode.DiagnosticSeverity.Hint]: "hint",
};

/** A diagnostic of `uri` as a problem. */
function problemOf(uri: vscode.Uri, d: vscode.Diagnostic): Problem {
  const code = typeof d.code === "object" ? d.code.value : d.code;
  return {
    path: uri.fsPath,
    line: d.range.start.line + 1,
    column: d.range.start.character + 1,
    severity: SEVERITY[d.severity],
    message: d.message,
    source: d.source,
    code: code === undefined ? undefined : String(code),
  };
}

/** The problems of a file, or of every file the editor has problems for. */
export function problems(path?: string): Problem[] {
  if (path !== undefined) {
    const uri = vscode.Uri.file(path);
    // Named by the path asked for (a URI's fsPath may spell a Windows drive letter otherwise).
    return vscode.languages.getDiagnostics(uri).map((d) => ({ ...problemOf(uri, d), path }));
  }
  return vscode.languages
    .getDiagnostics()
    .filter(([uri]) => uri.scheme === "file")
    .flatMap(([uri, list]) => list.map((d) => problemOf(uri, d)));
}

/**
 * Follows which files' problems changed and when, so that "the problems after a write" waits for a
 * change that came after the write, even one that came before anyone asked.
 */
export class ProblemChanges implements vscode.Disposable {
  private tick = 0;
  private readonly changed = new Map<string, number>();
  private readonly written = new Map<string, number>();
  private readonly fired = new vscode.EventEmitter<void>();
  private readonly listener = vscode.languages.onDidChangeDiagnostics((e) => {
    this.tick++;
    for (const uri of e.uris) if (uri.scheme === "file") this.changed.set(uri.fsPath, this.tick);
    this.fired.fire();
  });

  /** Marks `path` as written now: only problem changes after this count for it. */
  wrote(path: string): void {
    this.written.set(vscode.Uri.file(path).fsPath, ++this.tick);
  }

  /**
   * The problems of `path` once they changed after its last write and stayed so a moment; after a
   * few seconds without a change, the problems known, or undefined when there are none (no server looked).
   */
  async after(path: string): Promise<Problem[] | undefined> {
    const uri = vscode.Uri.file(path);
    // Language servers look at files open in a tab (TypeScript's asks for no other): a created file is shown.
    if (!inTab(uri)) {
      await vscode.window
        .showTextDocument(uri, { preview: true, preserveFocus: true })
        .then(undefined, (error) =>
          // The problems are read all the same: a file that cannot be shown is logged, not fatal.
          console.error(`Tandem: showing ${uri.fsPath} for its problems failed:`, error),
        );
    }
    const since = this.written.get(uri.fsPath) ?? this.tick;
    const changed = await new Promise<boolean>((resolve) => {
      let quiet: ReturnType<typeof setTimeout> | undefined;
      let seen = false;
      const limit = setTimeout(() => done(seen), SETTLE_MS);
      const listener = this.fired.event(check);
      function done(seen: boolean) {
        clearTimeout(limit);
        clearTimeout(quiet);
        listener.dispose();
        resolve(seen);
      }
      const changes = this.changed;
      function check() {
        if ((changes.get(uri.fsPath) ?? 0) <= since) return;
        seen = true;
        clearTimeout(quiet);
        quiet = setTimeout(() => done(true), QUIET_MS);
      }
      check();
    });
    const found = problems(path);
    return changed || found.length ? found : undefined;
  }

  dispose(): void {
    this.listener.dispose();
    this.fired.dispose();
  }
}

/** True when a tab shows `uri` (as a text editor or either side of a diff). */
function inTab(uri: vscode.Uri): boolean {
  const same = (other: unknown) => other instanceof vscode.Uri && other.toString() === uri.toString();
  return vscode.window.tabGroups.all.some((group) =>
    group.tabs.some((tab) => {
      const input = tab.input;
      if (input instanceof vscode.TabInputText) return same(input.uri);
      if (input instanceof vscode.TabInputTextDiff) return same(input.original) || same(input.modified);
      return false;
    }),
  );
}

/** The place a location or location link points at. */
function placeOf(l: vscode.Location | vscode.LocationLink): Place {
  const uri = "targetUri" in l ? l.targetUri : l.uri;
  const range = "targetUri" in l ? (l.targetSelectionRange ?? l.targetRange) : l.range;
  return { path: uri.fsPath, line: range.start.line + 1, column: range.start.character + 1 };
}

/** The position of a place (1-based) in VS Code's terms (0-based). */
function positionOf(at: Place): vscode.Position {
  return new vscode.Position(Math.max(0, at.line - 1), Math.max(0, at.column - 1));
}

/** Where the symbol at `at` is defined. */
export async function definition(at: Place): Promise<Place[]> {
  const found = await vscode.commands.executeCommand<(vscode.Location | vscode.LocationLink)[] | undefined>(
    "vscode.executeDefinitionProvider",
    vscode.Uri.file(at.path),
    positionOf(at),
  );
  return (found ?? []).filter((l) => ("targetUri" in l ? l.targetUri : l.uri).scheme === "file").map(placeOf);
}

/** Where the symbol at `at` is used. */
export async function references(at: Place): Promise<Place[]> {
  const found = await vscode.commands.executeCommand<vscode.Location[] | undefined>(
    "vscode.executeReferenceProvider",
    vscode.Uri.file(at.path),
    positionOf(at),
  );
  return (found ?? []).filter((l) => l.uri.scheme === "file").map(placeOf);
}

/** A symbol kind as a word ("function", "class"). */
function kindOf(kind: vscode.SymbolKind): string {
  return (vscode.SymbolKind[kind] ?? "symbol").toLowerCase();
}

/** The symbols declared in a file, in outline order, nested ones named with their container. */
export async function fileSymbols(path: string): Promise<CodeSymbol[]> {
  const uri = vscode.Uri.file(path);
  const found = await vscode.commands.executeCommand<
    (vscode.DocumentSymbol | vscode.SymbolInformation)[] | undefined
  >("vscode.executeDocumentSymbolProvider", uri);
  const out: CodeSymbol[] = [];
  const walk = (s: vscode.DocumentSymbol | vscode.SymbolInformation, container?: string) => {
    const range = "location" in s ? s.location.range : s.selectionRange;
    out.push({
      name: s.name,
      kind: kindOf(s.kind),
      container: "location" in s ? s.containerName || undefined : container,
      path,
      line: range.start.line + 1,
      column: range.start.character + 1,
    });
    if ("children" in s)
      for (const child of s.children) walk(child, container ? `${container}.${s.name}` : s.name);
  };
  for (const s of found ?? []) walk(s);
  return out;
}

/** The workspace's symbols matching `query`. */
export async function workspaceSymbols(query: string): Promise<CodeSymbol[]> {
  const found = await vscode.commands.executeCommand<vscode.SymbolInformation[] | undefined>(
    "vscode.executeWorkspaceSymbolProvider",
    query,
  );
  return (found ?? [])
    .filter((s) => s.location.uri.scheme === "file")
    .map((s) => ({
      name: s.name,
      kind: kindOf(s.kind),
      container: s.containerName || undefined,
      path: s.location.uri.fsPath,
      line: s.location.range.start.line + 1,
      column: s.location.range.start.character + 1,
    }));
}
