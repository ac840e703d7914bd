/**
 * One stat walk of the workspace: every folder, file and link that is not ignored, compared with
 * the stat index; only files whose stat data changed are read (hashed, and kept when saving).
 * Links are recorded as links and never followed; `.git` folders and files are never entered.
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
import { code } from "./files";
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
}

/** What a walk found. */
export interface Scanned {
  manifest: Manifest;
  notCovered: Note[];
  /** Bytes the store grew by. */
  added: number;
  /** Files read because their stat data changed. */
  read: number;
}

// Within this long of the walk's start a change in the same clock tick could leave the mtime as it
// was (coarse file system clocks tick up to 2 s on FAT): such files are hashed again next time.
const RACY_NS = 2_000_000_000n;
const CHUNK = 1024 * 1024;

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

/** Walks the workspace; see the file's comment. */
export function scan(o: ScanOptions): Scanned {
  const out: Scanned = { manifest: new Map(), notCovered: [], added: 0, read: 0 };
  const racyFrom = BigInt(Date.now()) * 1_000_000n - RACY_NS;
  const seen = new Set<string>();
  const note = (path: string, why: string) => {
    out.notCovered.push({ path, why });
    out.manifest.set(path, { t: "skip", why });
  };

  /** Reads a changed file, keeping it; retried when it changes while read. */
  const keep = (path: string, absolute: string, walked: Stat): Entry | null => {
    for (let attempt = 0; attempt < 3; attempt++) {
      let fd: number;
      try {
        // O_NOFOLLOW: a file swapped for a link since the walk is not followed out of the workspace.
        fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
      } catch (e) {
        if (code(e) === "ENOENT") return null;
        if (code(e) === "ELOOP") continue;
        note(path, `not covered: it could not be read (${code(e) ?? String(e)})`);
        return { t: "skip", why: "unreadable" };
      }
      try {
        const before = statData(fstatSync(fd, { bigint: true }));
        if ((before.mode & constants.S_IFMT) !== constants.S_IFREG) continue;
        const at = attempt === 0 ? walked : before;
        if (!unchanged(at, before)) continue;
        let hash: string;
        try {
          if (o.blobs) {
            const put = o.blobs.putFile(fd, before.size);
            out.added += put.added;
            hash = put.hash;
          } else hash = hashOnly(fd);
        } catch (e) {
          if (e instanceof BlobError) continue;
          throw e;
        }
        const after = statData(fstatSync(fd, { bigint: true }));
        if (!unchanged(before, after)) continue;
        out.read++;
        const racy = after.mtime >= racyFrom;
        o.index.set(path, { ...after, hash, racy });
        o.step?.(path);
        return { t: "f", h: hash, m: after.mode & 0o7777 };
      } finally {
        closeSync(fd);
      }
    }
    note(path, "not covered: it kept changing while the checkpoint was taken");
    return null;
  };

  const file = (path: string, absolute: string, s: BigIntStats) => {
    const st = statData(s);
    const mode = st.mode & 0o7777;
    if (st.size > o.maxFileBytes) {
      const why = `not kept: larger than ${sized(o.maxFileBytes)} (${sized(st.size)})`;
      out.notCovered.push({ path, why });
      out.manifest.set(path, { t: "big", size: st.size, m: mode });
      return;
    }
    seen.add(path);
    const known = o.index.entries.get(path);
    if (known && !known.racy && unchanged(known, st) && (!o.blobs || o.blobs.has(known.hash))) {
      out.manifest.set(path, { t: "f", h: known.hash, m: mode });
      return;
    }
    const e = keep(path, absolute, st);
    if (e && e.t !== "skip") out.manifest.set(path, e);
  };

  const folders: { path: string; absolute: string }[] = [{ path: "", absolute: o.root }];
  while (folders.length) {
    const folder = folders.pop() as { path: string; absolute: string };
    let names: string[];
    try {
      names = readdirSync(folder.absolute);
    } catch (e) {
      if (folder.path === "") throw e;
      if (code(e) !== "ENOENT" && code(e) !== "ENOTDIR")
        note(folder.path, `not covered: the folder could not be read (${code(e) ?? String(e)})`);
      continue;
    }
    for (const name of names) {
      if (name === ".git") continue;
      const path = folder.path ? `${folder.path}/${name}` : name;
      const absolute = join(folder.absolute, name);
      if (o.skip.has(absolute)) continue;
      let s: BigIntStats | undefined;
      try {
        s = lstatSync(absolute, { bigint: true, throwIfNoEntry: false });
      } catch (e) {
        note(path, `not covered: it could not be read (${code(e) ?? String(e)})`);
        continue;
      }
      if (!s) continue;
      const isFolder = s.isDirectory();
      if (o.ignore(path, isFolder)) continue;
      if (isFolder) {
        out.manifest.set(path, { t: "d", m: Number(s.mode) & 0o7777 });
        folders.push({ path, absolute });
      } else if (s.isSymbolicLink()) {
        try {
          out.manifest.set(path, { t: "l", to: readlinkSync(absolute) });
        } catch (e) {
          if (code(e) !== "ENOENT") note(path, `not covered: the link could not be read (${code(e)})`);
        }
      } else if (s.isFile()) file(path, absolute, s);
      else note(path, `not covered: ${special(s)}`);
    }
  }
  for (const path of o.index.entries.keys()) if (!seen.has(path)) o.index.delete(path);
  return out;
}
