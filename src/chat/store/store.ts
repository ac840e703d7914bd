/**
 * The durable store of Tandem's conversation tables, one per workspace, in a folder the editor
 * gives (its storage folder for the workspace; global storage when no folder is open).
 *
 * On disk: `journal.jsonl`, an append-only journal where each line is one change of one row (see
 * lines.ts); `journal.lock`, the writer's lock; `journal.corrupt.jsonl`, the lines a crash
 * or a bad disk left unreadable, kept for the record.
 *
 * Using it:
 *   const store = await Store.open(folder, { onProblem: (text) => show(text) });
 *   store.put("conversations", conversation(agentId));     // in memory and seen at once
 *   await store.putDurable("items", asked(text, chat));     // resolves once it is on disk (fsync)
 *   const stop = store.follow({ table: "items", where: { chat } }, (change) => draw(change));
 *   store.items(chat); store.conversations(); store.search("words"); store.get("items", key);
 *   await store.close();
 *
 * Writes. `put` and `delete` are synchronous: the row is checked (a bad one throws a RowError and
 * nothing is written), the in-memory tables change and every matching subscriber is told at once,
 * then the line is queued and written within a moment; a process killed after that loses nothing.
 * `flush()` resolves once everything put before it is written and fsynced (`putDurable` is put +
 * flush): await it before a run answers a person's message. A put of an item that is not `done`
 * (a growing answer) is coalesced: at most one journal write every 50 ms per item, the latest row
 * winning, and only its new words are written. Subscribers still see every put at once.
 *
 * Two windows. The first to open takes the lock (its pid inside) and is the one writer. Another
 * opener is a reader: `writable` is false, a write throws a ReadOnlyError, and it follows the
 * journal (every `followMs`), giving its subscribers the rows the writer changes; when the writer
 * closes or its process dies, the reader takes the lock, becomes the writer and calls
 * `onWritable`. Only one process ever appends or compacts, so lines never interleave.
 *
 * Crashes. Loading replays the journal; a torn or bad last line is cut off, a bad line in the
 * middle is skipped; each is said once through `onProblem` (and `problems`) and the journal is
 * rewritten without it. When the journal grows past twice the live rows (and `compactMinBytes`),
 * a snapshot is written to a temporary file, fsynced and renamed over it; lines put meanwhile go
 * to the new journal.
 *
 * Rows are frozen: change one by putting a changed copy (`{ ...row, text }`).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { checked, type Conversation, type Item, type Rows, type Table } from "../rows";
import { changeLine, deleteLine, putLine } from "./lines";
import { Appender, readJournal, readSince, repair, replay, type Reading } from "./file";
import { ReadOnlyError, tryLock, type Lock } from "./lock";
import { State, type Change } from "./state";
import { Upkeep } from "./upkeep";
import { Views, type Follow } from "./views";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

export { ReadOnlyError } from "./lock";
export type { Change } from "./state";
export type { Follow } from "./views";

/** How a store behaves; every field has a default. */
export interface StoreOptions {
  /** Told each problem found in the journal, once, in words for the person. */
  onProblem?: (text: string) => void;
  /** Told when this store, opened as a reader, has become the writer. */
  onWritable?: () => void;
  /** The least time between two journal writes of one growing item (50 ms). */
  coalesceMs?: number;
  /** The journal is not compacted below this size (1 MiB). */
  compactMinBytes?: number;
  /** How often a reader looks for the writer's changes and for a free lock (250 ms). */
  followMs?: number;
  /** How soon written lines are fsynced when nobody asks (1 s). */
  syncMs?: number;
}

interface Pending {
  base: Item | null;
  timer: ReturnType<typeof setTimeout>;
}

const JOURNAL = "journal.jsonl";

/** The conversation tables of one workspace, kept in a journal (see the top of this file). */
export class Store {
  private state: State;
  private lock: Lock | null = null;
  private appender: Appender | null = null;
  private readonly pending = new Map<string, Pending>();
  private readonly lastWrite = new Map<string, number>();
  private readonly views = new Views();
  private foreign: string[];
  private readonly upkeep: Upkeep;
  private followTimer: ReturnType<typeof setInterval> | null = null;
  private following: Promise<void> | null = null;
  private offset: number;
  private ino: number;
  private lines = 0;
  private closed = false;
  /** Every problem found, in words for the person. */
  readonly problems: string[] = [];
  readonly journalPath: string;
  private readonly options: Required<Omit<StoreOptions, "onProblem" | "onWritable">> & StoreOptions;

