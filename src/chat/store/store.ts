/**
 * The durable store of Tandem's conversation tables, one per workspace, in a folder the editor
 * gives (its storage folder for the workspace; global storage when no folder is open).
 *
 * On disk: `journal.jsonl`, an append-only journal where each line is one change of one row of
 * every table but the items (see lines.ts), and what the conversation list knows of each
 * conversation (listing.ts); `chats/CHAT.jsonl`, each conversation's items in a journal of its
 * own, the same kind of lines; `journal.lock`, the writer's lock; `journal.corrupt.jsonl`, the
 * lines a crash or a bad disk left unreadable, kept for the record.
 *
 * Using it:
 *   const store = await Store.open(folder, { onProblem: (text) => show(text) });
 *   store.put("conversations", conversation(agentId));     // in memory and seen at once
 *   await store.putDurable("items", asked(text, chat));     // resolves once it is on disk (fsync)
 *   const stop = store.follow({ table: "items", where: { chat } }, (change) => draw(change));
 *   store.items(chat); store.conversations(); await store.search("words"); store.get("items", key);
 *   await store.close();
 *
 * In proportion to what is shown. Opening reads the main journal only: the small tables and the
 * conversation list. A conversation's items are read when it is asked for (`items(chat)`, a put
 * of one of its items, `hold`) and stay while something holds it — a view that follows its items
 * (`follow` with `where: { chat }`), a run that answers it — and a few more (`keepClosed`) that
 * were used last; then they leave memory. `get("items", key)` and `rows("items")` see the
 * conversations in memory. `search` and `findItems` go through every conversation's journal one
 * at a time without keeping them; the conversation list is conversation-list.ts.
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
 * journals it has read (every `followMs`), giving its subscribers the rows the writer changes; when
 * the writer closes or its process dies, the reader takes the lock, becomes the writer and calls
 * `onWritable`. Only one process ever appends or compacts, so lines never interleave.
 *
 * Crashes. Reading a journal replays it; a torn or bad last line is cut off, a bad line in the
 * middle is skipped; each is said once through `onProblem` (and `problems`) and the journal is
 * rewritten without it. When a journal grows past twice its live rows (and `compactMinBytes`), a
 * snapshot is written to a temporary file, fsynced and renamed over it; lines put meanwhile go to
 * the new journal. A store of the old format (every item in the main journal) is moved to this one
 * once, by the writer, safely (migrate.ts).
 *
 * Rows are frozen: change one by putting a changed copy (`{ ...row, text }`).
 */
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { checked, type Conversation, type Item, type Rows, type Table } from "../row-schemas";
import { Appender } from "./appender";
import type { Book } from "./book";
import { ConversationList } from "./conversation-list";
import { Follower, type Shelves } from "./follower";
import { ItemWrites } from "./item-writes";
import { OpenBooks } from "./open-books";
import { readJournal, type Reading } from "./file";
import { changeLine, deleteLine, putLine } from "./lines";
import { formatLine, type Listing } from "./listing";
import { ReadOnlyError, tryLock, type Lock } from "./lock";
import { openMain } from "./migrate";
import { State, type Change } from "./state";
import { Upkeep } from "./upkeep";
import { Views, type Follow } from "./views";

export { ReadOnlyError } from "./lock";
export type { Change } from "./state";
export type { Follow } from "./views";
export type { Listing } from "./listing";

/** How a store behaves; every field has a default. */
export interface StoreOptions {
  /** Told each problem found in the journal, once, in words for the person. */
  onProblem?: (text: string) => void;
  /** Told when this store, opened as a reader, has become the writer. */
  onWritable?: () => void;
  /** The least time between two journal writes of one growing item (50 ms). */
  coalesceMs?: number;
  /** A journal is not compacted below this size (1 MiB). */
  compactMinBytes?: number;
  /** How often a reader looks for the writer's changes and for a free lock (250 ms). */
  followMs?: number;
  /** How soon written lines are fsynced when nobody asks (1 s). */
  syncMs?: number;
  /** How many conversations nobody holds stay in memory after their last use (2). */
  keepClosed?: number;
}

const JOURNAL = "journal.jsonl";

