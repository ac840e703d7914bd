import vscode = require("vscode");
import type {
  CodeSymbol,
  Command,
  DiffOf,
  Editor,
  NewFile,
  Place,
  Problem,
  Proposal,
  Ran,
  EditVerdict,
} from "../chat/workspace";
import {
  jailLine,
  spawnLine,
  type Background,
  type Listener,
  type Running,
  commandEnv,
} from "../chat/workspace";
import { gitDiff } from "./git-api";
import * as language from "./language";
import type { PendingReview } from "./pending-review";
import type { PendingList } from "../chat/pending";
import { settings } from "./settings";

const PROPOSALS = "tandem-proposal";
/** What a command may print before the terminal keeps only its end. */
const OUTPUT_LIMIT = 256 * 1024;

/**
 * The environment of a command: the extension host's without its secrets, but those the person
 * passes on; and the terminal's dim line naming what was kept from it, so a failing command is understood.
 */
function environment(): { env: NodeJS.ProcessEnv; note: string } {
  const { env, withheld } = commandEnv(settings().passToCommands);
  const note = withheld.length
    ? `\x1b[2m${vscode.l10n.t("Not passed to this command: {0} (tandem.environment.passToCommands)", withheld.join(", "))}\x1b[0m\n`
    : "";
  return { env, note };
}

/** Proposed texts, shown on the right of a diff until the person decides. */
class Proposals implements vscode.TextDocumentContentProvider {
  readonly texts = new Map<string, string>();
  provideTextDocumentContent(uri: vscode.Uri): string {
    return this.texts.get(uri.path) ?? "";
  }
}

/**
 * The workspace tools' editor in VS Code: documents, edits written at once as pending changes (or,
 * in the "ask" mode, a diff the person accepts first), a terminal they see.
 */
export class VsCodeEditor implements Editor {
  private readonly proposals = new Proposals();
  private readonly problemChanges = new language.ProblemChanges();
  private count = 0;
  /** Background commands still running: they end when the extension deactivates. */
  private readonly background = new Set<Running>();

  constructor(
    context: vscode.ExtensionContext,
    private readonly pending?: PendingReview,
  ) {
    context.subscriptions.push(
      vscode.workspace.registerTextDocumentContentProvider(PROPOSALS, this.proposals),
      { dispose: () => this.background.forEach((r) => r.stop()) },
      this.problemChanges,
    );
  }

  // What the language features and git know: see language.ts and git-api.ts.
  problems = async (path?: string): Promise<Problem[]> => language.problems(path);
  problemsAfterWrite = (path: string): Promise<Problem[] | undefined> => this.problemChanges.after(path);
  definition = (at: Place): Promise<Place[]> => language.definition(at);
  references = (at: Place): Promise<Place[]> => language.references(at);
  fileSymbols = (path: string): Promise<CodeSymbol[]> => language.fileSymbols(path);
  workspaceSymbols = (query: string): Promise<CodeSymbol[]> => language.workspaceSymbols(query);
  gitDiff = (of: DiffOf, signal: AbortSignal): Promise<string> => gitDiff(of, signal);

  async open(path: string, line?: number): Promise<void> {
    const document = await vscode.workspace.openTextDocument(vscode.Uri.file(path));
    const at = line ? new vscode.Position(Math.max(0, line - 1), 0) : undefined;
    await vscode.window.showTextDocument(document, {
      preview: true,
      selection: at ? new vscode.Range(at, at) : undefined,
    });
  }

  /** What the agent is told at its next turn about its pending changes. */
  async notes(): Promise<string[]> {
    return this.pending ? this.pending.notes() : [];
  }

  /** The pending changes with their reviewed texts (none without pending changes). */
  async reviewed(): Promise<PendingList> {
    return this.pending ? this.pending.reviewed() : [];
  }

  /** The files with pending changes (absolute): the agent's edits the person has not kept or undone yet. */
  async unreviewed(): Promise<string[]> {
    return this.pending ? (await this.pending.list()).map((f) => f.path) : [];
  }

