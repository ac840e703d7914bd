/**
 * The stat index, as git's index works: for each regular file of the workspace, the stat data seen
 * when its content was last hashed (size, mtime and ctime in nanoseconds, inode, device, mode) and
 * the content's hash. A file whose stat data has not changed is not read again.
 *
 * The index is a cache: each entry is a fact ("a file with this stat data held these bytes"), so an
 * old or lost index only makes the next checkpoint hash more. It is kept as a whole file plus a log
 * of the entries changed since, so a checkpoint after one change appends one line.
 */
import { appendFileSync, readFileSync, type BigIntStats } from "node:fs";
import { code, removeQuietly, writeWhole } from "./whole-writes";

/** The stat data that says whether a file may have changed. */
export interface Stat {
  size: number;
  mtime: bigint;
  ctime: bigint;
  ino: bigint;
  dev: bigint;
  mode: number;
}

/** An indexed file: its stat data and the hash of the content that had it. */
export interface Indexed extends Stat {
  hash: string;
  /**
   * Changed so shortly before it was hashed that a change within the same clock tick would not
   * show in its mtime (git's "racily clean"): it is hashed again next time.
   */
  racy: boolean;
}

type Line = [string, number, string, string, string, string, number, string, 0 | 1];

// The log is folded into the whole file once it has this many lines.
const LOG_LINES = 2000;

/** The stat data of a bigint `lstat`/`fstat`. */
export function statData(s: BigIntStats): Stat {
  return {
    size: Number(s.size),
    mtime: s.mtimeNs,
    ctime: s.ctimeNs,
    ino: s.ino,
    dev: s.dev,
    mode: Number(s.mode),
  };
}

/** True when the stat data of `a` and `b` agree. */
export function unchanged(a: Stat, b: Stat): boolean {
  return (
    a.size === b.size &&
    a.mtime === b.mtime &&
    a.ctime === b.ctime &&
    a.ino === b.ino &&
    a.dev === b.dev &&
    a.mode === b.mode
  );
}

function line(path: string, e: Indexed): string {
  const l: Line = [
    path,
    e.size,
    String(e.mtime),
    String(e.ctime),
    String(e.ino),
    String(e.dev),
    e.mode,
    e.hash,
    e.racy ? 1 : 0,
  ];
  return JSON.stringify(l);
}

function entry(l: Line): Indexed {
  return {
    size: l[1],
    mtime: BigInt(l[2]),
    ctime: BigInt(l[3]),
    ino: BigInt(l[4]),
    dev: BigInt(l[5]),
    mode: l[6],
    hash: l[7],
    racy: l[8] === 1,
  };
}

function readLines(path: string): string[] {
  try {
    return readFileSync(path, "utf8").split("\n");
  } catch (e) {
    if (code(e) === "ENOENT") return [];
    throw e;
  }
}

/** The stat index kept at `path` (and `path`.log). */
export class StatIndex {
  readonly entries = new Map<string, Indexed>();
  /** The paths of racy entries (read again by the next checkpoint). */
  readonly racy = new Set<string>();
  /**
   * Files with more than one name (hard links): a change through a name outside the workspace
   * sends no event to the workspace's folders, so every checkpoint looks at them. Not saved: the
   * first checkpoint after opening walks everything.
   */
  readonly linked = new Set<string>();
  private readonly changed = new Set<string>();
  private generation = 0;
  private logged = 0;

  private constructor(private readonly path: string) {}

  /** Reads the index; whatever is unreadable is dropped (it only costs hashing). */
  static load(path: string): StatIndex {
    const index = new StatIndex(path);
    const whole = readLines(path);
    const head = /^tandem-index 1 (\d+)$/.exec(whole[0] ?? "");
    if (!head) return index;
    index.generation = Number(head[1]);
    index.read(whole.slice(1));
    const log = readLines(`${path}.log`);
    if (log[0] === `gen ${index.generation}`) index.logged = index.read(log.slice(1));
    return index;
  }

  /** Records `path` as holding `e`. */
  set(path: string, e: Indexed): void {
    this.entries.set(path, e);
    this.changed.add(path);
    if (e.racy) this.racy.add(path);
    else this.racy.delete(path);
  }

  /** Forgets `path`. */
  delete(path: string): void {
    this.racy.delete(path);
    this.linked.delete(path);
    if (this.entries.delete(path)) this.changed.add(path);
  }

  /** Forgets every entry whose content hash is one of `hashes` (their stored copies are gone). */
  forget(hashes: Set<string>): void {
    for (const [path, e] of this.entries) if (hashes.has(e.hash)) this.delete(path);
  }

  /** Writes what changed since the last save: a few log lines, or the whole index when the log is long. */
  save(): void {
    if (!this.changed.size) return;
    if (this.logged + this.changed.size > LOG_LINES) {
      this.generation++;
      const lines = [`tandem-index 1 ${this.generation}`];
      for (const [path, e] of this.entries) lines.push(line(path, e));
      // A cache: no fsync, a torn file is dropped on load.
      writeWhole(this.path, lines.join("\n") + "\n", false);
      removeQuietly(`${this.path}.log`);
      this.logged = 0;
    } else {
      let text = this.logged === 0 ? `gen ${this.generation}\n` : "";
      for (const path of this.changed) {
        const e = this.entries.get(path);
        text += (e ? line(path, e) : JSON.stringify(["-", path])) + "\n";
      }
      if (this.logged === 0) writeWhole(`${this.path}.log`, text, false);
      else appendFileSync(`${this.path}.log`, text);
      this.logged += this.changed.size;
    }
    this.changed.clear();
  }

  /** Applies index lines; stops at the first unreadable one (a torn end). Returns how many were read. */
  private read(lines: string[]): number {
    let n = 0;
    for (const text of lines) {
      if (!text) continue;
      try {
        const l: unknown = JSON.parse(text);
        if (!Array.isArray(l)) break;
        if (l.length === 2 && l[0] === "-" && typeof l[1] === "string") {
          this.entries.delete(l[1]);
          this.racy.delete(l[1]);
        } else if (l.length === 9 && typeof l[0] === "string") {
          this.entries.set(l[0], entry(l as Line));
          if (l[8] === 1) this.racy.add(l[0]);
          else this.racy.delete(l[0]);
        } else break;
      } catch {
        break;
      }
      n++;
    }
    return n;
  }
}
