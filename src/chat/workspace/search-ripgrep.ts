/** The text search through VS Code's ripgrep, confirmed line by line by the expression the Node path uses. */
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import type { Exclude } from "./ignore";
import { LINE_SEARCHED, Matcher, StoppedError, type Hit } from "./matcher";
import { rgSearch, type Line } from "./ripgrep";
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

/**
 * The search through ripgrep: it walks and finds the lines; each line is then matched again here
 * (a literal on this thread, a regular expression in the worker), so a line counts only when the
 * JavaScript expression the Node path uses matches it too, within the same first LINE_SEARCHED characters.
 */
export async function findWithRipgrep(
  rg: string,
  workspace: Workspace,
  exclude: Exclude,
  query: SearchQuery,
  expression: RegExp,
  glob: string,
  limits: SearchLimits,
): Promise<Searched> {
  const { maxResults } = query;
  const deadlineMs = limits.deadlineMs ?? SEARCH_MS;
  const test = globTest(glob);
  const matches: Match[] = [];
  let large = 0;
  let capped = false;
  let matcher: Matcher | undefined;
  /** The lines of one file the expression matches, as the Node path would find them. */
  const confirm = async (lines: Line[]): Promise<Hit[]> => {
    const texts = lines.map((l) => (l.text.length > LINE_SEARCHED ? l.text.slice(0, LINE_SEARCHED) : l.text));
    if (!query.regex) {
      const hits: Hit[] = [];
      texts.forEach((text, i) => {
        const found = expression.exec(text);
        if (found) hits.push({ line: lines[i].line, at: found.index, text });
      });
      return hits;
    }
    // A regular expression may backtrack for ever: it runs in the worker, stopped at the deadline.
    matcher ??= new Matcher(expression);
    const hits: Hit[] = [];
    await matcher.match(texts, texts.length, (found, i) => {
      if (found[0]) hits.push({ ...found[0], line: lines[i].line });
    });
    return hits;
  };
  const stopMatcher = () => void matcher?.stop();
  const clock = setTimeout(stopMatcher, deadlineMs);
  limits.signal?.addEventListener("abort", stopMatcher, { once: true });
  let late = false;
  try {
    const ran = await rgSearch(
      rg,
      workspace.root,
      {
        ...query,
        base: baseOf(glob),
        glob,
        exclude,
        maxFileBytes: MAX_FILE_BYTES,
        deadlineMs,
        signal: limits.signal,
      },
      async (path, lines) => {
        if (!test(path)) return true;
        let hits: Hit[];
        try {
          hits = await confirm(lines);
        } catch (error) {
          if (!(error instanceof StoppedError)) throw error;
          late = !limits.signal?.aborted;
          return false;
        }
        for (const hit of hits) {
          if (matches.length === maxResults) {
            capped = true;
            return false;
          }
          matches.push({ path, line: hit.line, text: clipLine(hit.text.replace(/\r$/, ""), hit.at) });
        }
        return true;
      },
      (path) => {
        if (test(path)) large++;
      },
    );
    late ||= ran.late;
  } finally {
    clearTimeout(clock);
    limits.signal?.removeEventListener("abort", stopMatcher);
    await matcher?.stop();
  }
  limits.signal?.throwIfAborted();
  return { glob, matches, notes: notesOf(maxResults, deadlineMs, { capped, late, stopped: false, large }) };
}
