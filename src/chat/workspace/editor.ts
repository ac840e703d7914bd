/**
 * What the workspace tools need from the editor. The editor implements it (in VS Code: reveal a
 * document, a diff the person accepts, a terminal the person sees); tests give a fake.
 */

import type { Background, Listener, Running } from "./background";

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
}

/** What the person did with a proposal. */
export interface Verdict {
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

/** The editor the workspace tools act through. */
export interface Editor {
  /** Shows the file at `path` (absolute), its line `line` (1-based) in view when given. */
  open(path: string, line?: number): Promise<void>;
  /** Shows the proposal as a diff and waits for the person; writes the file only if they accept. */
  propose(proposal: Proposal): Promise<Verdict>;
  /** Writes a new file (the call was already approved); a verdict says when it is a pending change. */
  create(file: NewFile): Promise<Verdict | void>;
  /** Runs a command line in a terminal the person sees and waits for it to end. */
  run(command: Command): Promise<Ran>;
  /** Starts a command line in a terminal the person sees without waiting; `each` hears its output and end. */
  start?(command: Background, each: Listener): Running;
  /** The text of a file as the editor holds it (unsaved changes included), or undefined for the disk's. */
  text?(path: string): Promise<string | undefined>;
}

/** The place the tools work in. */
export interface Workspace {
  /** The workspace folder (absolute). */
  root: string;
  editor?: Editor;
}

/** The text of `path` as the editor holds it, if it holds it. */
export async function editorText(workspace: Workspace, path: string): Promise<string | undefined> {
  return workspace.editor?.text ? workspace.editor.text(path) : undefined;
}
