/**
 * The tools that ask the editor's language features about code: `definition` and `references` of
 * the symbol at a place (or named on a line), and `symbols` of a file or of the workspace. Answers
 * name workspace files relative to the root, with line numbers and the line's text.
 */

import { readFile, stat } from "node:fs/promises";
import { basename } from "node:path";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import { editorText, type CodeSymbol, type Editor, type Place, type Workspace } from "./editor";
import { inside, shown, within } from "./paths";
import { count } from "./counts";

/** Places listed at most in one answer. */
export const PLACES = 100;
/** Symbols listed at most in one answer. */
export const SYMBOLS = 200;
/** Characters of a line's text shown beside its place. */
const LINE_CHARS = 200;
/** Files larger than this are not read for a line's text (the place is still given). */
const READ_BYTES = 4 * 1024 * 1024;

const placeInput = z.object({
  path: z.string().min(1).describe("The file, relative to the workspace root."),
  symbol: z
    .string()
    .min(1)
    .optional()
    .describe("The symbol's name; found on `line` when given, else its first occurrence in the file."),
  line: z.number().int().min(1).optional().describe("The line (1-based)."),
  column: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("The column (1-based) of a character of the symbol, when no symbol name is given."),
});

export type PlaceInput = z.infer<typeof placeInput>;

const symbolsInput = z.object({
  path: z
    .string()
    .min(1)
    .optional()
    .describe(
      "A file relative to the workspace root: its outline. Without it, `query` searches the workspace.",
    ),
  query: z.string().optional().describe("Part of a symbol's name to search the whole workspace for."),
});

/** The text of a workspace file as the editor holds it, or from disk; undefined when it is not a readable text file. */
async function textOf(workspace: Workspace, path: string): Promise<string | undefined> {
  const held = await editorText(workspace, path);
  if (held !== undefined) return held;
  const s = await stat(path).catch(() => undefined);
  // Only regular files are read: a named pipe would never end.
  if (!s?.isFile() || s.size > READ_BYTES) return undefined;
  return readFile(path, "utf8").catch(() => undefined);
}

/** True for a character that may be part of an identifier. */
const WORD = /[\p{L}\p{N}_$]/u;

/** The 1-based column of `symbol` on `text` as a whole word, or undefined. */
function columnOf(text: string, symbol: string): number | undefined {
  for (let at = text.indexOf(symbol); at >= 0; at = text.indexOf(symbol, at + 1)) {
    const before = at > 0 ? text[at - 1] : "";
    const after = text[at + symbol.length] ?? "";
    if (!WORD.test(before) && !WORD.test(after)) return at + 1;
  }
  return undefined;
}

/** The place the call names: its line and column, or where `symbol` is on its line or first in the file. */
export function placeIn(text: string, name: string, at: PlaceInput): { line: number; column: number } {
  const lines = text.split(/\r?\n/);
  // A final newline ends the last line; it does not start another.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  if (at.line !== undefined && at.line > lines.length) {
    throw new Error(`${name} has ${count(lines.length, "line")}; line ${at.line} is past its end.`);
  }
  if (at.symbol !== undefined) {
    const symbol = at.symbol.trim();
    const range = at.line !== undefined ? [at.line] : lines.map((_, i) => i + 1);
    for (const line of range) {
      const column = columnOf(lines[line - 1], symbol);
      if (column !== undefined) return { line, column };
    }
    const where = at.line !== undefined ? `on line ${at.line} of ${name}` : `in ${name}`;
    throw new Error(`"${symbol}" does not occur as a whole word ${where}.`);
  }
  if (at.line === undefined || at.column === undefined) {
    throw new Error("Give the symbol's name (symbol), or its line and column.");
  }
  return { line: at.line, column: at.column };
}

