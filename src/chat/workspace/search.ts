/** The `search_text` tool: lines of the workspace's text files that hold a literal or a pattern. */

import { readFile } from "node:fs/promises";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import type { Exclude } from "./ignore";
import { binary } from "./lines";
import { count, size } from "./words";
import { scope, walk } from "./walk";

/** Matches one call returns at most. */
export const MAX_MATCHES = 100;
/** Files larger than this are not searched. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Characters of a matching line shown. */
const LINE_CHARS = 240;
/** How long one search may look before it answers with what it found. */
const SEARCH_MS = 10_000;

const input = z.object({
  query: z
    .string()
    .min(1)
    .describe("The text to find (or a JavaScript regular expression when regex is true)."),
  regex: z.boolean().default(false).describe("Read the query as a regular expression."),
  glob: z
    .string()
    .default("**/*")
    .describe("Which files to search: a glob such as src/**/*.ts or *.md, or a folder (default: all)."),
  caseSensitive: z.boolean().default(false).describe("Match upper and lower case exactly."),
  maxResults: z
    .number()
    .int()
    .min(1)
    .max(500)
    .default(MAX_MATCHES)
    .describe("The most matching lines to return."),
});

export type SearchInput = z.input<typeof input>;

/** A nested repetition such as `(a+)+` or `(\w*)*` can take exponential time on a near match. */
const NESTED = /\((?:[^()\\]|\\.)*[+*}](?:[^()\\]|\\.)*\)(?:[+*]|\{\d*,)/;

/** The expression a query stands for, or an error the model can act on. */
export function pattern(query: string, regex: boolean, caseSensitive: boolean): RegExp {
  const flags = caseSensitive ? "" : "i";
  if (!regex) return new RegExp(query.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&"), flags);
  if (NESTED.test(query)) {
    throw new Error(
      `The regular expression ${query} repeats a repetition (like (a+)+), which can take forever; write it without the nested repetition.`,
    );
  }
  try {
    return new RegExp(query, flags);
  } catch (error) {
    throw new Error(
      `The query is not a valid regular expression (${(error as Error).message}); fix it, or set regex to false to search for the text as it is.`,
    );
  }
}

/** A matching line clipped around its match. */
function clipLine(line: string, at: number): string {
  const text = line.replace(/\t/g, " ");
  if (text.length <= LINE_CHARS) return text.trimEnd();
  const from = Math.max(0, Math.min(at - 40, text.length - LINE_CHARS));
  return `${from > 0 ? "…" : ""}${text.slice(from, from + LINE_CHARS)}…`;
}

/** The lines matching the query in the workspace's text files, as `path:line: text`, capped. */
export async function searchText(
  workspace: Workspace,
  exclude: Exclude,
  options: SearchInput,
  signal?: AbortSignal,
): Promise<string> {
  const { query, regex = false, caseSensitive = false, maxResults = MAX_MATCHES } = options;
  const expression = pattern(query, regex, caseSensitive);
  const glob = await scope(workspace.root, options.glob ?? "**/*");
  const test = globTest(glob);
  const found: string[] = [];
  const files = new Set<string>();
  let large = 0;
  let capped = false;
  let late = false;
  const started = Date.now();
  const walked = await walk(workspace.root, { base: baseOf(glob), exclude, signal }, async (file) => {
    if (!test(file.path)) return true;
    if (Date.now() - started > SEARCH_MS) {
      late = true;
      return false;
    }
    if (file.size > MAX_FILE_BYTES) {
      large++;
      return true;
    }
    const data = await readFile(file.absolute).catch(() => undefined);
    if (!data || binary(data)) return true;
    const lines = data.toString("utf8").split("\n");
    for (let i = 0; i < lines.length; i++) {
      // Very long lines (minified code) are searched in their first part only.
      const line = lines[i].length > 10_000 ? lines[i].slice(0, 10_000) : lines[i];
      const match = expression.exec(line);
      if (!match) continue;
      if (found.length === maxResults) {
        capped = true;
        return false;
      }
      found.push(`${file.path}:${i + 1}: ${clipLine(line.replace(/\r$/, ""), match.index)}`);
      files.add(file.path);
    }
    return true;
  });
  const notes: string[] = [];
  if (capped) notes.push(`[Stopped at ${maxResults} matches; narrow the query or the glob to see others.]`);
  if (late) notes.push(`[The search took more than ${SEARCH_MS / 1000} s and stopped; narrow the glob.]`);
  if (walked.stopped) notes.push("[The workspace is large: the search stopped early; narrow the glob.]");
  if (large) {
    const were = large === 1 ? "was" : "were";
    notes.push(`[${count(large, "file")} larger than ${size(MAX_FILE_BYTES)} ${were} not searched.]`);
  }
  const what = regex ? `/${query}/` : JSON.stringify(query);
  if (found.length === 0) return [`No match for ${what} in ${glob}.`, ...notes].join("\n");
  const head = `${count(found.length, "match", "matches")} for ${what} in ${count(files.size, "file")}:`;
  return [head, ...found, ...notes].join("\n");
}

/** The `search_text` tool of `workspace`, searching what list_files would list. */
export function searchTextTool(workspace: Workspace, exclude: Exclude): Tool {
  return tool(
    "search_text",
    "Searches the workspace's text files for a text or a regular expression and answers matching lines as path:line: text. Binary files, files over 1 MB and ignored files are skipped.",
    input,
    (options, signal) => searchText(workspace, exclude, options, signal),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
