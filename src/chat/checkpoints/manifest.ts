/**
 * A checkpoint's manifest: every covered path of the workspace and what it was (a file's stored
 * copy and mode, a link's target, a folder, or a note saying why it is not kept). A manifest is
 * stored as a blob, either whole or as the paths that differ from an earlier whole one, so a
 * checkpoint after one change stores one line, not the workspace's 20,000. A manifest's entry also
 * gives the version of its path a diff view shows (`versionOf`).
 */
import { z } from "zod";
import type { Blobs } from "./blobs";
import { sized } from "./stat-walk";

const HASH = z.string().regex(/^[0-9a-f]{64}$/);

/** What one path was when the checkpoint was taken. */
export const Entry = z.discriminatedUnion("t", [
  /** A regular file: its stored copy and its permission bits. */
  z.object({ t: z.literal("f"), h: HASH, m: z.number().int() }),
  /** A symbolic link, by its target as written (never followed). */
  z.object({ t: z.literal("l"), to: z.string() }),
  /** A folder and its permission bits. */
  z.object({ t: z.literal("d"), m: z.number().int() }),
  /** A file larger than the size cap: recorded, not kept. */
  z.object({ t: z.literal("big"), size: z.number(), m: z.number().int() }),
  /** Something the checkpoint could not keep (unreadable, special, changing), left alone on restore. */
  z.object({ t: z.literal("skip"), why: z.string() }),
]);
export type Entry = z.infer<typeof Entry>;

/** Path (relative, with `/`) to entry. */
export type Manifest = Map<string, Entry>;

const Stored = z.object({
  v: z.literal(1),
  /** The whole manifest this one is told against, or null when this one is whole. */
  base: HASH.nullable(),
  set: z.record(z.string(), Entry),
  del: z.array(z.string()),
});
type Stored = z.infer<typeof Stored>;

/** A manifest as stored: whole (`base` null) or as changes against a whole one. */
export interface Encoded {
  base: string | null;
  set: Manifest;
  del: Set<string>;
}

/** True when two entries describe the same thing. */
export function same(a: Entry | undefined, b: Entry | undefined): boolean {
  if (!a || !b) return a === b;
  switch (a.t) {
    case "f":
      return b.t === "f" && a.h === b.h && a.m === b.m;
    case "l":
      return b.t === "l" && a.to === b.to;
    case "d":
      return b.t === "d" && a.m === b.m;
    case "big":
      return b.t === "big" && a.size === b.size && a.m === b.m;
    case "skip":
      return b.t === "skip" && a.why === b.why;
  }
}

/** `now` told as changes against the whole manifest `base` (named `baseHash`). */
export function delta(baseHash: string, base: Manifest, now: Manifest): Encoded {
  const set: Manifest = new Map();
  const del = new Set<string>();
  for (const [path, entry] of now) if (!same(base.get(path), entry)) set.set(path, entry);
  for (const path of base.keys()) if (!now.has(path)) del.add(path);
  return { base: baseHash, set, del };
}

/** Updates `d` (a delta against `base`) in place for the `touched` paths of `now`. */
export function redelta(d: Encoded, base: Manifest, now: Manifest, touched: Set<string>): Encoded {
  for (const path of touched) {
    const entry = now.get(path);
    const was = base.get(path);
    d.set.delete(path);
    d.del.delete(path);
    if (!entry) {
      if (was) d.del.add(path);
    } else if (!same(was, entry)) d.set.set(path, entry);
  }
  return d;
}

/** The bytes of an encoded manifest: sorted, so the same manifest always gives the same blob. */
export function encode(m: Encoded): Buffer {
  const set: Record<string, Entry> = {};
  for (const path of [...m.set.keys()].sort()) set[path] = m.set.get(path) as Entry;
  const stored: Stored = { v: 1, base: m.base, set, del: [...m.del].sort() };
  return Buffer.from(JSON.stringify(stored));
}

/** Reads a stored manifest; throws a clear error on anything else. */
export function decode(bytes: Buffer): Encoded {
  let parsed: unknown;
  try {
    parsed = JSON.parse(bytes.toString("utf8"));
  } catch {
    throw new Error("A checkpoint's list of files is not readable JSON.");
  }
  const r = Stored.safeParse(parsed);
  if (!r.success) throw new Error(`A checkpoint's list of files is malformed: ${r.error.message}`);
  for (const path of [...Object.keys(r.data.set), ...r.data.del]) checkPath(path);
  return { base: r.data.base, set: new Map(Object.entries(r.data.set)), del: new Set(r.data.del) };
}

/** The whole manifest from a delta and its base. */
export function apply(base: Manifest, d: Encoded): Manifest {
  const m = new Map(base);
  for (const path of d.del) m.delete(path);
  for (const [path, entry] of d.set) m.set(path, entry);
  return m;
}

/**
 * Refuses a path no walk could have produced: absolute, `..`, empty parts, or inside a `.git`.
 * A damaged or planted manifest can therefore never make a restore write outside the workspace
 * or into a repository's own folder.
 */
export function checkPath(path: string): void {
  const parts = path.split("/");
  if (
    path === "" ||
    path.includes("\\") ||
    path.includes("\0") ||
    parts.some((p) => p === "" || p === "." || p === ".." || p === ".git")
  )
    throw new Error(`A checkpoint names the path "${path}", which no checkpoint can hold.`);
}

/** How one path differs between a checkpoint and now. */
export interface Change {
  path: string;
  change: "added" | "changed" | "deleted";
  /** What the path is now (added, changed) or was (deleted). */
  kind: "file" | "link" | "folder" | "other";
}

function kind(e: Entry): Change["kind"] {
  return e.t === "f" || e.t === "big" ? "file" : e.t === "l" ? "link" : e.t === "d" ? "folder" : "other";
}

/** The paths added, changed and deleted from `then` to `now`, in path order. */
export function compare(then: Manifest, now: Manifest): Change[] {
  const changes: Change[] = [];
  for (const [path, entry] of now) {
    const before = then.get(path);
    if (!before) changes.push({ path, change: "added", kind: kind(entry) });
    else if (!same(before, entry)) changes.push({ path, change: "changed", kind: kind(entry) });
  }
  for (const [path, entry] of then)
    if (!now.has(path)) changes.push({ path, change: "deleted", kind: kind(entry) });
  return changes.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** One checkpoint's version of a path, for a diff view. */
export type Version =
  | { kind: "file"; bytes: Buffer; mode: number }
  | { kind: "link"; target: string }
  | { kind: "folder" }
  | { kind: "not kept"; why: string };

/** The version the manifest entry `e` records (its bytes read from `blobs`); `maxFileBytes` names the size cap. */
export function versionOf(e: Entry, blobs: Blobs, maxFileBytes: number): Version {
  switch (e.t) {
    case "f":
      return { kind: "file", bytes: blobs.read(e.h), mode: e.m };
    case "l":
      return { kind: "link", target: e.to };
    case "d":
      return { kind: "folder" };
    case "big":
      return { kind: "not kept", why: `larger than ${sized(maxFileBytes)}` };
    case "skip":
      return { kind: "not kept", why: e.why };
  }
}