/** The conversation tables of one workspace, kept in journals (see the top of this file). */
export class Store {
  private state = new State();
  private readonly list: ConversationList;
  private readonly books = new Map<string, Book>();
  private readonly shelved: OpenBooks;
  private lock: Lock | null = null;
  private appender: Appender | null = null;
  private readonly writes: ItemWrites;
  private readonly views = new Views();
  private foreign: string[] = [];
  private readonly upkeep: Upkeep;
  private follower: Follower | null = null;
  private closed = false;
  /** Every problem found, in words for the person. */
  readonly problems: string[] = [];
  readonly journalPath: string;
  private readonly corruptPath: string;
  private readonly options: Required<Omit<StoreOptions, "onProblem" | "onWritable">> & StoreOptions;

  private constructor(
    readonly folder: string,
    options: StoreOptions,
  ) {
    this.journalPath = join(folder, JOURNAL);
    this.corruptPath = join(folder, "journal.corrupt.jsonl");
    this.options = {
      coalesceMs: 50,
      compactMinBytes: 1 << 20,
      followMs: 250,
      syncMs: 1000,
      keepClosed: 2,
      ...options,
    };
    this.list = new ConversationList(folder, this.books, this.options.syncMs, (line) => this.write(line));
    this.writes = new ItemWrites(this.options.coalesceMs, this.books);
    this.shelved = new OpenBooks(folder, this.options.keepClosed, this.books, this.writes, (book, reading) =>
      this.opened(book, reading),
    );
    this.upkeep = new Upkeep(
      this.options,
      () => this.appender,
      (text) => this.report(text),
      0,
    );
  }

  /** Opens the store in `folder` (made if missing): as the writer, or as a reader when another process writes. */
  static async open(folder: string, options: StoreOptions = {}): Promise<Store> {
    await mkdir(join(folder, "chats"), { recursive: true });
    const store = new Store(folder, options);
    const lock = tryLock(store.lockPath());
    if (lock) {
      await store.becomeWriter(lock);
    } else {
      const reading = await readJournal(store.journalPath);
      store.follower = new Follower(store.shelves(), reading, store.options.followMs, (lock) =>
        store.takeOver(lock),
      );
    }
    return store;
  }

  private lockPath(): string {
    return `${this.journalPath.slice(0, -".jsonl".length)}.lock`;
  }

  /** True when this store writes; false when another window does and this one follows. */
  get writable(): boolean {
    return this.appender !== null && !this.closed;
  }

  /** What the follower of a reader changes in this store. */
  private shelves(): Shelves {
    return {
      folder: this.folder,
      main: this.journalPath,
      lock: this.lockPath(),
      state: () => this.state,
      setState: (state) => (this.state = state),
      foreign: () => this.foreign,
      listing: this.list.listings,
      books: this.books,
      emit: (change) => this.emit(change),
      report: (text) => this.report(text),
      closed: () => this.closed,
    };
  }

  private async takeOver(lock: Lock): Promise<void> {
    this.follower = null;
    await this.becomeWriter(lock);
    this.options.onWritable?.();
  }

  private async becomeWriter(lock: Lock): Promise<void> {
    this.lock = lock;
    let reading: Reading;
    try {
      let listing: Map<string, Listing>;
      ({ reading, listing } = await openMain(this.folder, this.journalPath, this.corruptPath));
      this.adopt(reading, listing);
      const appender = new Appender(this.journalPath, reading.size, (text) => this.report(text));
      await appender.open();
      this.appender = appender;
      this.upkeep.baseline = reading.state.bytes;
      if (reading.size === 0) appender.append(formatLine());
    } catch (e) {
      lock.release();
      this.lock = null;
      throw e;
    }
    for (const text of reading.problems) this.report(text);
    // The conversations a reader had open are read again, as the writer's now.
    this.shelved.reopen((change) => this.emit(change));
    // A journal with skipped lines is rewritten without them, so they are said only once.
    if (reading.skipped.length) await this.compact();
  }

  /** Makes `reading` of the main journal this store's, telling the views what changed. */
  private adopt(reading: Reading, listing: Map<string, Listing>): void {
    const changes = this.state.changesTo(reading.state);
    this.state = reading.state;
    this.foreign = reading.foreign;
    this.list.replace(listing);
    for (const change of changes) this.emit(change);
  }

