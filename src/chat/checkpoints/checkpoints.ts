/**
 * The checkpoint store of one workspace, kept in the extension's storage folder: `save` records
 * what is needed to put the workspace back (only files whose stat data changed are read and
 * kept), `restore` puts it back byte for byte touching only what differs, `diff` and `read` show
 * a checkpoint against now, `drop` and `dropFor` free the storage. The person's `.git` is never
 * read, written or renamed.
 * Crash safety: blobs, manifests and checkpoint records are each written whole (temporary file,
 * fsync, rename), the record last, so a save cut short shows no checkpoint; a restore writes its
 * intent first and is finished (or reported) on the next open.
 */
import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, readdirSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { Blobs } from "./blobs";
import { overLimit, unneeded } from "./collect";
import { removeQuietly, syncFolder, writeWhole } from "./whole-writes";
import { t } from "../../protocol/l10n";
import { reason } from "../../agent/perform";
import { interruptedRestore, readRecords, type Checkpoint, type Interrupted, type Journal } from "./records";
import { ManifestCache } from "./manifest-cache";
import {
  compare,
  delta,
  encode,
  redelta,
  type Change,
  type Encoded,
  type Entry,
  type Manifest,
  versionOf,
  type Version,
} from "./manifest";
import { applyPlan, filesOf, plan } from "./put-back";
import type { Ignore, Note } from "./stat-walk";
import { Survey, type Looked as Scanned } from "./survey";
import { StatIndex } from "./stat-index";
import { tryLock, type Lock } from "../store";

export type { Version } from "./manifest";
export type { Checkpoint, Interrupted } from "./records";
export type { Change, Entry } from "./manifest";
export type { Note, Ignore } from "./stat-walk";

/** Where the workspace and the store are, and the limits. */
export interface Options {
  /** The workspace folder. */
  root: string;
  /** The store's folder (in the extension's storage). */
  folder: string;
  /** Paths left out of checkpoints (`.git` and the store itself always are). */
  ignore?: Ignore;
  /** Files larger than this are recorded with a note, never copied (default 50 MB). */
  maxFileBytes?: number;
  /** The store's size limit: the oldest checkpoints are dropped past it (default 2 GB). */
  maxTotalBytes?: number;
  /** Keep text deflated (default true). */
  compress?: boolean;
  /** Let a watcher say what changed, so a checkpoint need not walk the tree (default true). */
  watch?: boolean;
}

/** What a restore did. */
export interface Restored {
  /** The checkpoint taken just before, to undo the restore. */
  undo: string;
  /** Paths written or removed. */
  changed: number;
  /** The files (not folders) written or removed, and whether each was there in the checkpoint. */
  files: { path: string; removed: boolean }[];
  /** Paths left as they were, and why (too large, not covered, in the way). */
  notRestored: Note[];
}

/** Progress: told the path just read or written (also lets tests stop a process at any step). */
export type Step = (path: string) => void;

// A manifest is stored whole again once its changes against the last whole one pass this share.
const REBASE_SHARE = 8;

/** The checkpoint store; see the file's comment. */
export class Checkpoints {
  /** What was wrong in the store when it was opened, in words for the person. */
  readonly problems: string[] = [];
  /** A restore that a crash cut short, to finish with `finishRestore` or set aside with `abandonRestore`. */
  interrupted: Interrupted | null = null;

  private readonly records = new Map<string, Checkpoint>();
  private readonly manifests: ManifestCache;
  private readonly survey: Survey;
  /** The last stored delta (against the base), brought up to date by the next checkpoint. */
  private pending: Encoded | null = null;
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;
  private readonly root: string;
  private readonly folder: string;
  private readonly ignore: Ignore;
  private maxFileBytes: number;
  private maxTotalBytes: number;

