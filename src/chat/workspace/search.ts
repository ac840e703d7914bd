/** The `search_text` tool: lines of the workspace's text files that hold a literal or a pattern. */

import { z } from "zod";
import { readRegular } from "../../agent/regular";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import { folderOf, named, type Folder } from "./folders";
import type { Exclude } from "./ignore";
import { Matcher, StoppedError } from "./matcher";
import { RipgrepError } from "./ripgrep";
import { count } from "./counts";
import { scope, walk, type Walked } from "./walk";
import { findWithRipgrep } from "./search-ripgrep";
import {
  clipLine,
  MAX_FILE_BYTES,
  notesOf,
  SEARCH_MS,
  type Match,
  type SearchLimits,
  type SearchQuery,
  type Searched,
} from "./search-results";
import { reason } from "../../agent/perform";

export { MAX_FILE_BYTES, SEARCH_MS, type Match, type SearchLimits, type SearchQuery, type Searched };

/** Matches one call returns at most. */
export const MAX_MATCHES = 100;
/** Files, and characters, sent to the matcher at once. */
const BATCH_FILES = 64;
const BATCH_CHARS = 512 * 1024;
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
      `The query is not a valid regular expression (${reason(error)}); fix it, or set regex to false to search for the text as it is.`,
    );
  }
}

/**
 * The lines matching `query` in the workspace's text files (what list_files would list; binary
 * files and files over MAX_FILE_BYTES are skipped), capped at `maxResults`. The expression runs in
 * a worker that is stopped at the deadline, so no pattern can hold the caller's thread.
 */
