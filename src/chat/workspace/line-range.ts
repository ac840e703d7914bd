/**
 * A range of lines of a text, read in chunks so a large file is never held whole: the lines
 * asked (up to a byte budget), the total line count, and whether the text looks binary.
 */

import type { FileHandle } from "node:fs/promises";

/** Bytes looked at to decide that a file is binary (as git does: a NUL byte in them). */
export const SNIFF = 8000;

/** True when `head` (a file's first bytes) holds a NUL byte. */
export function binary(head: Uint8Array): boolean {
  return head.subarray(0, SNIFF).includes(0);
}

/** Bytes of a file counted for its line count; a larger file's count is a lower bound. */
export const COUNT_BYTES = 64 * 1024 * 1024;

/** The lines `start`–`end` (1-based) of a text, as far as the byte budget allowed. */
export interface Range {
  text: string;
  /** The first and last line shown (last < first when none). */
  first: number;
  last: number;
  /** Lines in the whole text (when `counted`), or in the part that was counted. */
  total: number;
  /** The whole text was counted; false when a very large file was counted only in part. */
  counted: boolean;
  /** The last line shown was cut at the byte budget. */
  cut: boolean;
  binary: boolean;
}

/** The chunks of an open file, 64 KB at a time; the handle is closed when the stream ends or is left. */
export function chunksOf(handle: FileHandle): AsyncIterable<Buffer> {
  return handle.createReadStream({ highWaterMark: 64 * 1024 });
}

/**
 * Lines `start` to `end` of the text in `chunks`, stopping at `maxBytes` of them; the rest is only
 * counted. A NUL byte in the first bytes ends the read with `binary` set.
 */
export async function lines(
  chunks: AsyncIterable<Buffer> | Iterable<Buffer>,
  start: number,
  end: number,
  maxBytes: number,
  countBytes = COUNT_BYTES,
): Promise<Range> {
  const kept: Buffer[] = [];
  let keptBytes = 0;
  let line = 1;
  let last = start - 1;
  let cut = false;
  let full = false;
  let seen = 0;
  let lineBytes = 0;
  let endsWithNewline = true;
  let counted = true;
  for await (const chunk of chunks) {
    if (seen < SNIFF && binary(chunk.subarray(0, SNIFF - seen))) {
      return { text: "", first: start, last: start - 1, total: 0, counted: true, cut: false, binary: true };
    }
    seen += chunk.length;
    if (chunk.length) endsWithNewline = chunk[chunk.length - 1] === 10;
    let at = 0;
    while (at < chunk.length) {
      const newline = chunk.indexOf(10, at);
      const stop = newline < 0 ? chunk.length : newline + 1;
      if (!full && line >= start && line <= end) {
        const room = maxBytes - keptBytes;
        const piece = chunk.subarray(at, stop);
        if (piece.length <= room) {
          kept.push(piece);
          keptBytes += piece.length;
          lineBytes += piece.length;
          if (newline >= 0) last = line;
        } else if (lineBytes === 0 && line > start) {
          // The budget ends at a line's start: the range stops before it.
          full = true;
        } else {
          // A single line longer than the budget is shown in part rather than not at all.
          kept.push(piece.subarray(0, room));
          keptBytes = maxBytes;
          cut = true;
          full = true;
          last = line;
        }
      }
      if (newline < 0) break;
      // Past the last line asked for, lines are only counted.
      if (!full && line === end) full = true;
      line++;
      lineBytes = 0;
      at = stop;
    }
    if (full && seen >= countBytes) {
      counted = false;
      break;
    }
  }
  const total = seen === 0 ? 0 : endsWithNewline ? line - 1 : line;
  // The last line of a text without a final newline ends with the text.
  if (!endsWithNewline && !full && line >= start && line <= end) last = line;
  let text = Buffer.concat(kept).toString("utf8");
  if (cut) text = text.replace(/\uFFFD$/, "");
  else text = text.replace(/\r?\n$/, "");
  return { text, first: start, last: Math.min(last, total), total, counted, cut, binary: false };
}
