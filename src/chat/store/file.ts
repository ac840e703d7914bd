/**
 * The journal on disk: reading it back into a State (repairing what a crash left), following what
 * another process appends, and writing a file atomically (the writer's appends are appender.ts).
 */
import { closeSync, constants, fstatSync, openSync, readFileSync } from "node:fs";
import { appendFile, open, rename, truncate, unlink, type FileHandle } from "node:fs/promises";
import { dirname } from "node:path";
import { ForeignLine, readLine } from "./lines";
import { State, type Change } from "./state";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/** What reading a journal found. */
export interface Reading {
  state: State;
  /** Lines of tables this version does not know, kept for the next snapshot. */
  foreign: string[];
  /** What was wrong, in words for the person. */
  problems: string[];
  /** Bytes of the journal read (up to the end of its last whole line). */
  size: number;
  /** Whole lines read. */
  lines: number;
  /** The file's inode when it was read. */
  ino: number;
  /** Bad lines in the middle that were skipped (the writer rewrites the journal without them). */
  skipped: string[];
  /** The torn or bad last line's bytes, when it was cut off. */
  torn: Buffer | null;
  /** True when the last line was whole but had lost its newline. */
  unterminated: boolean;
}

const NEWLINE = 0x0a;
/** How the store's own lines begin: a table name starting with "~" (see listing.ts). */
const INTERNAL = '{"t":"~';

/**
 * Applies the whole lines of `text` to `state`, giving each change to `each`. A bad line is
 * skipped and said in `problems` (and kept in `skipped`); `first` is the number of the first line.
 */
export function replay(
  state: State,
  text: string,
  first: number,
  problems: string[],
  skipped: string[],
  foreign: string[],
  each?: (change: Change) => void,
): void {
  const lines = text.split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    // The store's own lines (listing.ts) are kept as they are, without a thrown ForeignLine each.
    if (line.startsWith(INTERNAL)) {
      foreign.push(line);
      continue;
    }
    try {
      const entry = readLine(line, (t, k) => state.get(t, k));
      const change = state.apply(entry.table, entry.key, entry.row);
      if (change) each?.(change);
    } catch (e) {
      if (e instanceof ForeignLine) {
        foreign.push(line);
        continue;
      }
      problems.push(
        t(
          "Line {0} of the conversation journal could not be read and was skipped: {1}.",
          first + i,
          reason(e),
        ),
      );
      skipped.push(line);
    }
  }
}

/** What reading an empty journal finds. */
export function emptyReading(): Reading {
  return {
    state: new State(),
    foreign: [],
    problems: [],
    size: 0,
    lines: 0,
    ino: 0,
    skipped: [],
    torn: null,
    unterminated: false,
  };
}

/** Reads the journal at `path` (none: empty). Nothing on disk is changed. */
export async function readJournal(path: string): Promise<Reading> {
  let fh: FileHandle;
  try {
    fh = await open(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return emptyReading();
    throw e;
  }
  try {
    const ino = (await fh.stat()).ino;
    return readBytes(await fh.readFile(), ino);
  } finally {
    await fh.close();
  }
}

/** Reads the journal at `path` at once (none: empty), for a conversation opened while it is asked for. */
export function readJournalSync(path: string): Reading {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return emptyReading();
    throw e;
  }
  try {
    return readBytes(readFileSync(fd), fstatSync(fd).ino);
  } finally {
    closeSync(fd);
  }
}

