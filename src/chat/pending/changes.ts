/**
 * The agent's pending changes: files it wrote that the person has not reviewed yet, each with its
 * text from before (null: the file did not exist). The change of a file is the diff between that
 * before-text and the file now, so the person's own edits in between are part of what they keep.
 * Keeping a hunk moves it into the before-text; undoing one writes the file with it put back. A
 * file whose text equals its before-text again is settled and leaves the list, and the agent is
 * told (at its next turn) what became of what it wrote. Kept in a small JSON file, so pending
 * changes survive a window reload.
 */
import { mkdir, readFile, realpath, rename } from "node:fs/promises";
import { basename, dirname, join } from "node:path";
import { z } from "zod";
import { writeAtomic } from "../store";
import { hunksOf, keepHunk, listing, undoHunk, type Hunk } from "./diff";
import { t } from "../../protocol/l10n";

/** How Tandem reads and writes the workspace's files (the editor's documents in VS Code). */
export interface Files {
  /** The file's text now, or undefined when there is no file; throws for a file it cannot keep (binary). */
  read(path: string): Promise<string | undefined>;
  write(path: string, text: string): Promise<void>;
  remove(path: string): Promise<void>;
}

const pendingShape = z.object({
  path: z.string(),
  shown: z.string(),
  before: z.string().nullable(),
  /** The text before the agent's first write here (null: no file); never changed by the person's review. */
  original: z.string().nullable(),
  wrote: z.string(),
  at: z.number(),
  /** Where the path really led when the agent first wrote it (links resolved); an undo goes nowhere else. */
  real: z.string().optional(),
});

/** One file the agent changed and the person has not settled. */
export type Pending = z.infer<typeof pendingShape>;

const savedShape = z.object({
  version: z.literal(1),
  pending: z.array(pendingShape),
  notes: z.array(z.string()),
});

/** The largest text kept for undo (before or after): the list is one small JSON file, rewritten whole. */
export const PENDING_LIMIT = 4 * 1024 * 1024;

/** A pending file with its hunks as they are now. */
export interface Reviewed extends Pending {
  /** The file's text now (null: there is no file). */
  now: string | null;
  hunks: Hunk[];
}

/** What the person does with one hunk or a whole file. */
export type Action = "keep" | "undo";

/** The pending changes of one workspace, kept in the JSON file `file`. */
export class PendingChanges {
  private readonly byPath = new Map<string, Pending>();
  private notes: string[] = [];
  private queue: Promise<unknown> = Promise.resolve();
  private readonly listeners = new Set<() => void>();

  private constructor(
    private readonly file: string,
    private readonly files: Files,
    private readonly now: () => number,
  ) {}

  /** Opens the pending changes kept in `file` (none when it does not exist). A malformed file is set aside, not lost. */
  static async open(file: string, files: Files, now: () => number = Date.now): Promise<PendingChanges> {
    const changes = new PendingChanges(file, files, now);
    const text = await readFile(file, "utf8").catch(() => undefined);
    if (text !== undefined) {
      let parsed: ReturnType<typeof savedShape.safeParse> | undefined;
      try {
        parsed = savedShape.safeParse(JSON.parse(text));
      } catch {
        parsed = undefined;
      }
      if (parsed?.success) {
        for (const p of parsed.data.pending) changes.byPath.set(p.path, p);
        changes.notes = parsed.data.notes;
      } else {
        await rename(file, `${file}.unreadable-${now()}`).catch(() => undefined);
      }
    }
    return changes;
  }

