/**
 * The small files of the checkpoint store, as zod schemas: a checkpoint's record and the intent
 * a restore writes before it changes anything.
 */
import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { z } from "zod";
import { code, removeQuietly } from "./whole-writes";
import { t } from "../../protocol/l10n";

const Note = z.object({ path: z.string(), why: z.string() });

/** One checkpoint: what it is called, whose it is, and the manifest it names. */
export const Record = z.object({
  id: z.string().regex(/^[0-9a-z]+-[0-9a-f]{8}$/),
  label: z.string(),
  /** The conversation it belongs to (dropped with it). */
  conversation: z.string(),
  /** The person's message whose answer it was taken before (absent: none, as before a restore, or older records). */
  message: z.string().optional(),
  /** When it was taken (ms since the epoch). */
  created: z.number(),
  /** The blob of its manifest. */
  manifest: z.string().regex(/^[0-9a-f]{64}$/),
  /** What it does not cover, and why. */
  notCovered: z.array(Note),
  /** Bytes the store grew by when it was taken. */
  added: z.number(),
  /** Files read when it was taken (those whose stat data had changed). */
  read: z.number(),
});
export type Checkpoint = z.infer<typeof Record>;

/** A restore's intent, written before the first change and removed after the last. */
export const Journal = z.object({
  v: z.literal(1),
  /** The checkpoint being restored. */
  target: z.string(),
  /** The checkpoint taken just before, to go back to. */
  undo: z.string(),
  started: z.number(),
});
export type Journal = z.infer<typeof Journal>;

/** A restore a crash cut short. */
export type Interrupted = Omit<Journal, "v">;

function json(path: string): unknown {
  try {
    return JSON.parse(readFileSync(path, "utf8"));
  } catch (e) {
    if (code(e) === "ENOENT") throw e;
    return undefined;
  }
}

/**
 * The checkpoint records in `folder`; a record that does not read, or whose manifest is not kept,
 * is set aside (removed) and said in `problems`. Temporary files a crash left are removed.
 */
export function readRecords(
  folder: string,
  kept: (hash: string) => boolean,
  problems: string[],
): Checkpoint[] {
  const out: Checkpoint[] = [];
  for (const name of readdirSync(folder)) {
    if (!name.endsWith(".json")) {
      if (name.endsWith(".tmp")) removeQuietly(join(folder, name));
      continue;
    }
    const r = Record.safeParse(json(join(folder, name)));
    if (!r.success || `${r.data.id}.json` !== name || !kept(r.data.manifest)) {
      problems.push(t("The checkpoint file {0} could not be read; it was set aside.", name));
      removeQuietly(join(folder, name));
      continue;
    }
    out.push(r.data);
  }
  return out;
}

/**
 * The restore a crash cut short, from its intent at `path`, if there is one; said in `problems`.
 * An intent that does not read, or whose checkpoint is gone, is said and removed.
 */
export function interruptedRestore(
  path: string,
  records: Map<string, Checkpoint>,
  problems: string[],
): Interrupted | null {
  let parsed: unknown;
  try {
    parsed = json(path);
  } catch {
    return null;
  }
  const j = Journal.safeParse(parsed);
  const target = j.success ? records.get(j.data.target) : undefined;
  if (!j.success || !target) {
    problems.push(t("A restore was interrupted, but what it was restoring can no longer be read."));
    removeQuietly(path);
    return null;
  }
  problems.push(
    t(
      'Restoring the files to "{0}" was interrupted; it can be finished, or undone with the checkpoint taken just before it.',
      target.label,
    ),
  );
  return { target: j.data.target, undo: j.data.undo, started: j.data.started };
}
