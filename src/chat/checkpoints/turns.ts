/**
 * Checkpoints of the answers: before the first call of an answer that may write (an edit, a new
 * file, a command, a plugin's tool), every workspace folder is recorded in its own checkpoint store
 * (under the extension's storage), named after the person's message. The checkpoint record keeps
 * the message's id, so "the files as they were before this message's answer" is known after a
 * reload: the earliest checkpoint of the conversation taken at or after that message (the state
 * before the agent wrote anything after it). Restoring puts every folder back to it. A forked
 * conversation's copied messages are found by the originals they name (see forks.ts).
 * The person's settings are read again before each use: a change applies to the next checkpoint.
 */
import { createHash } from "node:crypto";
import { join, resolve } from "node:path";
import { Checkpoints, type Change, type Checkpoint, type Restored, type Version } from "./checkpoints";
import type { Ignore } from "./stat-walk";
import { originals } from "./forks";
import { finishedText, notRestoredText, quoted, reasonText, restoredText } from "./words";
import type { Item } from "../row-schemas";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/** A workspace folder: where it is, and its name as the person knows it. */
export interface Folder {
  root: string;
  name: string;
}

/** The person's checkpoint settings (read from their own levels only). */
export interface CheckpointSettings {
  enabled: boolean;
  /** Files larger than this are noted, never copied. */
  maxFileBytes: number;
  /** The oldest checkpoints are dropped past this total. */
  maxTotalBytes: number;
}

/** What the answers' checkpoints need. */
export interface TurnOptions {
  /** The workspace folders now. */
  folders(): readonly Folder[];
  /** The folder the stores live in (the extension's storage). */
  storage: string;
  settings(): CheckpointSettings;
  /** The items of the conversation `chat`, to find a copied message's original (none: not followed). */
  items?(chat: string): readonly Item[];
  /** Paths each folder's checkpoints leave out (default: the folders of REGENERATED). */
  ignore?: Ignore;
  /** Let a watcher say what changed (default true). */
  watch?: boolean;
}

/** One folder's checkpoint for a message. */
export interface Taken {
  folder: Folder;
  store: Checkpoints;
  checkpoint: Checkpoint;
}

/** A path that differs between a checkpoint and now. */
export interface Since extends Change {
  folder: Folder;
  checkpoint: string;
}

/** What a restore did, for the caller to settle what depends on the files (pending changes). */
export interface Done {
  /** The sentence for the person. */
  text: string;
  /** The absolute paths of the files the restore wrote or removed. */
  files: string[];
}

/** A restore a crash cut short, in one folder. */
export interface Cut {
  folder: Folder;
  label: string;
}

/**
 * Folders a package manager or a tool fills again by itself (dependencies, caches): not recorded
 * unless the caller says otherwise. Recording them would make the first checkpoint of a project a
 * copy of its dependencies (hundreds of MB) — the cost people hate in shadow-git checkpoints.
 */
export const REGENERATED = new Set([
  "node_modules",
  ".venv",
  "venv",
  "__pycache__",
  ".mypy_cache",
  ".pytest_cache",
  ".ruff_cache",
  ".tox",
  ".gradle",
  ".next",
  ".nuxt",
  ".turbo",
  ".parcel-cache",
]);

/** Leaves out folders named in REGENERATED, wherever they are. */
export const leaveRegenerated: Ignore = (path, folder) =>
  folder && REGENERATED.has(path.slice(path.lastIndexOf("/") + 1));

/** The checkpoints of every workspace folder, taken before the answers that may write. */
export class TurnCheckpoints {
  private readonly stores = new Map<string, Promise<Checkpoints>>();

  constructor(private readonly o: TurnOptions) {}

  /** Whether the person has checkpoints on. */
  get enabled(): boolean {
    return this.o.settings().enabled;
  }

  /**
   * Records every folder before the answer to `message` writes (the runner calls it once per
   * answer, before its first call that may write). Throws what failed, in words for the person.
   */
  async before(message: Item): Promise<void> {
    if (!this.enabled) return;
    const label = quoted(message.text);
    const failed: string[] = [];
    for (const folder of this.o.folders()) {
      try {
        const store = await this.store(folder);
        await store.save(label, message.chat, undefined, message.id);
      } catch (error) {
        failed.push(`${folder.name}: ${reason(error)}`);
      }
    }
    if (failed.length) throw new Error(t("No checkpoint was taken ({0}).", failed.join("; ")));
  }

  /**
   * Each folder's checkpoint to go back to for `message`: the first taken before an answer from it on.
   * A fork's copied messages were answered in their originals: their checkpoints come first, then the
   * earliest of the conversation's own at or after `message`.
   */
  async targets(message: Item): Promise<Taken[]> {
    const copied = originals(this.o.items?.(message.chat) ?? [], message);
    const out: Taken[] = [];
    for (const folder of this.o.folders()) {
      const store = await this.store(folder);
      const all = store.list();
      const earliest = new Map<string, Checkpoint>();
      for (const c of all) {
        const key = c.message === undefined ? "" : `${c.conversation}\n${c.message}`;
        if (key && !earliest.has(key)) earliest.set(key, c);
      }
      const checkpoint =
        copied.map((a) => earliest.get(`${a.chat}\n${a.message}`)).find((c) => c !== undefined) ??
        all.find(
          (c) => c.conversation === message.chat && c.message !== undefined && c.message >= message.id,
        );
      if (checkpoint) out.push({ folder, store, checkpoint });
    }
    return out;
  }

