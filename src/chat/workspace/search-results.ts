/** What a text search returns and the rules both of its paths (ripgrep, the Node walk) share. */
import { count, size } from "./counts";

/** Files larger than this are not searched. */
export const MAX_FILE_BYTES = 1024 * 1024;
/** Characters of a matching line shown. */
const LINE_CHARS = 240;
/** How long one search may look before it answers with what it found. */
export const SEARCH_MS = 10_000;

/** A matching line clipped around its match. */
export function clipLine(line: string, at: number): string {
  const text = line.replace(/\t/g, " ");
  if (text.length <= LINE_CHARS) return text.trimEnd();
  const from = Math.max(0, Math.min(at - 40, text.length - LINE_CHARS));
  return `${from > 0 ? "…" : ""}${text.slice(from, from + LINE_CHARS)}…`;
}

/** What one search looks for (the tool's input with its defaults). */
export interface SearchQuery {
  query: string;
  regex: boolean;
  /** A glob or a folder, as the model wrote it. */
  glob: string;
  caseSensitive: boolean;
  maxResults: number;
}

/** One matching line. */
export interface Match {
  /** Relative to the root, with `/`. */
  path: string;
  /** 1-based. */
  line: number;
  /** The line, clipped around the match. */
  text: string;
}

/** What a search found: the matches in file order, the glob it searched, and notes on what it left out. */
export interface Searched {
  glob: string;
  matches: Match[];
  notes: string[];
}

/** How long a search may run, its caller's stop, and the ripgrep to run it with. */
export interface SearchLimits {
  /** Milliseconds before the search stops and answers what it found (default SEARCH_MS). */
  deadlineMs?: number;
  signal?: AbortSignal;
  /** The ripgrep binary (VS Code's); without it the files are walked and matched here. */
  ripgrep?: string;
}

/** The notes on what a search left out. */
export function notesOf(
  maxResults: number,
  deadlineMs: number,
  s: { capped: boolean; late: boolean; searched?: number; stopped: boolean; large: number },
): string[] {
  const notes: string[] = [];
  if (s.capped) notes.push(`[Stopped at ${maxResults} matches; narrow the query or the glob to see others.]`);
  if (s.late) {
    const searched = s.searched === undefined ? "" : `; ${count(s.searched, "file")} searched`;
    notes.push(
      `[The search stopped at its ${deadlineMs / 1000} s deadline${searched}; narrow the pattern or the folder.]`,
    );
  }
  if (s.stopped) notes.push("[The workspace is large: the search stopped early; narrow the glob.]");
  if (s.large) {
    const were = s.large === 1 ? "was" : "were";
    notes.push(`[${count(s.large, "file")} larger than ${size(MAX_FILE_BYTES)} ${were} not searched.]`);
  }
  return notes;
}