  private constructor(
    o: Options,
    private readonly blobs: Blobs,
    private readonly index: StatIndex,
    private readonly lock: Lock,
  ) {
    this.root = resolve(o.root);
    this.folder = resolve(o.folder);
    this.ignore = o.ignore ?? (() => false);
    this.maxFileBytes = o.maxFileBytes ?? 50 * 1024 * 1024;
    this.maxTotalBytes = o.maxTotalBytes ?? 2 * 1024 * 1024 * 1024;
    this.manifests = new ManifestCache(blobs);
    const skip = new Set([this.folder]);
    try {
      skip.add(realpathSync(this.folder));
    } catch {
      // The store folder was just made; its resolved path is enough.
    }
    this.survey = new Survey(
      { root: this.root, ignore: this.ignore, skip, maxFileBytes: this.maxFileBytes, index: this.index },
      o.watch ?? true,
    );
  }

  /** Opens the store (one writer per store: another window's open store is refused with a clear error). */
  static async open(o: Options): Promise<Checkpoints> {
    const folder = resolve(o.folder);
    mkdirSync(join(folder, "checkpoints"), { recursive: true });
    const lock = tryLock(join(folder, "lock"));
    if (!lock) throw new Error("The checkpoints of this workspace are open in another window.");
    try {
      // Whatever a crash left half-written is not part of anything.
      rmSync(join(folder, "tmp"), { recursive: true, force: true });
      for (const name of readdirSync(folder)) if (name.endsWith(".tmp")) removeQuietly(join(folder, name));
      mkdirSync(join(folder, "tmp"));
      const blobs = Blobs.open(join(folder, "blobs"), join(folder, "tmp"), o.compress ?? true);
      const c = new Checkpoints(o, blobs, StatIndex.load(join(folder, "index")), lock);
      c.load();
      return c;
    } catch (e) {
      lock.release();
      throw e;
    }
  }

  /** The checkpoints, oldest first (of one conversation when given). */
  list(conversation?: string): Checkpoint[] {
    return [...this.records.values()]
      .filter((r) => conversation === undefined || r.conversation === conversation)
      .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
  }

  /** Why checkpoints walk the whole workspace instead of following the watcher (null: they follow it). */
  get walking(): string | null {
    return this.survey.distrust;
  }

  /** Bytes the store's kept copies take. */
  get totalBytes(): number {
    return this.blobs.total;
  }

  /** Sets the size limits the next checkpoint keeps to (a new file limit makes it walk the whole workspace). */
  async setLimits(maxFileBytes: number, maxTotalBytes: number): Promise<void> {
    if (maxFileBytes === this.maxFileBytes && maxTotalBytes === this.maxTotalBytes) return;
    await this.serial(() => {
      if (maxFileBytes !== this.maxFileBytes) this.survey.setMaxFileBytes(maxFileBytes);
      this.maxFileBytes = maxFileBytes;
      this.maxTotalBytes = maxTotalBytes;
    });
  }

  /** Records the workspace as it is now (before the answer to `message`, when given); returns the checkpoint. */
  save(label: string, conversation: string, step?: Step, message?: string): Promise<Checkpoint> {
    return this.serial(
      async () => (await this.saveNow(label, conversation, step, undefined, false, message)).record,
    );
  }

  /** Puts the workspace back as checkpoint `id` recorded it, after a checkpoint of how it is now. */
  restore(id: string, step?: Step): Promise<Restored> {
    return this.serial(async () => {
      const record = this.need(id);
      const target = this.manifests.get(record.manifest);
      // A whole walk, not the watcher's report: what the restore overwrites must be kept exactly.
      const undo = await this.saveNow(
        t('Before restoring "{0}"', record.label),
        record.conversation,
        undefined,
        id,
        true,
      );
      const journal: Journal = { v: 1, target: id, undo: undo.record.id, started: Date.now() };
      writeWhole(join(this.folder, "restoring.json"), JSON.stringify(journal));
      return this.putBack(target, undo.manifest, undo.record.id, step);
    });
  }

  /** Finishes the restore a crash cut short (the workspace ends as its checkpoint recorded it). */
  finishRestore(step?: Step): Promise<Restored> {
    return this.serial(async () => {
      const cut = this.interrupted;
      if (!cut) throw new Error("No restore was interrupted.");
      const now = (await this.survey.look(undefined)).manifest;
      return this.putBack(this.manifests.get(this.need(cut.target).manifest), now, cut.undo, step);
    });
  }

