/**
 * The stat walk of the workspace: every folder, file and link that is not ignored, compared with
 * the stat index; only files whose stat data changed are read (hashed, and kept when saving).
 * Links are recorded as links and never followed; `.git` folders and files are never entered.
 * `scan` walks everything; `rescan` starts from the last walk and looks only at the paths a
 * watcher said changed (and walks whole only the folders that are new).
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  fstatSync,
  lstatSync,
  openSync,
  readdirSync,
  readlinkSync,
  readSync,
  type BigIntStats,
} from "node:fs";
import { join } from "node:path";
import { BlobError, type Blobs } from "./blobs";
import { code } from "./whole-writes";
import type { Entry, Manifest } from "./manifest";
import { statData, unchanged, type Stat, type StatIndex } from "./stat-index";

/** Something a checkpoint does not cover, and why, in words for the person. */
export interface Note {
  path: string;
  why: string;
}

/** Paths a checkpoint leaves out (the editor's excludes, the caller's choice); `folder` when it is one. */
export type Ignore = (path: string, folder: boolean) => boolean;

/** What to walk and how. */
export interface ScanOptions {
  root: string;
  ignore: Ignore;
  /** Absolute paths never entered (the store itself, when it lies in the workspace). */
  skip: Set<string>;
  /** Files larger than this are recorded with a note, never copied. */
  maxFileBytes: number;
  index: StatIndex;
  /** Where changed files are kept; without it files are only hashed (for a diff). */
  blobs?: Blobs;
  /** Told after each file read, for progress. */
  step?: (path: string) => void;
  /** Told each folder walked, before it is read (to watch it). */
  entered?: (path: string, absolute: string) => void;
  /** Told each path that is gone (to stop watching it). */
  gone?: (path: string) => void;
}

/** What a walk found. */
export interface Scanned {
  manifest: Manifest;
  /** The paths a rescan set or removed (null after a whole walk: any may have). */
  touched: Set<string> | null;
  /** Bytes the store grew by. */
  added: number;
  /** Files read because their stat data changed. */
  read: number;
}

// Within this long of the walk's start a change in the same clock tick could leave the mtime as it
// was (coarse file system clocks tick up to 2 s on FAT): such files are hashed again next time.
const RACY_NS = 2_000_000_000n;
const CHUNK = 1024 * 1024;
// A walk gives the event loop back at least this often (ms), so the extension host stays responsive.
const SLICE_MS = 8;

/** Waits for the event loop to run what is waiting (timers, messages) once. */
const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A size in words: "50 MB". */
export function sized(bytes: number): string {
  if (bytes >= 1024 * 1024 * 1024) return `${+(bytes / 1024 ** 3).toFixed(1)} GB`;
  if (bytes >= 1024 * 1024) return `${+(bytes / 1024 ** 2).toFixed(1)} MB`;
  if (bytes >= 1024) return `${+(bytes / 1024).toFixed(1)} KB`;
  return `${bytes} bytes`;
}

function special(s: BigIntStats): string {
  if (s.isFIFO()) return "a named pipe";
  if (s.isSocket()) return "a socket";
  if (s.isCharacterDevice() || s.isBlockDevice()) return "a device";
  return "not a file, folder or link";
}

function hashOnly(fd: number): string {
  const h = createHash("sha256");
  const chunk = Buffer.allocUnsafe(CHUNK);
  for (;;) {
    const n = readSync(fd, chunk, 0, CHUNK, null);
    if (n === 0) return h.digest("hex");
    h.update(chunk.subarray(0, n));
  }
}

/** What a manifest entry keeps no copy of, and why (null: it is kept). */
export function noteOf(e: Entry | undefined, maxFileBytes: number): string | null {
  if (e?.t === "skip") return e.why;
  if (e?.t === "big") return `not kept: larger than ${sized(maxFileBytes)} (${sized(e.size)})`;
  return null;
}