  /** Calls `listener` after every change to the list; returns a function that stops it. */
  onChange(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** The pending files, oldest first. */
  list(): Pending[] {
    return [...this.byPath.values()].sort((a, b) => a.at - b.at);
  }

  /** The pending change of `path`, if any. */
  get(path: string): Pending | undefined {
    return this.byPath.get(path);
  }

  /** The pending change of `path` with its hunks as the file is now, or undefined. */
  async review(path: string): Promise<Reviewed | undefined> {
    const p = this.byPath.get(path);
    if (!p) return undefined;
    const now = (await this.files.read(path)) ?? null;
    return { ...p, now, hunks: hunksOf(p.before ?? "", now ?? "") };
  }

  /**
   * Writes `text` as the file `path` (shown as `shown`) as a pending change: its text before is
   * kept the first time, so a file the agent writes twice is reviewed against what the person had.
   * `recheck` runs right before the file is written: when it throws, nothing is written or kept.
   */
  write(path: string, shown: string, text: string, recheck?: () => Promise<void>): Promise<void> {
    return this.serial(async () => {
      if (text.length > PENDING_LIMIT) throw new Error(tooLarge(shown));
      const earlier = this.byPath.get(path);
      if (!earlier) {
        const before = (await this.files.read(path)) ?? null;
        if (before !== null && before.length > PENDING_LIMIT) throw new Error(tooLarge(shown));
        const real = await realOf(path);
        this.byPath.set(path, { path, shown, before, original: before, wrote: text, at: this.now(), real });
      } else {
        this.byPath.set(path, { ...earlier, wrote: text });
      }
      // The before-text is on disk before the file changes, so a crash in between loses nothing.
      await this.save();
      try {
        await recheck?.();
        await this.files.write(path, text);
      } catch (error) {
        if (earlier) this.byPath.set(path, earlier);
        else this.byPath.delete(path);
        await this.save();
        throw error;
      }
      await this.settle(path);
    });
  }

  /**
   * Keeps or undoes hunk `index` of `path` (as `review` numbers them). With `expect` (the hunk as
   * the person saw it), a file that changed meanwhile is refused rather than the wrong part touched.
   */
  hunk(path: string, index: number, action: Action, expect?: Hunk): Promise<void> {
    return this.serial(async () => {
      const p = this.byPath.get(path);
      if (!p) throw new Error(t("That change is no longer pending."));
      const now = (await this.files.read(path)) ?? "";
      if (expect) {
        const seen = hunksOf(p.before ?? "", now)[index];
        if (!seen || JSON.stringify(seen) !== JSON.stringify(expect)) {
          throw new Error(t("The file changed since this change was shown; look at it again."));
        }
      }
      if (action === "keep") {
        this.byPath.set(path, { ...p, before: keepHunk(p.before ?? "", now, index) });
        await this.save();
      } else {
        await unmoved(p);
        const back = undoHunk(p.before ?? "", now, index);
        if (p.before === null && back === "") await this.files.remove(path);
        else await this.files.write(path, back);
      }
      await this.settle(path);
    });
  }

  /** Keeps or undoes the whole pending change of `path`. */
  whole(path: string, action: Action): Promise<void> {
    return this.serial(async () => {
      const p = this.byPath.get(path);
      if (!p) return;
      if (action === "keep") {
        const now = (await this.files.read(path)) ?? null;
        this.byPath.set(path, { ...p, before: now });
      } else {
        await unmoved(p);
        if (p.before === null) await this.files.remove(path);
        else await this.files.write(path, p.before);
      }
      await this.settle(path);
    });
  }

  /** Keeps or undoes every pending change. */
  async all(action: Action): Promise<void> {
    for (const p of this.list()) await this.whole(p.path, action);
  }

  /**
   * The files `paths` were put back to a checkpoint. A file back as it was before the agent's
   * first write here (or as its before-text) leaves the list, and the agent is told at its next
   * turn; one put back to a state that still holds part of the agent's change stays pending,
   * reviewed against the same before-text.
   */
  restored(paths: readonly string[]): Promise<void> {
    return this.serial(async () => {
      let changed = false;
      for (const path of paths) {
        const p = this.byPath.get(path);
        if (!p) continue;
        const now = (await this.files.read(path).catch(() => undefined)) ?? null;
        if (now === p.original || now === p.before) {
          this.byPath.delete(path);
          this.notes.push(`${p.shown}: the person restored the files to a checkpoint; your change is gone.`);
        } else this.byPath.set(path, { ...p, wrote: now ?? "" });
        changed = true;
      }
      if (!changed) return;
      await this.save();
      for (const listener of this.listeners) listener();
    });
  }

  /**
   * What the agent is told at its next turn: what became of each change settled since it was
   * last told, and what the person changed in a file still pending. Told once.
   */
  take(): Promise<string[]> {
    return this.serial(async () => {
      const out = this.notes;
      this.notes = [];
      for (const p of this.list()) {
        const now = (await this.files.read(p.path).catch(() => undefined)) ?? null;
        if (now !== null && now !== p.wrote) {
          out.push(
            `${p.shown} (still pending the person's review): the person changed it; it now differs from what you wrote:\n${listing(p.wrote, now)}`,
          );
          this.byPath.set(p.path, { ...p, wrote: now });
        }
      }
      if (out.length) await this.save();
      return out;
    });
  }

  /** Drops `path` from the list when nothing of its change is left to review, noting what became of it. */
  private async settle(path: string): Promise<void> {
    const p = this.byPath.get(path);
    if (p) {
      const now = (await this.files.read(path)) ?? null;
      if (now === p.before) {
        this.byPath.delete(path);
        this.notes.push(outcome(p, now));
      }
    }
    await this.save();
    for (const listener of this.listeners) listener();
  }

  private async save(): Promise<void> {
    await mkdir(dirname(this.file), { recursive: true });
    const saved: z.infer<typeof savedShape> = { version: 1, pending: this.list(), notes: this.notes };
    await writeAtomic(this.file, JSON.stringify(saved));
  }

  /** Runs `work` after every earlier one: reads and writes of a file never interleave. */
  private serial<T>(work: () => Promise<T>): Promise<T> {
    const next = this.queue.then(work, work);
    this.queue = next.catch(() => undefined);
    return next;
  }
}

/** The real path of `path`: of the file, or of its nearest existing folder joined with the rest. */
async function realOf(path: string): Promise<string> {
  const rest: string[] = [];
  for (let at = path; ; at = dirname(at)) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return join(real, ...rest.reverse());
    if (dirname(at) === at) return path;
    rest.push(basename(at));
  }
}

/**
 * Throws when `p`'s path leads elsewhere than when the agent wrote it: a link swapped in since
 * (into `.git/hooks`, say) would make an undo write the text from before there.
 */
async function unmoved(p: Pending): Promise<void> {
  if (p.real === undefined) return;
  const now = await realOf(p.path);
  if (now !== p.real)
    throw new Error(
      `${p.shown} was not undone: a symbolic link now leads it to ${now}, not where Tandem wrote it. Look at it before changing it.`,
    );
}

function tooLarge(shown: string): string {
  return `${shown} is too large to keep for undo (over ${PENDING_LIMIT / 1024 / 1024} MB of text); it was not changed. The person can set tandem.edits.mode to "ask" to review such edits before they are written.`;
}

/** What the agent is told about a settled change: kept as written, undone, or kept in part or edited. */
export function outcome(p: Pending, now: string | null): string {
  if (now === p.wrote) return `${p.shown}: the person kept your change as you wrote it.`;
  if (now === p.original) {
    return now === null
      ? `${p.shown}: the person undid your change; the file was removed (it did not exist before).`
      : `${p.shown}: the person undid your change; the file is as it was before.`;
  }
  if (now === null) return `${p.shown}: the file was removed.`;
  return `${p.shown}: the person kept part of your change or edited it; the file now differs from what you wrote:\n${listing(p.wrote, now)}`;
}
