/**
 * The `problems` tool: the errors and warnings the editor's language features report, for one file
 * or the whole workspace; and the problems of a file the agent just changed, for its edit's answer.
 */

import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Editor, Problem, Severity, Workspace } from "./editor";
import { inside, shown, within } from "./paths";
import { count } from "./counts";

/** Problems listed at most in one answer. */
export const PROBLEMS = 100;
/** Problems listed at most after an edit (the edit's answer stays short). */
export const PROBLEMS_AFTER_EDIT = 20;
/** Characters of one problem's message kept (a compiler can print a page for one type error). */
const MESSAGE_CHARS = 500;

const RANK: Record<Severity, number> = { error: 0, warning: 1, information: 2, hint: 3 };

const input = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe("A file relative to the workspace root; without it, the problems of the whole workspace."),
  all: z
    .boolean()
    .default(false)
    .describe("Include information and hints too (default: only errors and warnings)."),
});

/** One problem as the model reads it: `src/a.ts:3:7 error: message (ts 2322)`. */
export function problemLine(root: string, p: Problem): string {
  const who = [p.source, p.code].filter(Boolean).join(" ");
  let message = p.message.trim().replace(/\r?\n/g, "\n    ");
  if (message.length > MESSAGE_CHARS) message = `${message.slice(0, MESSAGE_CHARS)}…`;
  return `${shown(root, p.path)}:${p.line}:${p.column} ${p.severity}: ${message}${who ? ` (${who})` : ""}`;
}

/** "2 errors, 1 warning" for the problems given. */
function tally(problems: Problem[]): string {
  const parts: string[] = [];
  for (const s of ["error", "warning", "information", "hint"] as const) {
    const n = problems.filter((p) => p.severity === s).length;
    if (n) parts.push(count(n, s, s === "information" ? s : `${s}s`));
  }
  return parts.join(", ");
}

/** The problems inside the workspace that matter (errors and warnings unless `all`), worst and first first. */
export function relevant(root: string, problems: Problem[], all = false): Problem[] {
  return problems
    .filter((p) => within(root, p.path) && (all || RANK[p.severity] <= RANK.warning))
    .sort(
      (a, b) =>
        RANK[a.severity] - RANK[b.severity] ||
        a.path.localeCompare(b.path) ||
        a.line - b.line ||
        a.column - b.column,
    );
}

/** The problems as a list under a head line, at most `max`, with a note of how many more there are. */
export function problemsText(
  root: string,
  problems: Problem[],
  where: string,
  { all = false, max = PROBLEMS } = {},
): string {
  const kept = relevant(root, problems, all);
  const kinds = all ? "problems" : "errors or warnings";
  if (!kept.length) return `No ${kinds} in ${where}.`;
  return [`${tally(kept)} in ${where}:`, ...listed(root, kept, max)].join("\n");
}

/** The first `max` problems, one a line, and a note of how many more there are. */
function listed(root: string, problems: Problem[], max: number): string[] {
  const lines = problems.slice(0, max).map((p) => problemLine(root, p));
  const rest = problems.length - lines.length;
  if (rest > 0) lines.push(`[${count(rest, "more problem")} not shown; ask the problems tool for one file.]`);
  return lines;
}

/** The problems of one file or of the workspace, as the `problems` tool answers them. */
export async function problemsOf(
  workspace: Workspace,
  editor: Editor,
  path: string | undefined,
  all = false,
): Promise<string> {
  if (!editor.problems) throw new Error("This editor does not report problems.");
  if (path === undefined)
    return problemsText(workspace.root, await editor.problems(), "the workspace", { all });
  const absolute = await inside(workspace.root, path);
  return problemsText(workspace.root, await editor.problems(absolute), shown(workspace.root, absolute), {
    all,
  });
}

/**
 * What the agent reads of a file after its own edit: "Problems in src/a.ts now: …", or that there are
 * none; empty when the editor cannot tell (no language server answered in time). It never throws:
 * the edit itself is done.
 */
export async function problemsAfterEdit(workspace: Workspace, editor: Editor, path: string): Promise<string> {
  if (!editor.problemsAfterWrite) return "";
  try {
    const found = await editor.problemsAfterWrite(path);
    // Nobody looked at the file in time: "no problems" would be a guess.
    if (!found) return "";
    const name = shown(workspace.root, path);
    const kept = relevant(workspace.root, found).filter((p) => p.path === path);
    if (!kept.length) return `No errors or warnings in ${name} now.`;
    const head = `Problems in ${name} now (${tally(kept)}):`;
    return [head, ...listed(workspace.root, kept, PROBLEMS_AFTER_EDIT)].join("\n");
  } catch {
    return "";
  }
}

/** The `problems` tool of `workspace`. */
export function problemsTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "problems",
    `Lists the errors and warnings the editor's language features report (compiler, linters) for one file or for the whole workspace, with file, line, column and message; at most ${PROBLEMS}. It changes nothing.`,
    input,
    ({ path, all }) => problemsOf(workspace, editor, path, all),
    { readOnly: true, timeoutMs: 20_000 },
  );
}

/** A problem the person asks Tandem to fix, with the lines around it. */
export interface ToFix {
  /** The file as the person reads it (workspace-relative). */
  shown: string;
  line: number;
  column: number;
  severity: Severity;
  message: string;
  source?: string;
  code?: string;
  /** The editor's language id, for the code fence. */
  language: string;
  /** The lines around the problem, the first being line `first`. */
  lines: string[];
  first: number;
}

/** The message "Fix with Tandem" sends: the problem, where it is, and the numbered lines around it. */
export function fixPrompt(p: ToFix): string {
  const who = [p.source, p.code].filter(Boolean).join(" ");
  const last = p.first + p.lines.length - 1;
  const width = String(last).length;
  const numbered = p.lines.map((text, i) => `${String(p.first + i).padStart(width)} | ${text}`);
  const fence = numbered.some((l) => l.includes("```")) ? "````" : "```";
  // The message is the linter's (its words may come from the repository): quoted, so an address
  // in it is not taken for one the person named.
  const said = `${who ? `${who}: ` : ""}${p.message.trim()}`;
  return [
    `Fix this ${p.severity} in ${p.shown}:${p.line}:${p.column}:`,
    ...said.split(/\r?\n/).map((line) => `> ${line}`),
    "",
    `Lines ${p.first}–${last} of ${p.shown}:`,
    `${fence}${p.language}`,
    ...numbered,
    fence,
  ].join("\n");
}