/** One walk: the manifest it builds, and the folders still to read. */
class Walker {
  readonly folders: { path: string; absolute: string }[] = [];
  readonly seen = new Set<string>();
  /** Paths whose entry was set or removed. */
  readonly touched = new Set<string>();
  added = 0;
  read = 0;
  private readonly racyFrom = BigInt(Date.now()) * 1_000_000n - RACY_NS;

  constructor(
    private readonly o: ScanOptions,
    readonly manifest: Manifest,
  ) {}

  /** Looks at one path (its parent is a walked folder) and records it; a folder is queued. */
  visit(path: string, absolute: string): void {
    const o = this.o;
    let s: BigIntStats | undefined;
    try {
      s = lstatSync(absolute, { bigint: true, throwIfNoEntry: false });
    } catch (e) {
      return this.skip(path, `not covered: it could not be read (${code(e) ?? String(e)})`);
    }
    const was = this.manifest.get(path);
    if (!s) return this.removeUnder(path, true);
    const isFolder = s.isDirectory();
    if (o.ignore(path, isFolder)) return this.removeUnder(path, true);
    if (was?.t === "d" && !isFolder) this.removeUnder(path, false);
    if (isFolder) {
      this.put(path, { t: "d", m: Number(s.mode) & 0o7777 });
      this.folders.push({ path, absolute });
    } else if (s.isSymbolicLink()) {
      try {
        this.put(path, { t: "l", to: readlinkSync(absolute) });
      } catch (e) {
        if (code(e) === "ENOENT") this.removeUnder(path, true);
        else this.skip(path, `not covered: the link could not be read (${code(e)})`);
      }
    } else if (s.isFile()) this.file(path, absolute, s);
    else this.skip(path, `not covered: ${special(s)}`);
  }

  /** Reads every queued folder, and the folders found in them, giving the event loop back as it goes. */
  async drain(): Promise<void> {
    let slice = performance.now();
    while (this.folders.length) {
      const folder = this.folders.pop() as { path: string; absolute: string };
      this.o.entered?.(folder.path, folder.absolute);
      let names: string[];
      try {
        names = readdirSync(folder.absolute);
      } catch (e) {
        if (folder.path === "") throw e;
        if (code(e) === "ENOENT" || code(e) === "ENOTDIR") this.removeUnder(folder.path, true);
        else this.skip(folder.path, `not covered: the folder could not be read (${code(e) ?? String(e)})`);
        continue;
      }
      for (const name of names) {
        // A folder of many changed files takes a while to read: the event loop is given back between files.
        if (performance.now() - slice > SLICE_MS) {
          await breathe();
          slice = performance.now();
        }
        if (name === ".git") continue;
        const absolute = join(folder.absolute, name);
        if (this.o.skip.has(absolute)) continue;
        this.visit(folder.path ? `${folder.path}/${name}` : name, absolute);
      }
    }
  }

  /** Forgets `path` (when `self`) and, if it was a folder, everything under it. */
  removeUnder(path: string, self: boolean): void {
    const wasFolder = this.manifest.get(path)?.t === "d";
    if (self && this.drop(path)) this.o.gone?.(path);
    if (self) this.o.index.delete(path);
    if (!wasFolder) return;
    const prefix = `${path}/`;
    for (const p of this.manifest.keys()) {
      if (!p.startsWith(prefix)) continue;
      this.drop(p);
      this.o.index.delete(p);
      this.o.gone?.(p);
    }
  }

  result(full: boolean): Scanned {
    return {
      manifest: this.manifest,
      touched: full ? null : this.touched,
      added: this.added,
      read: this.read,
    };
  }

  private put(path: string, e: Entry): void {
    this.manifest.set(path, e);
    this.touched.add(path);
  }

  private drop(path: string): boolean {
    this.touched.add(path);
    return this.manifest.delete(path);
  }

  private skip(path: string, why: string): void {
    this.removeUnder(path, false);
    this.put(path, { t: "skip", why });
  }

