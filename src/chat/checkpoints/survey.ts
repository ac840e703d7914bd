/**
 * What the workspace holds now, found as cheaply as can be trusted: the last walk brought up to
 * date from the watcher's report (cost in proportion to what changed), or a whole stat walk when
 * there is no trusted report — the first time, after the watcher failed, after many changes, and
 * regularly (every 20 checkpoints or 10 minutes) to check the watcher: a whole walk that finds a
 * change the watcher did not report stops trusting it for the rest of the session.
 */
import { compare, type Manifest } from "./manifest";
import { noteOf, rescan, scan, type Note, type ScanOptions, type Scanned } from "./stat-walk";
import { Watch } from "./watch";

const WALK_EVERY = 20;
const WALK_MS = 10 * 60_000;

/** Options of a survey: the walk's, less what each look decides. */
export type SurveyOptions = Omit<ScanOptions, "blobs" | "step" | "entered" | "gone">;

/** A look at the workspace, with what it does not cover. */
export interface Looked extends Scanned {
  notCovered: Note[];
}

function listed(notes: Map<string, string>): Note[] {
  return [...notes].map(([path, why]) => ({ path, why })).sort((a, b) => (a.path < b.path ? -1 : 1));
}

/** The surveys of one workspace. */
export class Survey {
  /** Why the watcher is not used (none: it is). */
  distrust: string | null = null;
  private readonly watch: Watch | null;
  private last: Manifest | null = null;
  private notes = new Map<string, string>();
  private walkedAt = 0;
  private since = 0;

  constructor(
    private o: SurveyOptions,
    watch: boolean,
  ) {
    this.watch = watch ? new Watch() : null;
    if (!watch) this.distrust = "watching is off";
  }

  /**
   * The workspace now. With `keep`, changed files are stored and this look becomes the base of
   * the next (a checkpoint); without, it is only looked at (a diff). `whole` walks everything.
   */
  async look(keep: ScanOptions["blobs"], step?: ScanOptions["step"], whole = false): Promise<Looked> {
    // Let the events of changes made before this moment arrive (libuv reads them all in one poll).
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    // A watcher found wanting is not armed again this session.
    const w = this.distrust ? null : this.watch;
    const o: ScanOptions = {
      ...this.o,
      blobs: keep,
      step,
      entered: (path, absolute) => w?.add(path, absolute),
      gone: (path) => w?.remove(path),
    };
    const trusted = w && !w.broken && this.last;
    const due = whole || this.since >= WALK_EVERY || Date.now() - this.walkedAt > WALK_MS;
    if (trusted && !due) {
      const last = this.last as Manifest;
      const scanned = await rescan(o, keep ? last : new Map(last), keep ? w.take() : w.peek());
      const notes = keep ? this.notes : new Map(this.notes);
      for (const path of scanned.touched ?? []) {
        const why = noteOf(scanned.manifest.get(path), this.o.maxFileBytes);
        if (why) notes.set(path, why);
        else notes.delete(path);
      }
      if (keep) this.since++;
      return { ...scanned, notCovered: listed(notes) };
    }
    const reported = trusted ? (keep ? w.take() : w.peek()) : null;
    if (w && !trusted && keep) w.reset();
    // Files known to be hard-linked before this walk were looked at every time; not those found now.
    const linked = new Set(this.o.index.linked);
    const scanned = await scan(o);
    if (reported && this.last) this.check(this.last, scanned.manifest, reported, linked);
    const notes = new Map<string, string>();
    for (const [path, e] of scanned.manifest) {
      const why = noteOf(e, this.o.maxFileBytes);
      if (why) notes.set(path, why);
    }
    if (keep) {
      this.last = scanned.manifest;
      this.notes = notes;
      this.walkedAt = Date.now();
      this.since = 0;
    }
    return { ...scanned, notCovered: listed(notes) };
  }

  /** Keeps files up to `bytes` from now on; the next look walks everything, as any file may be on the other side now. */
  setMaxFileBytes(bytes: number): void {
    this.o = { ...this.o, maxFileBytes: bytes };
    this.forget();
  }

  /** Forgets the last look (its copies may be gone): the next one walks the whole workspace. */
  forget(): void {
    this.last = null;
  }

  /** Stops watching. */
  close(): void {
    this.watch?.close();
  }

  /** Every change between two walks must be one the watcher reported (or under one). */
  private check(then: Manifest, now: Manifest, reported: Set<string>, linked: Set<string>): void {
    for (const c of compare(then, now)) {
      let path = c.path;
      // Hard-linked files are looked at every time, events or not.
      let said = reported.has(path) || linked.has(path);
      while (!said && path.includes("/")) {
        path = path.slice(0, path.lastIndexOf("/"));
        said = reported.has(path);
      }
      if (said) continue;
      this.distrust = `the watcher missed a change to "${c.path}"; every checkpoint now walks the workspace`;
      this.watch?.close();
      return;
    }
  }
}