  private report(text: string): void {
    this.problems.push(text);
    try {
      this.options.onProblem?.(text);
    } catch (e) {
      console.error("Tandem: showing a storage problem failed:", e);
    }
  }

  // ---- the conversations in memory ----

  /** Sets up a conversation just read from its journal: the writer's appends, what was found. */
  private opened(book: Book, reading: Reading): void {
    const problems = reading.problems;
    if (this.appender) {
      book.write(reading, this.options, this.corruptPath, (text) => this.report(text));
      for (const text of problems) this.report(text);
      if (reading.skipped.length) void this.writes.compactBook(book).catch(() => undefined);
      this.list.relist(book);
    } else {
      // A reader's torn last line is the writer's line being written: not a problem.
      for (const text of reading.torn ? problems.slice(0, -1) : problems) this.report(text);
    }
  }

  private book(chat: string): Book {
    return this.shelved.book(chat);
  }

  private holding(key: string): Book | undefined {
    return this.shelved.holding(key);
  }

  /**
   * Keeps the conversation `chat` in memory (read now if it is not) until the returned function
   * is called; a view that follows its items holds it the same way.
   */
  hold(chat: string): () => void {
    return this.shelved.hold(chat);
  }

  /** The conversations whose items are in memory now. */
  loaded(): string[] {
    return [...this.books.keys()];
  }

  // ---- reading ----

  /** The row `key` of `table`, if it is there (an item: if its conversation is in memory). */
  get<T extends Table>(table: T, key: string): Rows[T] | undefined {
    if (table === "items") return this.holding(key)?.state.get(table, key);
    return this.state.get(table, key);
  }

