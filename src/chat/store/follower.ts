/**
 * A reader's following of the writer of another window: every few moments it reads what was
 * appended to the main journal and to the journals of the conversations it has in memory (or the
 * whole journal again, when the writer compacted it) and tells the views; once the lock is free it
 * hands over to the store, which becomes the writer.
 */
import type { Item } from "../row-schemas";
import { Book } from "./book";
import { emptyReading, readJournal, readSince, replay, type Reading } from "./file";
import { chatPath, takeInternal, type Listing } from "./listing";
import { tryLock, type Lock } from "./lock";
import { needsMove } from "./migrate";
import type { Change, State } from "./state";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/** What a follower reads into: the store's tables, list and open conversations. */
export interface Shelves {
  folder: string;
  main: string;
  lock: string;
  state(): State;
  setState(state: State): void;
  foreign(): string[];
  listing: Map<string, Listing>;
  books: Map<string, Book>;
  emit(change: Change): void;
  report(text: string): void;
  closed(): boolean;
}

/** Follows the writer's journals for a store that reads (see the top of this file). */
export class Follower {
  private timer: ReturnType<typeof setInterval> | null;
  private running: Promise<void> | null = null;
  private offset = 0;
  private ino = 0;
  private lines = 0;
  /** True while the main journal is of the old format. */
  private old = false;

  constructor(
    private readonly shelves: Shelves,
    reading: Reading,
    followMs: number,
    private readonly takeOver: (lock: Lock) => Promise<void>,
  ) {
    this.adopt(reading);
    this.timer = setInterval(() => {
      if (this.running || shelves.closed()) return;
      this.running = this.once().finally(() => (this.running = null));
    }, followMs);
    this.timer.unref();
  }

  /** Stops following (a takeover under way finishes first). */
  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    await this.running;
  }

  /** Makes the main journal's `reading` the store's, telling the views what changed. */
  private adopt(reading: Reading): void {
    const { shelves } = this;
    const listing = new Map<string, Listing>();
    const version = takeInternal(reading.foreign, listing);
    this.old = needsMove(reading, version);
    if (this.old) this.keepOld(reading, listing);
    const changes = shelves.state().changesTo(reading.state);
    shelves.setState(reading.state);
    shelves.foreign().splice(0, Infinity, ...reading.foreign);
    shelves.listing.clear();
    for (const [chat, l] of listing) shelves.listing.set(chat, l);
    this.offset = reading.size;
    this.ino = reading.ino;
    this.lines = reading.lines;
    for (const change of changes) shelves.emit(change);
    // A reader's torn last line is the writer's line being written: not a problem.
    for (const text of reading.torn ? reading.problems.slice(0, -1) : reading.problems) shelves.report(text);
  }

  /**
   * A journal of the old format (every item in it: an older Tandem writes it, or the writer has
   * not moved it yet): its items are kept in memory by conversation, as that format was read.
   */
  private keepOld(reading: Reading, listing: Map<string, Listing>): void {
    const chats = new Map<string, Item[]>();
    for (const [table, row] of reading.state.all()) {
      if (table !== "items") continue;
      const item = row as Item;
      chats.set(item.chat, [...(chats.get(item.chat) ?? []), item]);
    }
    for (const [chat, items] of chats) {
      for (const item of items) reading.state.apply("items", item.id, null);
      const old = emptyReading();
      for (const item of items) old.state.apply("items", item.id, item);
      const book = new Book(chat, chatPath(this.shelves.folder, chat), old);
      // Not in a journal of its own yet: read again once the writer has moved it.
      book.ino = -1;
      book.holders = 1;
      this.shelves.books.set(chat, book);
      const l = book.listing();
      if (l) listing.set(chat, l);
    }
  }

  private async once(): Promise<void> {
    const { shelves } = this;
    try {
      const lock = tryLock(shelves.lock);
      if (lock) {
        if (this.timer) clearInterval(this.timer);
        this.timer = null;
        await this.takeOver(lock);
        return;
      }
      const since = await readSince(shelves.main, this.offset, this.ino);
      if (since === "replaced") {
        this.adopt(await readJournal(shelves.main));
      } else if (since.text) {
        const problems: string[] = [];
        const foreign: string[] = [];
        replay(shelves.state(), since.text, this.lines + 1, problems, [], foreign, (c) => shelves.emit(c));
        this.lines += since.text.split("\n").length - 1;
        this.offset = since.size;
        takeInternal(foreign, shelves.listing);
        shelves.foreign().push(...foreign);
        for (const text of problems) shelves.report(text);
      }
      for (const book of [...shelves.books.values()]) await this.follow(book);
    } catch (e) {
      shelves.report(t("Tandem could not follow the conversations of another window: {0}", reason(e)));
    }
  }

  /** Reads what the writer appended to the journal of `book`'s conversation. */
  private async follow(book: Book): Promise<void> {
    const { shelves } = this;
    if (book.ino === -1) {
      // Kept from a journal of the old format: once moved, read from its own journal.
      if (this.old) return;
      book.holders = 0;
      book.ino = 0;
    }
    const since = await readSince(book.path, book.offset, book.ino);
    if (since === "replaced") {
      for (const change of book.reset(await readJournal(book.path))) shelves.emit(change);
      return;
    }
    if (!since.text) return;
    const problems: string[] = [];
    replay(book.state, since.text, book.lines + 1, problems, [], [], (c) => {
      book.counted(c.row as Item | null, c.before as Item | null);
      shelves.emit(c);
    });
    book.lines += since.text.split("\n").length - 1;
    book.offset = since.size;
    for (const text of problems) shelves.report(text);
  }
}