  private file(path: string, absolute: string, s: BigIntStats): void {
    const o = this.o;
    const st = statData(s);
    const mode = st.mode & 0o7777;
    if (s.nlink > 1n) o.index.linked.add(path);
    else o.index.linked.delete(path);
    if (st.size > o.maxFileBytes) {
      this.put(path, { t: "big", size: st.size, m: mode });
      return;
    }
    this.seen.add(path);
    const known = o.index.entries.get(path);
    if (known && !known.racy && unchanged(known, st) && (!o.blobs || o.blobs.has(known.hash))) {
      this.put(path, { t: "f", h: known.hash, m: mode });
      return;
    }
    const e = this.keep(path, absolute, st);
    if (e) this.put(path, e);
    else this.drop(path);
  }

  /** Reads a changed file, keeping it; retried when it changes while read. */
  private keep(path: string, absolute: string, walked: Stat): Entry | null {
    const o = this.o;
    for (let attempt = 0; attempt < 3; attempt++) {
      let fd: number;
      try {
        // O_NOFOLLOW: a file swapped for a link since the walk is not followed out of the workspace.
        fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (e) {
        if (code(e) === "ENOENT") return null;
        if (code(e) === "ELOOP") continue;
        return { t: "skip", why: `not covered: it could not be read (${code(e) ?? String(e)})` };
      }
      try {
        const before = statData(fstatSync(fd, { bigint: true }));
        if ((before.mode & constants.S_IFMT) !== constants.S_IFREG) continue;
        if (!unchanged(attempt === 0 ? walked : before, before)) continue;
        let hash: string;
        try {
          if (o.blobs) {
            const put = o.blobs.putFile(fd, before.size);
            this.added += put.added;
            hash = put.hash;
          } else hash = hashOnly(fd);
        } catch (e) {
          if (e instanceof BlobError) continue;
          throw e;
        }
        const after = statData(fstatSync(fd, { bigint: true }));
        if (!unchanged(before, after)) continue;
        this.read++;
        o.index.set(path, { ...after, hash, racy: after.mtime >= this.racyFrom });
        o.step?.(path);
        return { t: "f", h: hash, m: after.mode & 0o7777 };
      } finally {
        closeSync(fd);
      }
    }
    return { t: "skip", why: "not covered: it kept changing while the checkpoint was taken" };
  }
}

/** Walks the whole workspace. */
export async function scan(o: ScanOptions): Promise<Scanned> {
  const w = new Walker(o, new Map());
  w.folders.push({ path: "", absolute: o.root });
  await w.drain();
  for (const path of o.index.entries.keys()) if (!w.seen.has(path)) o.index.delete(path);
  return w.result(true);
}

const depth = (path: string) => path.split("/").length;

/**
 * Brings `last` (the manifest of the last walk, changed in place) up to date by looking only at
 * `changed` paths (a watcher's report) and at the files the index says to look at again (racy,
 * hard-linked); new folders are walked whole.
 */
export async function rescan(o: ScanOptions, last: Manifest, changed: Set<string>): Promise<Scanned> {
  const w = new Walker(o, last);
  const paths = new Set([...changed, ...o.index.racy, ...o.index.linked]);
  for (const path of [...paths].sort((a, b) => depth(a) - depth(b))) {
    if (path === "" || path.split("/").includes(".git")) continue;
    const cut = path.lastIndexOf("/");
    const parent = cut < 0 ? "" : path.slice(0, cut);
    // Under a folder the last walk did not enter (ignored, unreadable, gone): not ours to look at.
    if (parent !== "" && w.manifest.get(parent)?.t !== "d") continue;
    const absolute = join(o.root, path);
    if (o.skip.has(absolute)) continue;
    const was = w.manifest.get(path);
    w.visit(path, absolute);
    // A folder already known only changed its mode; its contents come as their own paths.
    if (was?.t === "d" && w.manifest.get(path)?.t === "d") w.folders.pop();
    await w.drain();
  }
  return w.result(false);
}