  /** The rows of `table`, in key order (the items: of the conversations in memory). */
  rows<T extends Table>(table: T): Rows[T][] {
    if (table !== "items") return this.state.rows(table);
    const all: Item[] = [];
    for (const book of this.books.values()) all.push(...book.items());
    return all.sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0)) as Rows[T][];
  }

  /** How many rows `table` has (the items: of every conversation). */
  count(table: Table): number {
    if (table !== "items") return this.state.count(table);
    return this.list.itemCount();
  }

  /** The items of the conversation `chat`, in key order (read from its journal when not in memory). */
  items(chat: string): Item[] {
    return this.book(chat).items();
  }

  /** What the conversation list knows of `chat` without its items (undefined: it has none). */
  listed(chat: string): Listing | undefined {
    return this.list.get(chat);
  }

  /** The conversations with an item not done (a message waiting, an answer a crash cut short). */
  unfinished(): string[] {
    return this.list.unfinished();
  }

  /**
   * The conversations, the one with the latest activity (its newest item, else its own making)
   * first.
   */
  conversations(): Conversation[] {
    return this.list.ordered(this.state.rows("conversations"));
  }

  /**
   * The conversations whose title or an item's text holds `query` (any case), the latest active
   * first; every conversation's journal is looked through without keeping it in memory.
   */
  async search(query: string): Promise<Conversation[]> {
    return this.list.search(query, this.state.rows("conversations"));
  }

  /**
   * The items of every conversation that `wanted` keeps, read one conversation at a time; a
   * conversation whose journal does not hold the text `hint` (as written in JSON) is passed over.
   */
  findItems(wanted: (item: Item) => boolean, hint?: string): Promise<Item[]> {
    return this.list.findItems(wanted, hint);
  }

  // ---- following ----

  /**
   * Calls `listener` with each change of a row `what` selects, until the returned function is
   * called. Following the items of one conversation (`where: { chat }`) holds it in memory.
   */
  follow<T extends Table>(what: Follow<T>, listener: (change: Change<T>) => void): () => void {
    const chat = what.table === "items" ? (what.where as Partial<Item> | undefined)?.chat : undefined;
    const release = typeof chat === "string" && !this.closed ? this.hold(chat) : undefined;
    const remove = this.views.add(what, listener);
    return () => {
      remove();
      release?.();
    };
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
    if (table === "items") return this.putItem(good as Item);
    const change = this.state.apply(table, good.id, good);
    if (!change) return;
    this.write(changeLine(table, change.before ?? undefined, change.row!));
    this.emit(change);
  }

  private putItem(row: Item): void {
    const from = this.holding(row.id);
    const book = this.book(row.chat);
    let change: Change<"items"> | null;
    if (from && from !== book) {
      // An item moved to another conversation: out of one journal, into the other.
      const before = from.state.get("items", row.id)!;
      from.state.apply("items", row.id, null);
      from.counted(null, before);
      this.writes.journal(from, { table: "items", key: row.id, row: null, before });
      this.list.relist(from);
      const put = book.state.apply("items", row.id, row)!;
      change = { ...put, before };
      this.writes.journal(book, put);
    } else {
      change = book.state.apply("items", row.id, row);
      if (!change) return;
      this.writes.journal(book, change);
    }
    book.counted(change.row, from === book ? change.before : null);
    this.list.relist(book);
    this.emit(change);
  }

  /** Puts `row` and resolves once it is on disk: for a person's message, before its run starts. */
  async putDurable<T extends Table>(table: T, row: Rows[T]): Promise<void> {
    this.put(table, row);
    await this.flush();
  }

  /**
   * Appends `text` to the text of the item `key` (nothing when its conversation is not in memory): a
   * streamed delta. Its followers are told what was appended (`Change.appended`), not only the whole
   * new text; the item's count, newest key and state stay, so the conversation's listing does too.
   */
  append(key: string, text: string): void {
    this.writer();
    const book = this.holding(key);
    const change = book?.state.append(key, text);
    if (!book || !change) return;
    this.writes.journal(book, change);
    this.emit(change);
  }

  /** Deletes the row `key` of `table` (nothing when it is not there; an item: when its conversation is not in memory). */
  delete(table: Table, key: string): void {
    this.writer();
    if (table === "items") {
      const book = this.holding(key);
      const change = book?.state.apply("items", key, null);
      if (!book || !change) return;
      book.counted(null, change.before);
      this.writes.journal(book, change);
      this.list.relist(book);
      this.emit(change);
      return;
    }
    const change = this.state.apply(table, key, null);
    if (!change) return;
    this.write(deleteLine(table, key));
    this.emit(change);
  }

  /** Deletes the conversation `id` with its items (and their journal) and its context row. */
  deleteConversation(id: string): void {
    this.writer();
    const book = this.book(id);
    for (const item of book.items()) this.delete("items", item.id);
    this.delete("contexts", id);
    this.delete("conversations", id);
    this.writes.drop(id);
    if (!book.items().length) void book.appender?.remove().catch(() => undefined);
  }

  /** Resolves once every change made before it is written and fsynced. */
  async flush(): Promise<void> {
    const appender = this.writer();
    this.writes.writeAll();
    this.list.writeChanged();
    const books = [...this.books.values()];
    await Promise.all([
      appender.flush(),
      ...books.map((b) => b.appender?.flush()),
      ...books.map((b) => b.closing),
    ]);
  }

  private write(line: string): void {
    const appender = this.appender;
    if (!line || !appender) return;
    appender.append(line);
    this.upkeep.appended(appender, this.state.bytes, () => this.compactMain());
  }

  /** Rewrites the journals as snapshots of their live rows (atomically; see the top of this file). */
  async compact(): Promise<void> {
    this.writer();
    await this.compactMain();
    await Promise.all([...this.books.values()].map((book) => this.writes.compactBook(book)));
  }

  private async compactMain(): Promise<void> {
    const appender = this.writer();
    await this.upkeep.compact(appender, () => {
      const parts: string[] = [formatLine()];
      for (const [table, row] of this.state.all()) parts.push(putLine(table, row));
      parts.push(...this.list.lines());
      for (const line of this.foreign) parts.push(line + "\n");
      return parts.join("");
    });
  }

  /** Writes what is pending, gives the lock up and stops following. The store cannot be used after. */
  async close(): Promise<void> {
    if (this.closed) return;
    // A reader that is taking the lock over finishes first, then closes as the writer.
    await this.follower?.stop();
    this.follower = null;
    this.upkeep.stop();
    if (this.appender) {
      this.writes.writeAll();
      this.list.writeChanged();
      for (const book of this.books.values()) book.upkeep?.stop();
      await Promise.all([...this.books.values()].map((book) => book.close()));
      await this.appender.close();
      this.appender = null;
    }
    this.closed = true;
    this.lock?.release();
    this.lock = null;
    this.shelved.clear();
    this.views.clear();
  }
}