export async function findMatches(
  workspace: Workspace,
  exclude: Exclude,
  query: SearchQuery,
  limits: SearchLimits = {},
): Promise<Searched> {
  const { maxResults, signal } = { ...query, ...limits };
  const expression = pattern(query.query, query.regex, query.caseSensitive);
  const glob = await scope(workspace.root, query.glob);
  if (limits.ripgrep) {
    try {
      return await findWithRipgrep(limits.ripgrep, workspace, exclude, query, expression, glob, limits);
    } catch (error) {
      // A pattern ripgrep cannot read (or a binary that does not run) is searched here instead.
      if (!(error instanceof RipgrepError) && (error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
    }
  }
  const test = globTest(glob);
  const deadlineMs = limits.deadlineMs ?? SEARCH_MS;
  const matches: Match[] = [];
  let matcher: Matcher | undefined;
  let large = 0;
  let searched = 0;
  let capped = false;
  let late = false;
  const clock = setTimeout(() => {
    late = true;
    void matcher?.stop();
  }, deadlineMs);
  const stop = () => void matcher?.stop();
  signal?.addEventListener("abort", stop, { once: true });
  // Files are matched in batches: one message to the worker per file would cost more than the matching.
  let batch: { paths: string[]; texts: string[]; chars: number } = { paths: [], texts: [], chars: 0 };
  /** Matches the batch; false when the search should end (capped, or the matcher was stopped). */
  const flush = async (): Promise<boolean> => {
    const { paths, texts } = batch;
    batch = { paths: [], texts: [], chars: 0 };
    if (texts.length === 0) return true;
    // A deadline (or stop) that came while files were read has no matcher to end: none is started.
    if (late || signal?.aborted) return false;
    const room = maxResults - matches.length;
    matcher ??= new Matcher(expression);
    try {
      // One more than there is room for: a match past the cap is what says the answer was capped.
      await matcher.match(texts, room + 1, (hits, file) => {
        searched++;
        for (const hit of hits) {
          if (matches.length === maxResults) {
            capped = true;
            break;
          }
          matches.push({
            path: paths[file],
            line: hit.line,
            text: clipLine(hit.text.replace(/\r$/, ""), hit.at),
          });
        }
      });
    } catch (error) {
      if (error instanceof StoppedError) return false;
      throw error;
    }
    return !capped;
  };
  let walked: Walked;
  let going = true;
  try {
    walked = await walk(workspace.root, { base: baseOf(glob), exclude, signal }, async (file) => {
      if (late) return (going = false);
      if (!test(file.path)) return true;
      if (file.size > MAX_FILE_BYTES) {
        large++;
        return true;
      }
      // Only a regular file is opened (a path swapped for a named pipe would block the read).
      const data = await readRegular(file.absolute).catch(() => undefined);
      // A NUL byte anywhere makes a file binary: ripgrep stops at the first one, so both paths agree.
      if (!data || data.includes(0)) return true;
      const text = data.toString("utf8");
      batch.paths.push(file.path);
      batch.texts.push(text);
      batch.chars += text.length;
      if (batch.texts.length < BATCH_FILES && batch.chars < BATCH_CHARS) return true;
      return (going = await flush());
    });
    if (going && !late) await flush();
  } finally {
    clearTimeout(clock);
    signal?.removeEventListener("abort", stop);
    await matcher?.stop();
  }
  signal?.throwIfAborted();
  const notes = notesOf(maxResults, deadlineMs, { capped, late, searched, stopped: walked.stopped, large });
  return { glob, matches, notes };
}

/** A search's input with its defaults. */
function queryOf(options: SearchInput): SearchQuery {
  return {
    query: options.query,
    regex: options.regex ?? false,
    glob: options.glob ?? "**/*",
    caseSensitive: options.caseSensitive ?? false,
    maxResults: options.maxResults ?? MAX_MATCHES,
  };
}

/** A search's answer as the tool gives it. */
function searchedText(query: SearchQuery, { glob, matches, notes }: Searched): string {
  const what = query.regex ? `/${query.query}/` : JSON.stringify(query.query);
  if (matches.length === 0) return [`No match for ${what} in ${glob}.`, ...notes].join("\n");
  const files = new Set(matches.map((m) => m.path)).size;
  const head = `${count(matches.length, "match", "matches")} for ${what} in ${count(files, "file")}:`;
  return [head, ...matches.map((m) => `${m.path}:${m.line}: ${m.text}`), ...notes].join("\n");
}

/** The lines matching the query in the workspace's text files, as `path:line: text`, capped. */
export async function searchText(
  workspace: Workspace,
  exclude: Exclude,
  options: SearchInput,
  limits: SearchLimits = {},
): Promise<string> {
  const query = queryOf(options);
  return searchedText(query, await findMatches(workspace, exclude, query, limits));
}

/**
 * The matching lines of every folder, named by folder (`api/src/a.ts`), capped in all: a glob that
 * starts with a folder's name searches that folder only.
 */
export async function searchTextIn(
  folders: Folder[],
  exclude: Exclude,
  options: SearchInput,
  limits: SearchLimits = {},
): Promise<string> {
  const query = queryOf(options);
  const one = folderOf(folders, query.glob);
  const asked = one ? [one] : folders.map((folder) => ({ folder, path: query.glob }));
  const all: Searched = { glob: query.glob, matches: [], notes: [] };
  let capped = false;
  for (const { folder, path } of asked) {
    const room = query.maxResults - all.matches.length;
    if (room === 0) {
      capped = true;
      break;
    }
    const found = await findMatches(
      { root: folder.root },
      exclude,
      { ...query, glob: path, maxResults: room },
      limits,
    );
    all.glob = one ? named(folders, folder, found.glob) : found.glob;
    all.matches.push(...found.matches.map((m) => ({ ...m, path: named(folders, folder, m.path) })));
    for (const note of found.notes) {
      // The cap is said once, of all folders.
      if (note.startsWith("[Stopped at ")) capped = true;
      else if (!all.notes.includes(note)) all.notes.push(note);
    }
  }
  if (capped)
    all.notes.unshift(...notesOf(query.maxResults, 0, { capped, late: false, stopped: false, large: 0 }));
  return searchedText(query, all);
}

/** The `search_text` tool of the workspace's folders, searching what list_files would list (through `ripgrep` when given). */
export function searchTextTool(folders: Folder[], exclude: Exclude, ripgrep?: string): Tool {
  const several =
    folders.length > 1
      ? ` The workspace has several folders (${folders.map((f) => f.name).join(", ")}): paths start with the folder's name, and a glob that does searches that folder only.`
      : "";
  return tool(
    "search_text",
    `Searches the workspace's text files for a text or a regular expression and answers matching lines as path:line: text. Binary files, files over 1 MB and ignored files are skipped.${several}`,
    input,
    (options, signal) => searchTextIn(folders, exclude, options, { signal, ripgrep }),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