/** Places as the model reads them: `src/a.ts:12: the line's text`; places outside the workspace by file name only. */
export async function placesText(workspace: Workspace, places: Place[], max = PLACES): Promise<string[]> {
  const texts = new Map<string, Promise<string[] | undefined>>();
  const lineOf = async (p: Place) => {
    let lines = texts.get(p.path);
    if (!lines) texts.set(p.path, (lines = textOf(workspace, p.path).then((t) => t?.split(/\r?\n/))));
    const text = (await lines)?.[p.line - 1]?.trim();
    return text === undefined ? "" : text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS)}…` : text;
  };
  const unique = [...new Map(places.map((p) => [`${p.path}:${p.line}:${p.column}`, p])).values()];
  const out = await Promise.all(
    unique.slice(0, max).map(async (p) => {
      // Text outside the workspace (a library's declarations, or a file a link leads out to) is not
      // read out to the model: the real path counts, as for read_file.
      const real =
        within(workspace.root, p.path) && (await inside(workspace.root, p.path).catch(() => undefined));
      if (!real) return `(outside the workspace) ${basename(p.path)}:${p.line}`;
      const text = await lineOf(p);
      return `${shown(workspace.root, p.path)}:${p.line}:${text ? ` ${text}` : ""}`;
    }),
  );
  if (unique.length > max) out.push(`[${count(unique.length - max, "more place")} not shown.]`);
  return out;
}

/** Answers `definition` or `references` for the place a call names. */
export async function lookUp(
  workspace: Workspace,
  editor: Editor,
  what: "definition" | "references",
  at: PlaceInput,
): Promise<string> {
  const ask = what === "definition" ? editor.definition : editor.references;
  if (!ask)
    throw new Error(`This editor cannot find ${what === "definition" ? "definitions" : "references"}.`);
  const path = await inside(workspace.root, at.path);
  const name = shown(workspace.root, path);
  const text = await textOf(workspace, path);
  if (text === undefined) throw new Error(`${name} does not exist or is not a text file.`);
  const { line, column } = placeIn(text, name, at);
  const found = await ask.call(editor, { path, line, column });
  const subject = at.symbol
    ? `"${at.symbol.trim()}" at ${name}:${line}:${column}`
    : `${name}:${line}:${column}`;
  if (!found.length) {
    return what === "definition"
      ? `No definition found for ${subject} (the language features know of none there).`
      : `No references found for ${subject}.`;
  }
  const head =
    what === "definition"
      ? `Definition of ${subject}:`
      : `${count(found.length, "reference")} to ${subject}:`;
  return [head, ...(await placesText(workspace, found))].join("\n");
}

/** A symbol as the model reads it: `function add — src/math.ts:1`. */
function symbolLine(workspace: Workspace, s: CodeSymbol): string {
  const name = s.container ? `${s.container}.${s.name}` : s.name;
  const where = within(workspace.root, s.path)
    ? `${shown(workspace.root, s.path)}:${s.line}`
    : `(outside the workspace) ${basename(s.path)}:${s.line}`;
  return `${s.kind} ${name} — ${where}`;
}

/** The outline of a file, or the workspace's symbols matching `query`. */
export async function symbolsOf(
  workspace: Workspace,
  editor: Editor,
  { path, query }: { path?: string; query?: string },
): Promise<string> {
  let found: CodeSymbol[];
  let where: string;
  if (path !== undefined) {
    if (!editor.fileSymbols) throw new Error("This editor cannot list a file's symbols.");
    const absolute = await inside(workspace.root, path);
    where = shown(workspace.root, absolute);
    found = await editor.fileSymbols(absolute);
    if (query) found = found.filter((s) => s.name.toLowerCase().includes(query.toLowerCase()));
  } else {
    if (!query?.trim())
      throw new Error("Give a file (path) for its outline, or a query to search the workspace.");
    if (!editor.workspaceSymbols) throw new Error("This editor cannot search the workspace's symbols.");
    where = `the workspace matching "${query.trim()}"`;
    found = (await editor.workspaceSymbols(query.trim())).filter((s) => within(workspace.root, s.path));
  }
  if (!found.length) return `No symbols in ${where}.`;
  const lines = found.slice(0, SYMBOLS).map((s) => symbolLine(workspace, s));
  if (found.length > SYMBOLS) lines.push(`[${count(found.length - SYMBOLS, "more symbol")} not shown.]`);
  return [`${count(found.length, "symbol")} in ${where}:`, ...lines].join("\n");
}

/** The `definition` tool. */
export function definitionTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "definition",
    "Finds where a symbol is defined, through the editor's language features: give the file and the symbol's name (and its line, if it occurs more than once), or a line and column. It changes nothing.",
    placeInput,
    (at) => lookUp(workspace, editor, "definition", at),
    { readOnly: true, timeoutMs: 30_000 },
  );
}

/** The `references` tool. */
export function referencesTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "references",
    `Finds where a symbol is used across the workspace, through the editor's language features (at most ${PLACES} places, with each line's text): give the file and the symbol's name (and its line), or a line and column. It changes nothing.`,
    placeInput,
    (at) => lookUp(workspace, editor, "references", at),
    { readOnly: true, timeoutMs: 30_000 },
  );
}

/** The `symbols` tool. */
export function symbolsTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "symbols",
    "Lists the symbols (functions, classes, methods, variables…) declared in a file, or searches the workspace's symbols by name with query, through the editor's language features. It changes nothing.",
    symbolsInput,
    (input) => symbolsOf(workspace, editor, input),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