  async propose(p: Proposal): Promise<EditVerdict> {
    if (this.pending?.mode() === "pending") {
      // Counted before the write, so the language server's answer to it is the one waited for.
      this.problemChanges.wrote(p.path);
      return this.pending.write(p.path, p.shown, p.after, p.recheck);
    }
    const key = `/${++this.count}/${p.shown}`;
    this.proposals.texts.set(key, p.after);
    const right = vscode.Uri.from({ scheme: PROPOSALS, path: key });
    try {
      await vscode.commands.executeCommand(
        "vscode.diff",
        vscode.Uri.file(p.path),
        right,
        vscode.l10n.t("{0} ↔ Tandem's proposal", p.shown),
        { preview: true },
      );
      const accept = vscode.l10n.t("Accept");
      const reject = vscode.l10n.t("Reject");
      const choice = await vscode.window.showInformationMessage(
        vscode.l10n.t("Accept Tandem's change to {0}?", p.shown),
        accept,
        reject,
      );
      if (choice !== accept) return { accepted: false, note: "The person rejected the change." };
      // The person may have read the diff for minutes: the path is checked again before the write.
      await p.recheck?.();
      const uri = vscode.Uri.file(p.path);
      const document = await vscode.workspace.openTextDocument(uri);
      const edit = new vscode.WorkspaceEdit();
      edit.replace(
        uri,
        new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)),
        p.after,
      );
      this.problemChanges.wrote(p.path);
      await vscode.workspace.applyEdit(edit);
      await document.save();
      return { accepted: true };
    } finally {
      this.proposals.texts.delete(key);
    }
  }

  async create(file: NewFile): Promise<EditVerdict | void> {
    this.problemChanges.wrote(file.path);
    if (this.pending?.mode() === "pending")
      return this.pending.write(file.path, file.shown, file.content, file.recheck);
    await file.recheck?.();
    await vscode.workspace.fs.writeFile(vscode.Uri.file(file.path), new TextEncoder().encode(file.content));
  }

  async text(path: string): Promise<string | undefined> {
    const open = vscode.workspace.textDocuments.find((d) => d.uri.scheme === "file" && d.uri.fsPath === path);
    return open?.isDirty ? open.getText() : undefined;
  }

  /** Starts the command in a terminal the person sees, without waiting; `each` hears its output and end. */
  start(c: Background, each: Listener): Running {
    const write = new vscode.EventEmitter<string>();
    // What the command writes before the terminal opens is shown when it does.
    let early: string[] | undefined = [];
    const shown = (text: string) => {
      const out = text.replace(/\r?\n/g, "\r\n");
      if (early) early.push(out);
      else write.fire(out);
    };
    shown(`\x1b[2m${c.shown}$\x1b[0m ${c.command}\n`);
    if (c.jail) shown(jailLine(c.jail));
    const { env, note } = environment();
    if (note) shown(note);
    const running = spawnLine(
      c,
      {
        output: (text) => {
          shown(text);
          each.output(text);
        },
        exit: (code) => {
          this.background.delete(running);
          shown(`\n\x1b[2m${vscode.l10n.t("exit code {0}", String(code))}\x1b[0m\n`);
          each.exit(code);
        },
      },
      env,
    );
    this.background.add(running);
    const pty: vscode.Pseudoterminal = {
      onDidWrite: write.event,
      open: () => {
        const held = early ?? [];
        early = undefined;
        for (const text of held) write.fire(text);
      },
      // Closing the terminal ends the command, as it would in a shell.
      close: () => running.stop(),
    };
    const terminal = vscode.window.createTerminal({
      name: vscode.l10n.t("Tandem (background): {0}", c.command.slice(0, 40)),
      pty,
    });
    terminal.show(true);
    return running;
  }

  /** Runs the command in a terminal the person sees, and gives back what it printed. */
  run(c: Command): Promise<Ran> {
    return new Promise<Ran>((resolve) => {
      const write = new vscode.EventEmitter<string>();
      const closed = new vscode.EventEmitter<number | void>();
      let output = "";
      let timedOut = false;
      const shown = (text: string) => write.fire(text.replace(/\r?\n/g, "\r\n"));
      const pty: vscode.Pseudoterminal = {
        onDidWrite: write.event,
        onDidClose: closed.event,
        open: () => {
          shown(`\x1b[2m${c.shown}$\x1b[0m ${c.command}\n`);
          if (c.jail) shown(jailLine(c.jail));
          const { env, note } = environment();
          if (note) shown(note);
          // The process ends after this function: `timer` and `end` below are set by then.
          const running = spawnLine(
            c,
            {
              output: (text) => {
                output = (output + text).slice(-OUTPUT_LIMIT);
                shown(text);
              },
              exit: (code) => {
                clearTimeout(timer);
                c.signal.removeEventListener("abort", end);
                shown(`\n\x1b[2m${vscode.l10n.t("exit code {0}", String(code))}\x1b[0m\n`);
                resolve({ exitCode: timedOut || c.signal.aborted ? null : code, output, timedOut });
              },
            },
            env,
          );
          const end = () => running.stop();
          const timer = setTimeout(() => {
            timedOut = true;
            end();
          }, c.timeoutMs);
          c.signal.addEventListener("abort", end, { once: true });
        },
        close: () => undefined,
      };
      const terminal = vscode.window.createTerminal({
        name: vscode.l10n.t("Tandem: {0}", c.command.slice(0, 40)),
        pty,
      });
      terminal.show(true);
    });
  }
}
