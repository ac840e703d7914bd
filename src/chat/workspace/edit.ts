/**
 * The tools that change files, through the editor: `propose_edit` and `create_file`. The editor
 * either writes the change at once as a pending change the person reviews after (the default),
 * or shows a diff the person accepts first (`tandem.edits.mode` "ask").
 */

import { readFile, stat } from "node:fs/promises";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import { editorText, type Editor, type Workspace } from "./editor";
import { binary } from "./line-range";
import { inside, shown } from "./paths";
import { problemsAfterEdit } from "./problems";
import { recheckWrite } from "./recheck";
import { count } from "./counts";

const editInput = z.object({
  path: z.string().min(1).describe("The file to change, relative to the workspace root."),
  oldText: z
    .string()
    .optional()
    .describe(
      "The exact text to replace, copied from the file, with enough lines around it to appear only once.",
    ),
  newText: z.string().optional().describe("The text that replaces oldText."),
  content: z.string().optional().describe("The file's whole new content (instead of oldText and newText)."),
});

export type EditInput = z.infer<typeof editInput>;

const createInput = z.object({
  path: z
    .string()
    .min(1)
    .describe("The new file, relative to the workspace root (folders are made as needed)."),
  content: z.string().describe("The file's content."),
  overwrite: z.boolean().default(false).describe("Replace the file if it already exists."),
});

/** What the agent reads after a write that became a pending change. */
const PENDING_NOTE =
  "The change is pending the person's review: they may keep or undo each part of it, and you will be told what they did at your next turn.";

/** Lines of a text as a person counts them (a final newline ends the last line, not a new one). */
export function lineCount(text: string): number {
  if (text === "") return 0;
  return text.split("\n").length - (text.endsWith("\n") ? 1 : 0);
}

/** How many times `part` occurs in `text` (not overlapping). */
function occurrences(text: string, part: string): number {
  let n = 0;
  for (let at = text.indexOf(part); at >= 0; at = text.indexOf(part, at + part.length)) n++;
  return n;
}

/** The text a file would have after the edit, or the reason the edit cannot be made. */
export function edited(before: string, name: string, edit: EditInput): string {
  if (edit.content !== undefined) {
    if (edit.oldText !== undefined || edit.newText !== undefined) {
      throw new Error("Give either content (the whole file) or oldText and newText, not both.");
    }
    return edit.content;
  }
  if (edit.oldText === undefined || edit.newText === undefined) {
    throw new Error(
      "Give oldText and newText (the text to replace and its replacement), or content for the whole file.",
    );
  }
  if (edit.oldText === "") throw new Error("oldText is empty; copy the text to replace from the file.");
  let oldText = edit.oldText;
  let newText = edit.newText;
  // A model writes \n; a file written on Windows has \r\n.
  if (!before.includes(oldText) && before.includes("\r\n") && !oldText.includes("\r\n")) {
    oldText = oldText.replace(/\n/g, "\r\n");
    newText = newText.replace(/\r?\n/g, "\r\n");
  }
  const n = occurrences(before, oldText);
  if (n === 0) {
    throw new Error(
      `oldText was not found in ${name}; read the file again and copy the text exactly, spaces included.`,
    );
  }
  if (n > 1)
    throw new Error(`oldText occurs ${n} times in ${name}; give more lines around it so it occurs once.`);
  const at = before.indexOf(oldText);
  return before.slice(0, at) + newText + before.slice(at + oldText.length);
}

/** Shows the edit of one file to the person as a diff; answers what they did. */
export async function proposeEdit(workspace: Workspace, editor: Editor, edit: EditInput): Promise<string> {
  const path = await inside(workspace.root, edit.path);
  const name = shown(workspace.root, path);
  let before = await editorText(workspace, path);
  if (before === undefined) {
    const s = await stat(path).catch(() => undefined);
    if (!s) throw new Error(`${name} does not exist; make it with create_file.`);
    if (!s.isFile()) throw new Error(`${name} is not a file.`);
    const data = await readFile(path);
    if (binary(data)) throw new Error(`${name} is a binary file; propose_edit changes only text files.`);
    before = data.toString("utf8");
  }
  const after = edited(before, name, edit);
  if (after === before) return `The edit changes nothing in ${name}; it was not proposed.`;
  // Checked now (the approval was earlier) and again by the editor right before it writes.
  const recheck = () => recheckWrite(workspace.root, path, name);
  await recheck();
  const verdict = await editor.propose({ path, shown: name, before, after, recheck });
  const note = verdict.note ? ` ${verdict.note}` : "";
  if (verdict.pending) workspace.wrote?.(path);
  if (verdict.pending)
    return withProblems(`${name} is changed. ${PENDING_NOTE}${note}`, workspace, editor, path);
  if (!verdict.accepted) return `The person rejected the edit; ${name} is unchanged.${note}`;
  return withProblems(`The person accepted the edit; ${name} is changed.${note}`, workspace, editor, path);
}

/** An edit's answer followed by the file's problems now, so the agent sees what its change broke. */
async function withProblems(
  done: string,
  workspace: Workspace,
  editor: Editor,
  path: string,
): Promise<string> {
  const problems = await problemsAfterEdit(workspace, editor, path);
  return problems ? `${done}\n${problems}` : done;
}

/** Creates a file through the editor, refusing to replace one unless `overwrite`. */
export async function createFile(
  workspace: Workspace,
  editor: Editor,
  file: { path: string; content: string; overwrite?: boolean },
): Promise<string> {
  const path = await inside(workspace.root, file.path);
  const name = shown(workspace.root, path);
  const s = await stat(path).catch(() => undefined);
  if (s?.isDirectory()) throw new Error(`${name} is a folder.`);
  const overwrite = file.overwrite ?? false;
  if (s && !overwrite) {
    throw new Error(
      `${name} already exists; change it with propose_edit, or set overwrite to true to replace it.`,
    );
  }
  // Checked now (the approval was earlier) and again by the editor right before it writes.
  const recheck = () => recheckWrite(workspace.root, path, name);
  await recheck();
  const verdict = await editor.create({ path, shown: name, content: file.content, overwrite, recheck });
  // Nobody saw the content: the question named the file, and a pending change is reviewed after.
  workspace.wrote?.(path);
  const pending = verdict?.pending ? ` ${PENDING_NOTE}` : "";
  const done = `${s ? "Replaced" : "Created"} ${name} (${count(lineCount(file.content), "line")}).${pending}`;
  return withProblems(done, workspace, editor, path);
}

/** The `propose_edit` tool: an edit the person reviews as a diff (keeps or undoes its parts). */
export function proposeEditTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "propose_edit",
    "Changes a workspace file: replace oldText (which must occur exactly once) with newText, or give the whole new content. The person reviews the change as a diff and may keep or undo each part of it.",
    editInput,
    (edit) => proposeEdit(workspace, editor, edit),
    // The person may take a while to read the diff.
    { timeoutMs: 30 * 60_000 },
  );
}

/** The `create_file` tool: a new file, written by the editor once the call is approved. */
export function createFileTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "create_file",
    "Creates a file in the workspace with the given content. It refuses to replace an existing file unless overwrite is true; to change a file, use propose_edit.",
    createInput,
    (file) => createFile(workspace, editor, file),
    { timeoutMs: 30_000 },
  );
}
