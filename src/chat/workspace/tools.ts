/** The workspace tools Tandem offers its agent, chosen by what the workspace allows. */

import type { Tool } from "../../agent/types";
import type { Lookup } from "../net";
import { createFileTool, proposeEditTool } from "./edit";
import type { Editor, Workspace } from "./editor";
import { nameFolders, routed, type Folder } from "./folders";
import { Jobs } from "./background";
import { openFileTool, readOutputTool, runCommandTool, stopCommandTool } from "./command";
import type { Exclude } from "./ignore";
import { listFilesTool } from "./list-files";
import { fetchPageTool } from "./page";
import { gitDiffTool } from "./git-diff";
import { problemsTool } from "./problems";
import { definitionTool, referencesTool, symbolsTool } from "./symbols";
import { readFileTool } from "./read";
import { searchTextTool } from "./search";
import { Unreviewed, type Reviewing } from "./unreviewed";

/** Tools that are asked about on every call: no prefix rule or "always allow" lets them by. */
export const ALWAYS_ASK = new Set(["run_command"]);

/** What the workspace tools are made from. */
export interface WorkspaceOptions {
  /** The workspace folder (absolute): the first one when `folders` names several. */
  root: string;
  /** Every folder of a multi-root workspace, with the names paths start with (default: `root` alone). */
  folders?: { root: string; name?: string }[];
  /** The editor that opens, proposes, creates and runs; without one those tools are not offered. */
  editor?: Editor;
  /** The person trusts the workspace: only then are tools that write or run offered. */
  trusted: boolean;
  /** The editor's `files.exclude`. */
  exclude?: Exclude;
  /** The ripgrep binary list_files and search_text run (VS Code's); without it they walk in Node. */
  ripgrep?: string;
  /** fetch_page may reach private addresses (this computer, the local network). */
  allowPrivate?: boolean;
  /** Resolves host names for fetch_page (tests give their own). */
  lookup?: Lookup;
  /** The setting named when a private address is refused. */
  setting?: string;
  /** The person set Tandem to work locally only (`tandem.localOnly`): fetch_page is not offered. */
  localOnly?: boolean;
}

/**
 * The tools of a workspace: read_file, list_files, search_text, and fetch_page unless Tandem works
 * locally only; open_file
 * with an editor, and problems, definition, references and symbols where it offers them; git_diff, propose_edit,
 * create_file and run_command only in a trusted workspace, with read_output and stop_command where
 * the editor starts background commands.
 */
export function workspaceTools(options: WorkspaceOptions): Tool[] {
  const folders = nameFolders(options.folders?.length ? options.folders : [{ root: options.root }]);
  const exclude = options.exclude ?? {};
  /** A tool made once per folder, each guarded inside its own folder, routed by its `key` argument. */
  // The files this run's tools wrote that nobody has seen: a command that runs them is asked again.
  const unreviewed = new Unreviewed(options.editor);
  const wrote = (path: string) => unreviewed.wrote(path);
  const each = (key: string, make: (workspace: Workspace) => Tool, fallback?: Folder): Tool => {
    const tools = new Map(folders.map((f) => [f, make({ root: f.root, editor: options.editor, wrote })]));
    return folders.length === 1 ? (tools.get(folders[0]) as Tool) : routed(folders, tools, key, fallback);
  };
  const tools = [
    each("path", readFileTool),
    listFilesTool(folders, exclude, options.ripgrep),
    searchTextTool(folders, exclude, options.ripgrep),
  ];
  if (!options.localOnly)
    tools.push(
      fetchPageTool({ allowPrivate: options.allowPrivate, lookup: options.lookup, setting: options.setting }),
    );
  const editor = options.editor;
  if (!editor) return tools;
  tools.push(each("path", (w) => openFileTool(w, editor)));
  // What the editor knows (problems, language features, git), offered where the editor can tell it;
  // a call that names no file is answered for the first folder.
  if (editor.problems) tools.push(each("path", (w) => problemsTool(w, editor), folders[0]));
  if (editor.definition) tools.push(each("path", (w) => definitionTool(w, editor)));
  if (editor.references) tools.push(each("path", (w) => referencesTool(w, editor)));
  if (editor.fileSymbols || editor.workspaceSymbols)
    tools.push(each("path", (w) => symbolsTool(w, editor), folders[0]));
  // Git obeys the repository's own configuration (external diff programs): only where the person trusts it.
  if (editor.gitDiff && options.trusted) tools.push(each("path", (w) => gitDiffTool(w, editor), folders[0]));
  if (options.trusted) {
    // Background commands belong to this set of tools, made for one run: they end with it.
    const start = editor.start?.bind(editor);
    const jobs = start ? new Jobs(start) : undefined;
    tools.push(
      each("path", (w) => proposeEditTool(w, editor)),
      each("path", (w) => createFileTool(w, editor)),
      // A command without a folder runs in the first one; its approval reads what is unreviewed.
      reviewing(
        each("cwd", (w) => runCommandTool(w, editor, jobs, undefined, options.localOnly), folders[0]),
        unreviewed,
        options.localOnly,
      ),
    );
    if (jobs) tools.push(readOutputTool(jobs), stopCommandTool(jobs));
  }
  return tools;
}

/** `tool` telling its approval the files `unreviewed` lists (see unreviewed.ts), and whether it stays offline. */
function reviewing(tool: Tool, unreviewed: Unreviewed, offline = false): Tool & Reviewing {
  return { ...tool, unreviewed: () => unreviewed.list(), ...(offline ? { noNetwork: true } : {}) };
}
