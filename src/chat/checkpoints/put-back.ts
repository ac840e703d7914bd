/**
 * Putting the workspace back to a manifest: what differs is planned first (removals deepest first,
 * then folders, files and links shallowest first), then applied so that no write ever goes through
 * a link: every parent is checked to be a real folder, new files and links are made under a
 * temporary name and renamed into place, and modes are set on the open file.
 */
import {
  closeSync,
  constants,
  fchmodSync,
  fsyncSync,
  lstatSync,
  mkdirSync,
  openSync,
  renameSync,
  rmdirSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import { join } from "node:path";
import type { Blobs } from "./blobs";
import { code, removeQuietly } from "./whole-writes";
import { same, type Entry, type Manifest } from "./manifest";
import type { Note } from "./stat-walk";
import { statData, type StatIndex } from "./stat-index";

/** One change a restore makes. */
export interface Step {
  path: string;
  entry: Entry;
  /** What is there now, for a rewrite. */
  from?: Entry;
}

/** What a restore will do. */
export interface Plan {
  /** Paths to take away, deepest first. */
  remove: Step[];
  /** Paths to make or rewrite (their target entry), shallowest first. */
  write: Step[];
  /** Paths left as they are, and why. */
  left: Note[];
}

const depth = (path: string) => path.split("/").length;

function parents(path: string): string[] {
  const out: string[] = [];
  for (let at = path.lastIndexOf("/"); at > 0; at = path.lastIndexOf("/", at - 1))
    out.push(path.slice(0, at));
  return out;
}

/** True when `path` or one of its folders is in `set`. */
function under(path: string, set: Set<string>): boolean {
  return set.has(path) || parents(path).some((p) => set.has(p));
}

/** The changes that take the workspace from `now` to `target`. */
export function plan(now: Manifest, target: Manifest): Plan {
  const out: Plan = { remove: [], write: [], left: [] };
  const alone = new Set<string>();
  for (const [path, e] of target) if (e.t === "skip" || e.t === "big") alone.add(path);
  for (const [path, e] of now) if (e.t === "skip") alone.add(path);
  for (const path of alone) {
    const t = target.get(path);
    const why =
      t?.t === "big"
        ? "not restored: it was too large to keep"
        : t?.t === "skip"
          ? "not restored: the checkpoint does not cover it"
          : "not restored: it cannot be read now";
    out.left.push({ path, why });
  }
  for (const [path, e] of now) {
    if (under(path, alone)) continue;
    const t = target.get(path);
    if (!t || t.t !== e.t) out.remove.push({ path, entry: e });
  }
  for (const [path, t] of target) {
    if (under(path, alone)) continue;
    const from = now.get(path);
    if (!same(from, t)) out.write.push({ path, entry: t, from });
  }
  out.remove.sort((a, b) => depth(b.path) - depth(a.path));
  out.write.sort((a, b) => depth(a.path) - depth(b.path));
  return out;
}

/** The files (not folders) plan `p` wrote or removed, less those in `failed`; `removed` when it is gone now. */
export function filesOf(p: Plan, failed: Note[]): { path: string; removed: boolean }[] {
  const missed = new Set(failed.map((f) => f.path));
  const written = new Set(p.write.map((w) => w.path));
  return [
    ...p.remove
      .filter((s) => s.entry.t !== "d" && !written.has(s.path))
      .map((s) => ({ path: s.path, removed: true })),
    ...p.write.filter((s) => s.entry.t !== "d").map((s) => ({ path: s.path, removed: false })),
  ].filter((f) => !missed.has(f.path));
}

/** Where a restore writes and what it keeps up to date. */
export interface Target {
  root: string;
  blobs: Blobs;
  index: StatIndex;
  /** Part of every temporary name, so a crash's leftovers can be told apart. */
  nonce: string;
  step?: (path: string) => void;
}

/** Applies `p` to the workspace (giving the event loop back every few ms); returns the paths it could not put back, and why. */
export async function applyPlan(p: Plan, t: Target): Promise<Note[]> {
  const failed: Note[] = [];
  let slice = performance.now();
  // A restore of thousands of files must not hold the extension host: it pauses between paths.
  const breathe = async (): Promise<void> => {
    if (performance.now() - slice <= 8) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    slice = performance.now();
  };
  const now = new Map<string, Entry>(p.remove.map((s) => [s.path, s.entry]));
  const folders = new Set<string>();
  let n = 0;

  /** The parent of `path` must be a real folder inside the root, never a link. */
  const parentIsFolder = (path: string): boolean => {
    for (const folder of parents(path).reverse()) {
      if (folders.has(folder)) continue;
      const s = lstatSync(join(t.root, folder), { throwIfNoEntry: false });
      if (!s?.isDirectory()) return false;
      folders.add(folder);
    }
    return true;
  };

  for (const { path, entry } of p.remove) {
    await breathe();
    const absolute = join(t.root, path);
    try {
      if (entry.t === "d") rmdirSync(absolute);
      else unlinkSync(absolute);
      t.index.delete(path);
      now.delete(path);
    } catch (e) {
      if (code(e) === "ENOENT") now.delete(path);
      else if (code(e) === "ENOTEMPTY" || code(e) === "EEXIST")
        failed.push({ path, why: "kept: the folder holds files the checkpoint does not cover" });
      else failed.push({ path, why: `could not be removed (${code(e) ?? String(e)})` });
    }
    t.step?.(path);
  }

  const modes: Step[] = [];
  for (const step of p.write) {
    await breathe();
    const { path, entry } = step;
    const absolute = join(t.root, path);
    if (now.has(path) || !parentIsFolder(path)) {
      failed.push({ path, why: "not restored: something else is in its place" });
      continue;
    }
    try {
      if (entry.t === "d") {
        const s = lstatSync(absolute, { throwIfNoEntry: false });
        if (!s) mkdirSync(absolute, { mode: 0o700 });
        else if (!s.isDirectory()) throw Object.assign(new Error("not a folder"), { code: "EEXIST" });
        folders.add(path);
        modes.push(step);
      } else if (entry.t === "l") {
        const tmp = join(t.root, path, "..", `.tandem-restore-${t.nonce}-${n++}`);
        symlinkSync(entry.to, tmp);
        renameSync(tmp, absolute);
      } else if (entry.t === "f") {
        const sameBytes = step.from?.t === "f" && step.from.h === entry.h;
        writeFile(t, path, absolute, entry.h, entry.m, sameBytes, n++);
      }
    } catch (e) {
      failed.push({ path, why: `not restored (${code(e) ?? String(e)})` });
    }
    t.step?.(path);
  }
  // Folder modes last, deepest first, so a read-only folder does not stop writes inside it.
  for (const { path, entry } of modes.reverse()) {
    if (entry.t !== "d") continue;
    try {
      const fd = openSync(
        join(t.root, path),
        constants.O_RDONLY | constants.O_DIRECTORY | constants.O_NOFOLLOW,
      );
      try {
        fchmodSync(fd, entry.m);
      } finally {
        closeSync(fd);
      }
    } catch (e) {
      failed.push({ path, why: `its permissions were not restored (${code(e) ?? String(e)})` });
    }
  }
  return failed;
}

/** Writes a file's kept content under a temporary name beside it, then renames it into place. */
function writeFile(
  t: Target,
  path: string,
  absolute: string,
  hash: string,
  mode: number,
  sameBytes: boolean,
  n: number,
): void {
  if (sameBytes) {
    // Same content, other mode: only the mode changes, on the open file (never through a link).
    const fd = openSync(absolute, constants.O_RDONLY | constants.O_NOFOLLOW);
    try {
      fchmodSync(fd, mode);
    } finally {
      closeSync(fd);
    }
  } else {
    const tmp = join(absolute, "..", `.tandem-restore-${t.nonce}-${n}`);
    const flags = constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW;
    const fd = openSync(tmp, flags, 0o600);
    try {
      t.blobs.copyTo(hash, fd);
      fchmodSync(fd, mode);
      fsyncSync(fd);
    } catch (e) {
      closeSync(fd);
      removeQuietly(tmp);
      throw e;
    }
    closeSync(fd);
    renameSync(tmp, absolute);
  }
  // Just written: racy by definition, so the next checkpoint reads it once more.
  t.index.set(path, { ...statData(lstatSync(absolute, { bigint: true })), hash, racy: true });
}