  /** Leaves an interrupted restore as it is (its "before" checkpoint stays, to go back to). */
  abandonRestore(): Promise<void> {
    return this.serial(() => {
      removeQuietly(join(this.folder, "restoring.json"));
      this.interrupted = null;
    });
  }

  /** The paths added, changed and deleted between checkpoint `id` and now. */
  diff(id: string): Promise<Change[]> {
    return this.serial(async () =>
      compare(this.manifests.get(this.need(id).manifest), (await this.survey.look(undefined)).manifest),
    );
  }

  /** Every path checkpoint `id` recorded, and what it was. */
  entries(id: string): Promise<ReadonlyMap<string, Entry>> {
    return this.serial(() => this.manifests.get(this.need(id).manifest));
  }

  /** Checkpoint `id`'s version of `path` (null: the path was not there). */
  read(id: string, path: string): Promise<Version | null> {
    return this.serial(() => {
      const e: Entry | undefined = this.manifests.get(this.need(id).manifest).get(path);
      return e ? versionOf(e, this.blobs, this.maxFileBytes) : null;
    });
  }

  /** Drops checkpoint `id` and the copies no other checkpoint needs. */
  drop(id: string): Promise<void> {
    return this.serial(() => this.dropNow([id]));
  }

  /** Drops every checkpoint of a conversation (when the conversation is deleted). */
  dropFor(conversation: string): Promise<void> {
    return this.serial(() => this.dropNow(this.list(conversation).map((r) => r.id)));
  }

  /** Waits for what is under way and lets the store go. */
  async close(): Promise<void> {
    await this.serial(() => {
      this.closed = true;
      this.survey.close();
      this.index.save();
      this.lock.release();
    });
  }

  private serial<T>(work: () => T | Promise<T>): Promise<T> {
    const next = this.queue.then(() => {
      if (this.closed) throw new Error("The checkpoint store is closed.");
      return work();
    });
    this.queue = next.catch(() => undefined);
    return next;
  }

  private need(id: string): Checkpoint {
    const r = this.records.get(id);
    if (!r) throw new Error(`There is no checkpoint "${id}" (it may have been dropped).`);
    return r;
  }

  private async saveNow(
    label: string,
    conversation: string,
    step?: Step,
    keep?: string,
    whole = false,
    message?: string,
  ) {
    // Until it is removed, the marker says a crash may have left copies nothing refers to.
    const marker = join(this.folder, "dirty");
    writeFileSync(marker, "");
    let record: Checkpoint;
    let manifest: Manifest;
    try {
      const scanned = await this.survey.look(this.blobs, step, whole);
      manifest = scanned.manifest;
      const encoded = this.encoded(scanned);
      // Nothing changed since the whole manifest: the checkpoint names that one (an unchanged tree dedupes).
      const empty = encoded.base !== null && !encoded.set.size && !encoded.del.size;
      const put = empty ? { hash: encoded.base as string, added: 0 } : this.blobs.put(encode(encoded));
      await this.blobs.commit();
      if (encoded.base === null) {
        // A copy: the survey goes on changing its own manifest in place.
        this.manifests.setBase(put.hash, new Map(manifest));
        this.pending = { base: put.hash, set: new Map(), del: new Set() };
      } else this.pending = encoded;
      record = {
        id: `${Date.now().toString(36).padStart(9, "0")}-${randomBytes(4).toString("hex")}`,
        label,
        conversation,
        ...(message === undefined ? {} : { message }),
        created: Date.now(),
        manifest: put.hash,
        notCovered: scanned.notCovered,
        added: 0,
        read: scanned.read,
      };
      record.added = scanned.added + put.added + Buffer.byteLength(JSON.stringify(record));
      // The record is written last: until it is there, the checkpoint does not exist.
      writeWhole(join(this.folder, "checkpoints", `${record.id}.json`), JSON.stringify(record));
    } catch (e) {
      this.blobs.abandon();
      this.survey.forget();
      this.pending = null;
      throw e;
    }
    this.records.set(record.id, record);
    this.index.save();
    removeQuietly(marker);
    this.limit(new Set([record.id, keep ?? record.id]));
    return { record, manifest };
  }