  private constructor(
    readonly folder: string,
    reading: Reading,
    options: StoreOptions,
  ) {
    this.journalPath = join(folder, JOURNAL);
    this.options = { coalesceMs: 50, compactMinBytes: 1 << 20, followMs: 250, syncMs: 1000, ...options };
    this.state = reading.state;
    this.foreign = reading.foreign;
    this.upkeep = new Upkeep(
      this.options,
      () => this.appender,
      (text) => this.report(text),
      reading.state.bytes,
    );
    this.offset = reading.size;
    this.ino = reading.ino;
    this.lines = reading.lines;
  }

  /** Opens the store in `folder` (made if missing): as the writer, or as a reader when another process writes. */
  static async open(folder: string, options: StoreOptions = {}): Promise<Store> {
    await mkdir(folder, { recursive: true });
    const path = join(folder, JOURNAL);
    const lock = tryLock(`${path.slice(0, -".jsonl".length)}.lock`);
    const reading = await readJournal(path);
    const store = new Store(folder, reading, options);
    if (lock) {
      await store.becomeWriter(lock, reading);
    } else {
      // A reader's torn last line is the writer's line being written: not a problem.
      for (const text of reading.torn ? reading.problems.slice(0, -1) : reading.problems) store.report(text);
      store.followTimer = setInterval(() => {
        if (store.following || store.closed) return;
        store.following = store.followOnce().finally(() => (store.following = null));
      }, store.options.followMs);
      store.followTimer.unref();
    }
    return store;
  }

  /** True when this store writes; false when another window does and this one follows. */
  get writable(): boolean {
    return this.appender !== null && !this.closed;
  }

  private async becomeWriter(lock: Lock, reading: Reading): Promise<void> {
    this.lock = lock;
    try {
      await repair(this.journalPath, reading, join(this.folder, "journal.corrupt.jsonl"));
      const appender = new Appender(this.journalPath, reading.size, (text) => this.report(text));
      await appender.open();
      this.appender = appender;
    } catch (e) {
      lock.release();
      this.lock = null;
      throw e;
    }
    for (const text of reading.problems) this.report(text);
    // A journal with skipped lines is rewritten without them, so they are said only once.
    if (reading.skipped.length) await this.compact();
  }

  private report(text: string): void {
    this.problems.push(text);
    try {
      this.options.onProblem?.(text);
    } catch (e) {
      console.error("Tandem: showing a storage problem failed:", e);
    }
  }

  // ---- reading ----

  /** The row `key` of `table`, if it is there. */
  get<T extends Table>(table: T, key: string): Rows[T] | undefined {
    return this.state.get(table, key);
  }

  /** The rows of `table`, in key order (the order they were made). */
  rows<T extends Table>(table: T): Rows[T][] {
    return this.state.rows(table);
  }

  /** How many rows `table` has. */
  count(table: Table): number {
    return this.state.count(table);
  }

  /** The items of the conversation `chat`, in key order. */
  items(chat: string): Item[] {
    return this.state.items(chat);
  }

  /** The conversations, the latest active first. */
  conversations(): Conversation[] {
    return this.state.conversations();
  }

  /** The conversations whose title or an item's text holds `query` (any case), the latest active first. */
  search(query: string): Conversation[] {
    return this.state.search(query);
  }

  // ---- following ----

  /** Calls `listener` with each change of a row `what` selects, until the returned function is called. */
  follow<T extends Table>(what: Follow<T>, listener: (change: Change<T>) => void): () => void {
    return this.views.add(what, listener);
  }

  private emit(change: Change): void {
    this.views.tell(change);
  }

  // ---- writing ----

  private writer(): Appender {
    if (this.closed) throw new Error("The conversation store is closed.");
    if (!this.appender) throw new ReadOnlyError();
    return this.appender;
  }

  /** Puts `row` in `table` (its key is its id). Throws a RowError for a bad row, a ReadOnlyError in a reader. */
  put<T extends Table>(table: T, row: Rows[T]): void {
    this.writer();
    const good = checked(table, row);
    const change = this.state.apply(table, good.id, good);
    if (!change) return;
    this.journal(change);
    this.emit(change);
  }

  /** Puts `row` and resolves once it is on disk: for a person's message, before its run starts. */
  async putDurable<T extends Table>(table: T, row: Rows[T]): Promise<void> {
    this.put(table, row);
    await this.flush();
  }

  /**
   * Appends `text` to the text of the item `key` (nothing when it is not there): a streamed delta.
   * Its followers are told what was appended (`Change.appended`), not only the whole new text.
   */
  append(key: string, text: string): void {
    this.writer();
    const change = this.state.append(key, text);
    if (!change) return;
    this.journal(change);
    this.emit(change);
  }

