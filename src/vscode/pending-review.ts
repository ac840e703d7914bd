/**
 * The agent's pending changes in VS Code: kept in the extension's storage (so they survive a
 * reload), reviewed in VS Code's diff editor (the text before ↔ the file now), kept or undone per
 * change with CodeLens over each one or per file from the editor's title, or all at once from a
 * notification that works with the panel closed. The rules live in src/chat/pending.
 */
import { access } from "node:fs/promises";
import { join } from "node:path";
import vscode = require("vscode");
import type { Action, Files, Pending, PendingChanges, Hunk, EditsMode } from "../chat/pending";
import type { EditVerdict } from "../chat/workspace";
import type { PendingFile } from "../protocol/messages";
import { core } from "./core";
import { logged } from "./failures";
import { PendingLenses } from "./pending-lens";
import { settings } from "./settings";
import { reason } from "../protocol/reason";

/** The scheme of the before side of a review diff. */
const BEFORE = "tandem-before";

/** The open document of `path` (a file's absolute path), if any. */
function documentOf(path: string): vscode.TextDocument | undefined {
  return vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
}

/**
 * The files as the person sees them: a document with unsaved changes is read and written through
 * the editor (and saved), any other file on disk, where an open document follows it.
 */
function editorFiles(): Files {
  const disk = core().diskFiles;
  return {
    async read(path) {
      const open = documentOf(path);
      return open?.isDirty ? open.getText() : disk.read(path);
    },
    async write(path, text) {
      const open = documentOf(path);
      if (!open?.isDirty) return disk.write(path, text);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        open.uri,
        new vscode.Range(open.positionAt(0), open.positionAt(open.getText().length)),
        text,
      );
      if (!(await vscode.workspace.applyEdit(edit)) || !(await open.save())) {
        throw new Error(vscode.l10n.t("{0} could not be written.", vscode.workspace.asRelativePath(path)));
      }
    },
    remove: (path) => disk.remove(path),
  };
}

/** The pending changes of this window, and the commands that review them. */
export class PendingReview implements vscode.Disposable {
  private opened: Promise<PendingChanges> | undefined;
  /** Whether changes were kept when the window closed (their file is there), found without the core. */
  private readonly kept: Promise<boolean>;
  private readonly before = new vscode.EventEmitter<vscode.Uri>();
  private readonly changed = new vscode.EventEmitter<PendingFile[]>();
  private readonly lenses: PendingLenses;
  private readonly parts: vscode.Disposable[] = [];
  /** The files the person was last told about, so a run that wrote nothing new does not tell again. */
  private told = "";
  /** Follows every change to the list: the panel's bar. */
  readonly onChange = this.changed.event;

  constructor(private readonly context: vscode.ExtensionContext) {
    this.lenses = new PendingLenses(this);
    this.parts.push(
      this.before,
      this.changed,
      vscode.workspace.registerTextDocumentContentProvider(BEFORE, {
        onDidChange: this.before.event,
        provideTextDocumentContent: async (uri) => (await this.changes()).get(pathOf(uri))?.before ?? "",
      }),
      vscode.languages.registerCodeLensProvider({ scheme: "file" }, this.lenses),
      this.lenses,
    );
    const command = (name: string, run: (...args: unknown[]) => Promise<unknown>) =>
      this.parts.push(
        vscode.commands.registerCommand(name, (...args: unknown[]) => this.reported(run(...args))),
      );
    command("tandem.pending.review", (target) => this.review(fileArg(target)));
    command("tandem.pending.keepAll", () => this.all("keep"));
    command("tandem.pending.undoAll", () => this.all("undo"));
    command("tandem.pending.keepFile", (target) => this.whole(fileArg(target), "keep"));
    command("tandem.pending.undoFile", (target) => this.whole(fileArg(target), "undo"));
    command("tandem.pending.keepHunk", (path, index, hunk) => this.hunk(path, index, hunk, "keep"));
    command("tandem.pending.undoHunk", (path, index, hunk) => this.hunk(path, index, hunk, "undo"));
    // Kept changes are opened at once, so the list, the lenses and the context keys are back after a
    // reload; with none kept, nothing is loaded (the core's bundle) until the agent writes one.
    this.kept = access(this.file()).then(
      () => true,
      () => false,
    );
    logged(
      "reading the pending changes",
      this.kept.then((kept) => (kept ? this.changes() : undefined)),
    );
  }

  /** Where the pending changes are kept: the extension's storage for this workspace. */
  private file(): string {
    return join((this.context.storageUri ?? this.context.globalStorageUri).fsPath, "pending.json");
  }

  /** How the agent's edits are written now (the person's `tandem.edits.mode`). */
  mode(): EditsMode {
    return settings().editsMode;
  }

  /** The pending changes, opened from the extension's storage on first use. */
  changes(): Promise<PendingChanges> {
    return (this.opened ??= core()
      .PendingChanges.open(this.file(), editorFiles())
      .then((changes) => {
        changes.onChange(() => this.refresh(changes));
        this.refresh(changes);
        return changes;
      }));
  }

  /** The pending changes if there can be any (opened, or kept from before); undefined when none ever were. */
  async known(): Promise<PendingChanges | undefined> {
    if (this.opened) return this.opened;
    return (await this.kept) ? this.changes() : undefined;
  }

  /** The pending files now. */
  async list(): Promise<PendingFile[]> {
    return (await this.changes()).list().map(({ path, shown }) => ({ path, shown }));
  }

  /** Writes `text` as the file `path` at once, as a pending change (`recheck` right before the write). */
  async write(
    path: string,
    shown: string,
    text: string,
    recheck?: () => Promise<void>,
  ): Promise<EditVerdict> {
    return core().writePending(await this.changes(), path, shown, text, recheck);
  }