  /**
   * The paths that differ between the checkpoint of `message` and now, in every folder (`targets`:
   * its checkpoints, when they are known already).
   */
  async since(message: Item, targets?: readonly Taken[]): Promise<Since[]> {
    const out: Since[] = [];
    for (const t of targets ?? (await this.targets(message)))
      for (const c of await t.store.diff(t.checkpoint.id))
        if (c.kind !== "folder") out.push({ ...c, folder: t.folder, checkpoint: t.checkpoint.id });
    return out;
  }

  /** Checkpoint `id`'s version of `path` in the folder at `root`. */
  async read(root: string, id: string, path: string): Promise<Version | null> {
    const folder = this.o.folders().find((f) => resolve(f.root) === resolve(root));
    if (!folder) throw new Error(t("That folder is no longer in the workspace."));
    return (await this.store(folder)).read(id, path);
  }

  /**
   * Puts every folder back as it was before the answer to `message` (`targets`: its checkpoints,
   * when they are known already); says what was done, and what a checkpoint could not cover. Throws
   * when there is nothing to go back to.
   */
  async restore(message: Item, targets?: readonly Taken[]): Promise<Done> {
    targets ??= await this.targets(message);
    if (!targets.length) throw new Error(t("Tandem changed no file since {0}.", quoted(message.text)));
    const done: { folder: Folder; restored: Restored }[] = [];
    for (const t of targets)
      done.push({ folder: t.folder, restored: await t.store.restore(t.checkpoint.id) });
    return { text: this.told(message, done), files: this.paths(done) };
  }

  /** The restores a crash cut short, in every folder. */
  async interrupted(): Promise<Cut[]> {
    const out: Cut[] = [];
    for (const folder of this.o.folders()) {
      const store = await this.store(folder).catch(() => undefined);
      const cut = store?.interrupted;
      const label = cut && store.list().find((c) => c.id === cut.target)?.label;
      if (cut) out.push({ folder, label: label ?? "" });
    }
    return out;
  }

  /** Finishes (or leaves as they are) the restores a crash cut short; says what was done. */
  async settleInterrupted(finish: boolean): Promise<Done> {
    const done: { folder: Folder; restored: Restored }[] = [];
    for (const { folder } of await this.interrupted()) {
      const store = await this.store(folder);
      if (finish) done.push({ folder, restored: await store.finishRestore() });
      else await store.abandonRestore();
    }
    if (!finish) return { text: t("The files were left as they are."), files: [] };
    const changed = done.reduce((n, d) => n + d.restored.changed, 0);
    return { text: finishedText(changed), files: this.paths(done) };
  }

  /** Drops the checkpoints of the conversation `chat` in every folder (it was deleted). */
  async dropFor(chat: string): Promise<void> {
    for (const folder of this.o.folders()) await (await this.store(folder)).dropFor(chat);
  }

  /** Drops the checkpoints of every conversation not in `kept` (deleted while the window was closed). */
  async keepOnly(kept: ReadonlySet<string>): Promise<void> {
    for (const folder of this.o.folders()) {
      const store = await this.store(folder);
      const gone = new Set(store.list().map((c) => c.conversation));
      for (const chat of gone) if (!kept.has(chat)) await store.dropFor(chat);
    }
  }

  /** Closes every store. */
  async close(): Promise<void> {
    const open = [...this.stores.values()];
    this.stores.clear();
    for (const s of open) await (await s.catch(() => undefined))?.close();
  }

  /**
   * The store of `folder`, opened on first use (its own folder under the storage, named by the root's
   * hash), with the size limits the person's settings say now.
   */
  async store(folder: Folder): Promise<Checkpoints> {
    const store = await this.opened(folder);
    const s = this.o.settings();
    await store.setLimits(s.maxFileBytes, s.maxTotalBytes);
    return store;
  }

  private opened(folder: Folder): Promise<Checkpoints> {
    const root = resolve(folder.root);
    let open = this.stores.get(root);
    if (!open) {
      const s = this.o.settings();
      const name = createHash("sha256").update(root).digest("hex").slice(0, 16);
      open = Checkpoints.open({
        root,
        folder: join(this.o.storage, "checkpoints", name),
        ignore: this.o.ignore ?? leaveRegenerated,
        maxFileBytes: s.maxFileBytes,
        maxTotalBytes: s.maxTotalBytes,
        watch: this.o.watch,
      });
      // A store that failed to open is tried again next time (another window may have let it go).
      open.catch(() => this.stores.delete(root));
      this.stores.set(root, open);
    }
    return open;
  }

  private paths(done: { folder: Folder; restored: Restored }[]): string[] {
    return done.flatMap((d) => d.restored.files.map((f) => join(d.folder.root, ...f.path.split("/"))));
  }

  /** The sentence for the person: what was put back, what was removed, what was not covered. */
  private told(message: Item, done: { folder: Folder; restored: Restored }[]): string {
    const all = done.flatMap((d) => d.restored.files);
    const removed = all.filter((f) => f.removed).length;
    const put = all.length - removed;
    const several = done.length > 1;
    const left = done.flatMap((d) =>
      d.restored.notRestored.map(
        (n) => `${several ? `${d.folder.name}/` : ""}${n.path} (${reasonText(n.why)})`,
      ),
    );
    const notRestored = notRestoredText(left);
    return restoredText(message.text, put, removed) + (notRestored ? ` ${notRestored}` : "");
  }
}
