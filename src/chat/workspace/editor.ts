/**
 * What the workspace tools need from the editor. The editor implements it (in VS Code: reveal a
 * document, a diff the person accepts, a terminal the person sees); tests give a fake.
 */

import type { Background, Listener, Running } from "./background";
import type { Jail } from "./sandbox";

/** A change to one file, shown to the person as a diff before anything is written. */
export interface Proposal {
  /** The file's absolute path (already checked to be inside the workspace). */
  path: string;
  /** The path relative to the workspace, as the person reads it. */
  shown: string;
  /** The file's text now. */
  before: string;
  /** The text proposed. */
  after: string;
  /** Checks, right before the write, that the path is still the one approved (throws when not). */
  recheck?: () => Promise<void>;
}

/** What the person did with a proposal. */
export interface EditVerdict {
  accepted: boolean;
  /** Anything the person said, or how the text they accepted differs from the proposal. */
  note?: string;
  /** Written at once as a pending change the person reviews after (keeps or undoes parts of). */
  pending?: boolean;
}

/** A file to create (or replace, when `overwrite`). */
export interface NewFile {
  path: string;
  shown: string;
  content: string;
  overwrite: boolean;
  /** Checks, right before the write, that the path is still the one approved (throws when not). */
  recheck?: () => Promise<void>;
}

/** A command line to run in a terminal the person sees. */
export interface Command {
  command: string;
  /** The folder it runs in (absolute, inside the workspace). */
  cwd: string;
  /** That folder relative to the workspace ("." for the root). */
  shown: string;
  /** How long it may run before the editor ends it. */
  timeoutMs: number;
  /** Aborted when the run is stopped: the editor ends the command. */
  signal: AbortSignal;
  /** How it is started: in the sandbox, or plainly and why (see sandbox.ts). */
  jail?: Jail;
}

/** What a command did. */
export interface Ran {
  /** Its exit code; null when it was ended (timeout, stop) or the code is unknown. */
  exitCode: number | null;
  /** What it wrote (stdout and stderr as the terminal showed them). */
  output: string;
  /** It ran out of time and was ended. */
  timedOut?: boolean;
}

/** How much a problem matters, as the editor ranks it. */
export type Severity = "error" | "warning" | "information" | "hint";

/** One problem (diagnostic) the editor knows of. */
export interface Problem {
  /** The file's absolute path. */
  path: string;
  /** Where it starts (1-based line and column). */
  line: number;
  column: number;
  severity: Severity;
  message: string;
  /** Who reported it ("ts", "eslint") and its code, when known. */
  source?: string;
  code?: string;
}

/** A place in a file (absolute path, 1-based line and column). */
export interface Place {
  path: string;
  line: number;
  column: number;
}

/** A symbol the language features know: its name, kind and where it is declared. */
export interface CodeSymbol extends Place {
  name: string;
  kind: string;
  /** The symbol it is inside (a class for a method), when known. */
  container?: string;
}

/**
 * Which changes a git diff shows: staged, unstaged (the working tree against the index), or the
 * working tree against a ref (already checked not to be an option); of one file (absolute) when `path`.
 */
export type DiffOf = ({ kind: "staged" } | { kind: "unstaged" } | { kind: "ref"; ref: string }) & {
  path?: string;
};

/** The editor the workspace tools act through. */
export interface Editor {
  /** Shows the file at `path` (absolute), its line `line` (1-based) in view when given. */
  open(path: string, line?: number): Promise<void>;
  /** Shows the proposal as a diff and waits for the person; writes the file only if they accept. */
  propose(proposal: Proposal): Promise<EditVerdict>;
  /** Writes a new file (the call was already approved); a verdict says when it is a pending change. */
  create(file: NewFile): Promise<EditVerdict | void>;
  /** Runs a command line in a terminal the person sees and waits for it to end. */
  run(command: Command): Promise<Ran>;
  /** Starts a command line in a terminal the person sees without waiting; `each` hears its output and end. */
  start?(command: Background, each: Listener): Running;
  /** The text of a file as the editor holds it (unsaved changes included), or undefined for the disk's. */
  text?(path: string): Promise<string | undefined>;
  /** The problems of one file (absolute path), or of every file the editor knows of. */
  problems?(path?: string): Promise<Problem[]>;
  /**
   * The problems of a file the editor just wrote, once its language server has had a moment to
   * look (it waits for the file's problems to change, a few seconds at most); undefined when no
   * language server said anything in that time and the file has no problems known.
   */
  problemsAfterWrite?(path: string): Promise<Problem[] | undefined>;
  /** Where the symbol at `at` is defined. */
  definition?(at: Place): Promise<Place[]>;
  /** Where the symbol at `at` is used (its declaration included). */
  references?(at: Place): Promise<Place[]>;
  /** The symbols declared in a file, outline order. */
  fileSymbols?(path: string): Promise<CodeSymbol[]>;
  /** The workspace's symbols whose names match `query`. */
  workspaceSymbols?(query: string): Promise<CodeSymbol[]>;
  /** The files (absolute paths) the agent changed that the person has not reviewed yet: its pending changes. */
  unreviewed?(): Promise<string[]>;
  /** The git diff of the workspace's repository as patch text; throws a clear message without git or a repository. */
  gitDiff?(of: DiffOf, signal: AbortSignal): Promise<string>;
}

/** The place the tools work in. */
export interface Workspace {
  /** The workspace folder (absolute). */
  root: string;
  editor?: Editor;
  /** Told of each file (absolute path) the agent wrote that no person has seen yet. */
  wrote?(path: string): void;
}

/** The text of `path` as the editor holds it, if it holds it. */
export async function editorText(workspace: Workspace, path: string): Promise<string | undefined> {
  return workspace.editor?.text ? workspace.editor.text(path) : undefined;
}
