/**
 * The `git_diff` tool: the workspace repository's changes (staged, unstaged, or against a ref)
 * through the editor's git, capped. A ref is checked to be a ref: git reads an argument that starts
 * with `-` as an option, and `--output=FILE` would make a "read" write a file.
 */

import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { DiffOf, Editor, Workspace } from "./editor";
import { inside, shown } from "./paths";
import { size } from "./counts";

/** Characters of a diff given back at most. */
export const DIFF_CHARS = 40 * 1024;
/** The longest ref accepted. */
const REF_CHARS = 200;

const input = z.object({
  changes: z
    .enum(["unstaged", "staged", "ref"])
    .default("unstaged")
    .describe(
      "unstaged: the working tree against the index; staged: what the next commit holds; ref: the working tree against `ref`.",
    ),
  ref: z
    .string()
    .optional()
    .describe("With changes=ref: a branch, tag or commit (such as main, HEAD~3, v1.2.0, a1b2c3d)."),
  path: z.string().min(1).optional().describe("Only this file's changes (relative to the workspace root)."),
});

/**
 * `ref` if it can only be read as a revision, else the reason it is refused: no leading `-` (an
 * option), no spaces, `=` or control characters: only the characters branch names, tags, hashes,
 * `~ ^ @{}` suffixes and `a..b` ranges use.
 */
export function checkedRef(ref: string): string {
  const r = ref.trim();
  if (r === "") throw new Error("The ref is empty; give a branch, tag or commit.");
  if (r.startsWith("-")) throw new Error(`"${r}" is not a ref: a ref cannot start with "-".`);
  if (r.length > REF_CHARS) throw new Error(`The ref is longer than ${REF_CHARS} characters.`);
  if (!/^[A-Za-z0-9._/@{}~^+-]+$/.test(r)) {
    throw new Error(
      `"${r}" is not a ref: use a branch, tag or commit name (letters, digits and . _ / - + @ { } ~ ^).`,
    );
  }
  return r;
}

/** The diff, at most `max` characters (cut at a line), with a note of how much was left out. */
export function cappedDiff(diff: string, max = DIFF_CHARS): string {
  if (diff.length <= max) return diff;
  const cut = diff.lastIndexOf("\n", max);
  const kept = diff.slice(0, cut > 0 ? cut : max);
  return `${kept}\n[… ${size(diff.length - kept.length)} more of the diff not shown: ask for one file with path.]`;
}

/** What the diff is of, in words. */
function describe(of: DiffOf, name?: string): string {
  const what =
    of.kind === "staged"
      ? "staged changes"
      : of.kind === "unstaged"
        ? "unstaged changes"
        : `changes against ${of.ref}`;
  return name ? `${what} of ${name}` : what;
}

/** The git diff a `git_diff` call asks for, as the model reads it. */
export async function gitDiff(
  workspace: Workspace,
  editor: Editor,
  call: { changes: "unstaged" | "staged" | "ref"; ref?: string; path?: string },
  signal: AbortSignal,
): Promise<string> {
  if (!editor.gitDiff) throw new Error("This editor gives no access to git.");
  if (call.changes !== "ref" && call.ref !== undefined) {
    throw new Error(`A ref is only used with changes "ref" (it was "${call.changes}").`);
  }
  const path = call.path === undefined ? undefined : await inside(workspace.root, call.path);
  const name = path === undefined ? undefined : shown(workspace.root, path);
  let of: DiffOf;
  if (call.changes === "ref") {
    if (call.ref === undefined) throw new Error('Give the ref to compare with (changes "ref" needs ref).');
    of = { kind: "ref", ref: checkedRef(call.ref), path };
  } else of = { kind: call.changes, path };
  const diff = await editor.gitDiff(of, signal);
  if (!diff.trim()) return `No ${describe(of, name)}.`;
  return `The ${describe(of, name)}:\n${cappedDiff(diff)}`;
}

/** The `git_diff` tool of `workspace`. */
export function gitDiffTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "git_diff",
    `Shows the git diff of the workspace's repository: unstaged changes, staged changes, or the working tree against a ref; of one file with path. At most ${size(DIFF_CHARS)}. It changes nothing.`,
    input,
    (call, signal) => gitDiff(workspace, editor, call, signal),
    { readOnly: true, timeoutMs: 30_000 },
  );
}

/** What the model is asked for a commit message of `diff` (capped; `staged` says which changes). */
export function commitPrompt(diff: string, staged: boolean): string {
  return [
    `Write a git commit message for these ${staged ? "staged" : "unstaged"} changes.`,
    "The first line says what changed, in the imperative, in at most 72 characters; then, if the change needs it, a blank line and a short body saying why.",
    "Answer with the message only: no quotes, no code fence, no preamble.",
    "",
    cappedDiff(diff),
  ].join("\n");
}

/** The commit message in a model's answer: reasoning, fences, quotes and a "Commit message:" lead-in taken off. */
export function commitMessageOf(answer: string): string {
  let text = answer.replace(/<think>[\s\S]*?<\/think>/g, "").trim();
  const fenced = /^```[\w-]*\n([\s\S]*?)\n```$/.exec(text);
  if (fenced) text = fenced[1].trim();
  text = text.replace(/^(?:commit message|message)\s*:\s*/i, "").trim();
  if (/^(["'`]).*\1$/s.test(text)) text = text.slice(1, -1).trim();
  return text;
}
