/** The workspace tools Tandem offers its agent, chosen by what the workspace allows. */

import type { Tool } from "../../agent/types";
import type { Lookup } from "../address";
import { createFileTool, proposeEditTool } from "./edit";
import type { Editor } from "./editor";
import { Jobs } from "./background";
import { openFileTool, readOutputTool, runCommandTool, stopCommandTool } from "./command";
import type { Exclude } from "./ignore";
import { listFilesTool } from "./list";
import { fetchPageTool } from "./page";
import { gitDiffTool } from "./git";
import { problemsTool } from "./problems";
import { definitionTool, referencesTool, symbolsTool } from "./symbols";
import { readFileTool } from "./read";
import { searchTextTool } from "./search";

/** Tools that are asked about on every call: no prefix rule or "always allow" lets them by. */
export const ALWAYS_ASK = new Set(["run_command"]);

/** What the workspace tools are made from. */
export interface WorkspaceOptions {
  /** The workspace folder (absolute). */
  root: string;
  /** The editor that opens, proposes, creates and runs; without one those tools are not offered. */
  editor?: Editor;
  /** The person trusts the workspace: only then are tools that write or run offered. */
  trusted: boolean;
  /** The editor's `files.exclude`. */
  exclude?: Exclude;
  /** fetch_page may reach private addresses (this computer, the local network). */
  allowPrivate?: boolean;
  /** Resolves host names for fetch_page (tests give their own). */
  lookup?: Lookup;
  /** The setting named when a private address is refused. */
  setting?: string;
}

/**
 * The tools of a workspace: read_file, list_files, search_text and fetch_page always; open_file
 * with an editor, and problems, definition, references and symbols where it offers them; git_diff, propose_edit,
 * create_file and run_command only in a trusted workspace, with read_output and stop_command where
 * the editor starts background commands.
 */
export function workspaceTools(options: WorkspaceOptions): Tool[] {
  const workspace = { root: options.root, editor: options.editor };
  const exclude = options.exclude ?? {};
  const tools = [
    readFileTool(workspace),
    listFilesTool(workspace, exclude),
    searchTextTool(workspace, exclude),
    fetchPageTool({ allowPrivate: options.allowPrivate, lookup: options.lookup, setting: options.setting }),
  ];
  const editor = options.editor;
  if (!editor) return tools;
  tools.push(openFileTool(workspace, editor));
  // What the editor knows (problems, language features, git), offered where the editor can tell it.
  if (editor.problems) tools.push(problemsTool(workspace, editor));
  if (editor.definition) tools.push(definitionTool(workspace, editor));
  if (editor.references) tools.push(referencesTool(workspace, editor));
  if (editor.fileSymbols || editor.workspaceSymbols) tools.push(symbolsTool(workspace, editor));
  // Git obeys the repository's own configuration (external diff programs): only where the person trusts it.
  if (editor.gitDiff && options.trusted) tools.push(gitDiffTool(workspace, editor));
  if (options.trusted) {
    // Background commands belong to this set of tools, made for one run: they end with it.
    const start = editor.start?.bind(editor);
    const jobs = start ? new Jobs(start) : undefined;
    tools.push(
      proposeEditTool(workspace, editor),
      createFileTool(workspace, editor),
      runCommandTool(workspace, editor, jobs),
    );
    if (jobs) tools.push(readOutputTool(jobs), stopCommandTool(jobs));
  }
  return tools;
}
