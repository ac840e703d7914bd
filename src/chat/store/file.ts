/**
 * The journal on disk: reading it back into a State (repairing what a crash left), following what
 * another process appends, and the writer's appends, fsyncs and atomic compaction.
 */
import { constants } from "node:fs";
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

/** Reads the journal at `path` (none: empty). Nothing on disk is changed. */
export async function readJournal(path: string): Promise<Reading> {
  const reading: Reading = {
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
  let fh: FileHandle;
  try {
    fh = await open(path, "r");
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code === "ENOENT") return reading;
    throw e;
  }
  let buf: Buffer;
  try {
    reading.ino = (await fh.stat()).ino;
    buf = await fh.readFile();
  } finally {
    await fh.close();
  }
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

/**
 * The one writer's appends to the journal. Lines are written in the order given, batched, one
 * write at a time; `flush` resolves once every line given before it is on disk (fsync).
 * `compact` swaps the journal for a snapshot without losing a line appended meanwhile.
 */
export class Appender {
  private fh: FileHandle | null = null;
  private queue: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  private given = 0;
  private synced = 0;
  /** Bytes of the journal on disk and queued. */
  bytes: number;

  constructor(
    readonly path: string,
    size: number,
    private readonly onError: (text: string) => void,
  ) {
    this.bytes = size;
  }

  /** Opens the journal for appending. */
  async open(): Promise<void> {
    this.fh = await open(this.path, "a");
  }

  /** Queues `line` (ending in a newline) to be written soon. */
  append(line: string): void {
    this.queue.push(line);
    this.given++;
    this.bytes += Buffer.byteLength(line);
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    this.chain = this.chain
      .then(() => {
        this.writeScheduled = false;
        return this.write();
      })
      .catch((e) => this.onError(t("Tandem could not save a change to its conversations: {0}", reason(e))));
  }

  private async write(): Promise<void> {
    if (!this.queue.length || !this.fh) return;
    const lines = this.queue;
    this.queue = [];
    try {
      await this.fh.write(lines.join(""));
    } catch (e) {
      // The lines stay queued for the next write; a partial write is cut off at the next load.
      this.queue = lines.concat(this.queue);
      throw e;
    }
  }

  /** Resolves once every line appended so far is written and synced to disk. */
  flush(): Promise<void> {
    const target = this.given;
    const step = this.chain.then(async () => {
      if (this.synced >= target) return;
      await this.write();
      const seen = this.given - this.queue.length;
      await this.fh?.datasync();
      this.synced = Math.max(this.synced, seen);
    });
    this.chain = step.catch(() => undefined);
    return step;
  }

  /**
   * Replaces the journal by `snapshot()` (called once the writes before it are done; the lines
   * queued then are in it). Lines appended while the snapshot is written go to the new journal.
   */
  compact(snapshot: () => string): Promise<void> {
    const step = this.chain.then(async () => {
      const text = snapshot();
      const taken = this.queue;
      const covered = this.given;
      this.queue = [];
      try {
        await writeAtomic(this.path, text);
      } catch (e) {
        this.queue = taken.concat(this.queue);
        throw e;
      }
      const old = this.fh;
      this.fh = await open(this.path, "a");
      await old?.close();
      this.synced = Math.max(this.synced, covered);
      this.bytes = Buffer.byteLength(text) + this.queue.reduce((n, l) => n + Buffer.byteLength(l), 0);
      if (this.queue.length) await this.write();
    });
    this.chain = step.catch((e) =>
      this.onError(t("Tandem could not compact its conversation journal: {0}", reason(e))),
    );
    return step;
  }

  /** Writes and syncs what is queued, then closes the journal. */
  async close(): Promise<void> {
    await this.flush();
    await this.chain;
    await this.fh?.close();
    this.fh = null;
  }
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