  /** The manifest to store: changes against the last whole one, or whole when they grew too many. */
  private encoded(scanned: Scanned): Encoded {
    const base = this.manifests.base;
    const now = scanned.manifest;
    let d: Encoded | null = null;
    if (base && scanned.touched && this.pending?.base === base.hash)
      d = redelta(this.pending, base.manifest, now, scanned.touched);
    else if (base) d = delta(base.hash, base.manifest, now);
    if (!d || d.set.size + d.del.size > Math.max(64, now.size / REBASE_SHARE))
      return { base: null, set: now, del: new Set() };
    return d;
  }

  private async putBack(target: Manifest, now: Manifest, undo: string, step?: Step): Promise<Restored> {
    const p = plan(now, target);
    const nonce = randomBytes(4).toString("hex");
    const failed = await applyPlan(p, { root: this.root, blobs: this.blobs, index: this.index, nonce, step });
    this.index.save();
    removeQuietly(join(this.folder, "restoring.json"));
    syncFolder(this.folder);
    this.interrupted = null;
    const changed = p.remove.length + p.write.length - failed.length;
    return { undo, changed, files: filesOf(p, failed), notRestored: [...p.left, ...failed] };
  }

  /** Drops the oldest checkpoints until the kept copies fit the size limit (never those in `keep`). */
  private limit(keep: Set<string>): void {
    if (this.blobs.total <= this.maxTotalBytes) return;
    const sizeOf = (h: string) => this.blobs.sizeOf(h);
    const drop = overLimit(this.list(), this.manifests, sizeOf, this.maxTotalBytes, keep);
    if (drop.length) this.dropNow(drop);
  }

  private dropNow(ids: string[]): void {
    const marker = join(this.folder, "dirty");
    writeFileSync(marker, "");
    for (const id of ids) {
      removeQuietly(join(this.folder, "checkpoints", `${id}.json`));
      this.records.delete(id);
    }
    syncFolder(join(this.folder, "checkpoints"));
    this.collect();
    removeQuietly(marker);
  }

  /** Deletes every blob no checkpoint needs, and forgets them in the index. */
  private collect(): void {
    const { gone, unreadable } = unneeded([...this.records.values()], this.manifests, [
      ...this.blobs.names(),
    ]);
    for (const { record, error } of unreadable) {
      // A checkpoint that cannot be read cannot be restored either: it goes with the rest.
      this.problems.push(t('Checkpoint "{0}" could not be read and was dropped: {1}', record.label, error));
      removeQuietly(join(this.folder, "checkpoints", `${record.id}.json`));
      this.records.delete(record.id);
    }
    for (const h of gone) {
      this.blobs.remove(h);
      this.manifests.forget(h);
    }
    if (gone.size) {
      // The last look and delta may name copies that are gone.
      this.survey.forget();
      this.pending = null;
    }
    this.index.forget(gone);
    this.index.save();
  }

  private load(): void {
    for (const r of readRecords(join(this.folder, "checkpoints"), (h) => this.blobs.has(h), this.problems))
      this.records.set(r.id, r);
    // The newest checkpoint is the base of the next one. One whose manifest no longer reads is
    // dropped and said, and the one before it tried: a damaged copy must not stop every later save.
    for (let newest = this.list().at(-1); newest; newest = this.list().at(-1)) {
      try {
        const [whole] = this.manifests.parts(newest.manifest).slice(-1);
        this.manifests.setBase(whole, this.manifests.get(whole));
        break;
      } catch (error) {
        this.problems.push(
          t('Checkpoint "{0}" could not be read and was dropped: {1}', newest.label, reason(error)),
        );
        removeQuietly(join(this.folder, "checkpoints", `${newest.id}.json`));
        this.records.delete(newest.id);
        writeFileSync(join(this.folder, "dirty"), "");
      }
    }
    // A save or drop cut short may have left copies nothing refers to.
    if (existsSync(join(this.folder, "dirty"))) {
      this.collect();
      removeQuietly(join(this.folder, "dirty"));
    }
    this.interrupted = interruptedRestore(join(this.folder, "restoring.json"), this.records, this.problems);
  }
}