  /** Deletes the row `key` of `table` (nothing when it is not there). */
  delete(table: Table, key: string): void {
    this.writer();
    const change = this.state.apply(table, key, null);
    if (!change) return;
    this.journal(change);
    this.emit(change);
  }

  /** Deletes the conversation `id` with its items and its context row. */
  deleteConversation(id: string): void {
    this.writer();
    for (const item of this.items(id)) this.delete("items", item.id);
    this.delete("contexts", id);
    this.delete("conversations", id);
  }

  /** Resolves once every change made before it is written and fsynced. */
  async flush(): Promise<void> {
    const appender = this.writer();
    for (const key of [...this.pending.keys()]) this.writePending(key);
    await appender.flush();
  }

  private journal(change: Change): void {
    const { table, key, row } = change;
    if (table === "items" && row && !(row as Item).done) {
      if (this.pending.has(key)) return;
      const now = performance.now();
      const last = this.lastWrite.get(key);
      if (last === undefined || now - last >= this.options.coalesceMs) {
        this.lastWrite.set(key, now);
        this.write(changeLine(table, change.before ?? undefined, row));
        return;
      }
      const timer = setTimeout(() => this.writePending(key), last + this.options.coalesceMs - now);
      this.pending.set(key, { base: change.before as Item | null, timer });
      return;
    }
    const pending = this.pending.get(key);
    const base = pending && table === "items" ? pending.base : change.before;
    if (pending && table === "items") {
      clearTimeout(pending.timer);
      this.pending.delete(key);
    }
    if (table === "items") this.lastWrite.delete(key);
    this.write(row ? changeLine(table, base ?? undefined, row) : deleteLine(table, key));
  }

  private writePending(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    const row = this.state.get("items", key);
    if (!row || !this.appender) return;
    this.lastWrite.set(key, performance.now());
    this.write(changeLine("items", pending.base ?? undefined, row));
  }

  private write(line: string): void {
    const appender = this.appender;
    if (!line || !appender) return;
    appender.append(line);
    this.upkeep.appended(appender, this.state.bytes, () => this.compact());
  }

  /** Rewrites the journal as a snapshot of the live rows (atomically; see the top of this file). */
  async compact(): Promise<void> {
    const appender = this.writer();
    await this.upkeep.compact(appender, () => {
      const parts: string[] = [];
      for (const [table, row] of this.state.all()) parts.push(putLine(table, row));
      for (const line of this.foreign) parts.push(line + "\n");
      // The snapshot holds the growing items' latest rows: their next patches start from these.
      for (const [key, pending] of this.pending) pending.base = this.state.get("items", key) ?? null;
      return parts.join("");
    });
  }

  // ---- a reader following the writer ----

  private async followOnce(): Promise<void> {
    try {
      const lock = tryLock(`${this.journalPath.slice(0, -".jsonl".length)}.lock`);
      if (lock) {
        if (this.followTimer) clearInterval(this.followTimer);
        this.followTimer = null;
        const reading = await readJournal(this.journalPath);
        this.replace(reading);
        await this.becomeWriter(lock, reading);
        this.options.onWritable?.();
        return;
      }
      const since = await readSince(this.journalPath, this.offset, this.ino);
      if (since === "replaced") {
        const reading = await readJournal(this.journalPath);
        this.replace(reading);
        for (const text of reading.torn ? reading.problems.slice(0, -1) : reading.problems) this.report(text);
        return;
      }
      if (!since.text) return;
      const problems: string[] = [];
      replay(this.state, since.text, this.lines + 1, problems, [], this.foreign, (c) => this.emit(c));
      this.lines += since.text.split("\n").length - 1;
      this.offset = since.size;
      for (const text of problems) this.report(text);
    } catch (e) {
      this.report(t("Tandem could not follow the conversations of another window: {0}", reason(e)));
    }
  }

  private replace(reading: Reading): void {
    const changes = this.state.changesTo(reading.state);
    this.state = reading.state;
    this.foreign = reading.foreign;
    this.offset = reading.size;
    this.ino = reading.ino;
    this.lines = reading.lines;
    this.upkeep.baseline = reading.state.bytes;
    for (const change of changes) this.emit(change);
  }

  /** Writes what is pending, gives the lock up and stops following. The store cannot be used after. */
  async close(): Promise<void> {
    if (this.closed) return;
    if (this.followTimer) clearInterval(this.followTimer);
    this.followTimer = null;
    // A reader that is taking the lock over finishes first, then closes as the writer.
    await this.following;
    this.upkeep.stop();
    if (this.appender) {
      for (const key of [...this.pending.keys()]) this.writePending(key);
      await this.appender.close();
      this.appender = null;
    }
    this.closed = true;
    this.lock?.release();
    this.lock = null;
    this.views.clear();
  }
}