/** Reads a journal's bytes `buf` (of the file `ino`), telling what a crash left at its end. */
export function readBytes(buf: Buffer, ino: number): Reading {
  const reading = emptyReading();
  reading.ino = ino;
  let end = buf.lastIndexOf(NEWLINE) + 1;
  const tail = buf.subarray(end);
  const blank = (b: Buffer) => b.every((c) => c === 0x20 || c === 0x0d || c === 0x09 || c === NEWLINE);
  if (!blank(tail)) {
    // A last line with no newline is torn, unless it reads whole (only its newline was lost).
    replay(
      reading.state,
      buf.toString("utf8", 0, end),
      1,
      reading.problems,
      reading.skipped,
      reading.foreign,
    );
    if (readable(reading, tail.toString("utf8"))) {
      reading.unterminated = true;
      end = buf.length;
    } else {
      reading.torn = Buffer.from(tail);
    }
  } else {
    // A whole last line that does not read is cut off as a torn one would be.
    const start = end > 0 ? buf.lastIndexOf(NEWLINE, end - 2) + 1 : 0;
    replay(
      reading.state,
      buf.toString("utf8", 0, start),
      1,
      reading.problems,
      reading.skipped,
      reading.foreign,
    );
    const last = buf.subarray(start, end);
    if (!blank(last) && !readable(reading, last.toString("utf8"))) {
      reading.torn = Buffer.from(last);
      end = start;
    }
  }
  if (reading.torn) {
    reading.problems.push(
      t(
        "The last change in the conversation journal was cut off (a write interrupted by a crash) and was dropped.",
      ),
    );
  }
  reading.size = end;
  for (let at = buf.indexOf(NEWLINE); at >= 0 && at < end; at = buf.indexOf(NEWLINE, at + 1)) reading.lines++;
  return reading;
}

/** Applies `line` when it reads; false when it does not. */
function readable(reading: Reading, line: string): boolean {
  try {
    const entry = readLine(line.trim(), (t, k) => reading.state.get(t, k));
    reading.state.apply(entry.table, entry.key, entry.row);
    return true;
  } catch (e) {
    if (!(e instanceof ForeignLine)) return false;
    reading.foreign.push(line.trim());
    return true;
  }
}

/**
 * Makes the journal whole after a crash: cuts a torn last line off, ends an unterminated one,
 * and keeps every dropped line in `corruptPath` for the record.
 */
export async function repair(path: string, reading: Reading, corruptPath: string): Promise<void> {
  const dropped = [...reading.skipped];
  if (reading.torn) dropped.push(reading.torn.toString("utf8").replace(/\n$/, ""));
  if (dropped.length) await appendFile(corruptPath, dropped.map((l) => l + "\n").join(""));
  if (reading.torn) await truncate(path, reading.size);
  if (reading.unterminated) {
    await appendFile(path, "\n");
    reading.size += 1;
  }
}

async function syncFolder(folder: string): Promise<void> {
  // A rename is durable once its folder is synced; some systems cannot open a folder (ignored).
  try {
    const dir = await open(folder, constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Not every platform syncs a folder.
  }
}

/** Writes `text` as the file at `path` atomically: a temporary file, fsync, rename, folder fsync. */
export async function writeAtomic(path: string, text: string): Promise<void> {
  const temp = `${path}.${process.pid}.tmp`;
  const fh = await open(temp, "w");
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(temp, path);
  } catch (e) {
    await unlink(temp).catch(() => undefined);
    throw e;
  }
  await syncFolder(dirname(path));
}

/** What another process appended since `offset`: its whole lines, or "replaced" (compacted, gone). */
export async function readSince(
  path: string,
  offset: number,
  ino: number,
): Promise<"replaced" | { text: string; size: number }> {
  let fh: FileHandle;
  try {
    fh = await open(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return ino ? "replaced" : { text: "", size: 0 };
    throw e;
  }
  try {
    const st = await fh.stat();
    if ((ino && st.ino !== ino) || st.size < offset) return "replaced";
    if (!ino && st.size > 0) return "replaced";
    if (st.size === offset) return { text: "", size: offset };
    const buf = Buffer.alloc(st.size - offset);
    const { bytesRead } = await fh.read(buf, 0, buf.length, offset);
    const end = buf.subarray(0, bytesRead).lastIndexOf(NEWLINE) + 1;
    return { text: buf.toString("utf8", 0, end), size: offset + end };
  } finally {
    await fh.close();
  }
}