  /** The pending changes with their reviewed texts: instruction files among them are read as those. */
  async reviewed(): Promise<Pending[]> {
    return (await this.changes()).list();
  }

  /** What the agent is told at its next turn about its pending changes. */
  async notes(): Promise<string[]> {
    return (await this.changes()).take();
  }

  /** Tells the person, in a notification, which files the agent changed, when the list is new to them. */
  async notify(): Promise<void> {
    const list = (await this.changes()).list();
    const seen = JSON.stringify(list.map((p) => [p.path, p.wrote.length, p.at]));
    if (!list.length || seen === this.told) return;
    this.told = seen;
    const review = vscode.l10n.t("Review");
    const keep = vscode.l10n.t("Keep All");
    const undo = vscode.l10n.t("Undo All");
    const text =
      list.length === 1
        ? vscode.l10n.t("Tandem changed {0}", list[0].shown)
        : vscode.l10n.t("Tandem changed {0} files", list.length);
    const said = await vscode.window.showInformationMessage(text, review, keep, undo);
    if (said === review) await this.reported(this.review(undefined));
    else if (said === keep) await this.reported(this.all("keep"));
    else if (said === undo) await this.reported(this.all("undo"));
  }

  /** Opens the diff of `path` (before ↔ now); without a path, of the one pending file or one the person picks. */
  async review(path: string | undefined): Promise<void> {
    const list = (await this.changes()).list();
    let chosen: Pending | undefined = path
      ? list.find((p) => p.path === path)
      : list.length === 1
        ? list[0]
        : undefined;
    if (!chosen && !path && list.length > 1) {
      const picked = await vscode.window.showQuickPick(
        list.map((p) => ({
          label: p.shown,
          description: p.before === null ? vscode.l10n.t("new file") : "",
          p,
        })),
        { placeHolder: vscode.l10n.t("Tandem's pending changes: pick a file to review") },
      );
      chosen = picked?.p;
    }
    if (!chosen) {
      if (path || !list.length)
        void vscode.window.showInformationMessage(vscode.l10n.t("No pending change to review."));
      return;
    }
    const left = vscode.Uri.from({
      scheme: BEFORE,
      path: `/${chosen.shown}`,
      query: encodeURIComponent(chosen.path),
    });
    await vscode.commands.executeCommand(
      "vscode.diff",
      left,
      vscode.Uri.file(chosen.path),
      vscode.l10n.t("{0} (before ↔ Tandem's change)", chosen.shown),
      { preview: true },
    );
  }

  /** Keeps or undoes every pending change. */
  async all(action: Action): Promise<void> {
    await (await this.changes()).all(action);
  }

  /** Keeps or undoes the pending change of one file. */
  async whole(path: string | undefined, action: Action): Promise<void> {
    const target = path ?? vscode.window.activeTextEditor?.document.uri.fsPath;
    if (!target) throw new Error(vscode.l10n.t("Open a file with pending changes first."));
    await (await this.changes()).whole(target, action);
  }

  /** Keeps or undoes one change (`hunk`, as the lens showed it) of a file. */
  async hunk(path: unknown, index: unknown, hunk: unknown, action: Action): Promise<void> {
    if (typeof path !== "string" || typeof index !== "number") {
      throw new Error(vscode.l10n.t("Use Keep or Undo over a change in the file."));
    }
    await (await this.changes()).hunk(path, index, action, hunkArg(hunk));
  }

  dispose(): void {
    for (const part of this.parts) part.dispose();
  }

  private refresh(changes: PendingChanges): void {
    const list = changes.list();
    void vscode.commands.executeCommand("setContext", "tandem.pendingCount", list.length);
    void vscode.commands.executeCommand(
      "setContext",
      "tandem.pendingPaths",
      list.map((p) => vscode.Uri.file(p.path).path),
    );
    for (const document of vscode.workspace.textDocuments) {
      if (document.uri.scheme === BEFORE) this.before.fire(document.uri);
    }
    this.lenses.refresh();
    this.changed.fire(list.map(({ path, shown }) => ({ path, shown })));
  }

  /** Runs `work`, telling the person what went wrong instead of failing silently. */
  private async reported(work: Promise<unknown>): Promise<void> {
    try {
      await work;
    } catch (error) {
      void vscode.window.showErrorMessage(vscode.l10n.t("Tandem: {0}", reason(error)));
    }
  }
}

/** The file a review diff's before side is of. */
function pathOf(uri: vscode.Uri): string {
  return decodeURIComponent(uri.query);
}

/** The file a command was given: a path, or a Uri (a menu passes the editor's resource). */
function fileArg(target: unknown): string | undefined {
  if (typeof target === "string") return target;
  if (target instanceof vscode.Uri) return target.scheme === BEFORE ? pathOf(target) : target.fsPath;
  return undefined;
}

/** The hunk a lens passed back, when it has a hunk's shape. */
function hunkArg(value: unknown): Hunk | undefined {
  if (value === null || typeof value !== "object") return undefined;
  const h = value as Record<string, unknown>;
  const n = (k: string) => (typeof h[k] === "number" ? h[k] : undefined);
  const [beforeStart, beforeCount, afterStart, afterCount] = [
    n("beforeStart"),
    n("beforeCount"),
    n("afterStart"),
    n("afterCount"),
  ];
  if (
    beforeStart === undefined ||
    beforeCount === undefined ||
    afterStart === undefined ||
    afterCount === undefined
  )
    return undefined;
  return { beforeStart, beforeCount, afterStart, afterCount };
}
