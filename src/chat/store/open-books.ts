/**
 * The conversations a store has in memory: each read from its journal when it is asked for, kept
 * while something holds it, and the few used last besides (`keepClosed`); any other is let go once
 * its journal has every line given to it.
 */
import { Book } from "./book";
import type { Reading } from "./file";
import type { ItemWrites } from "./item-writes";
import { chatPath } from "./listing";
import type { Change } from "./state";

/** The conversations in memory of one store (see the top of this file). */
export class OpenBooks {
  /** The conversations in memory that nobody holds, the least recently used first. */
  private readonly unheld = new Set<string>();
  private closed = false;

  constructor(
    private readonly folder: string,
    private readonly keepClosed: number,
    /** Every conversation in memory, by its id. */
    private readonly books: Map<string, Book>,
    private readonly writes: ItemWrites,
    /** Told of each conversation just read, with what reading its journal found. */
    private readonly opened: (book: Book, reading: Reading) => void,
  ) {}

  /** The conversation `chat` in memory, read from its journal when it is not. */
  book(chat: string): Book {
    let book = this.books.get(chat);
    if (!book) {
      const read = Book.read(chat, chatPath(this.folder, chat));
      book = read.book;
      this.books.set(chat, book);
      this.opened(book, read.reading);
    }
    book.closing = null;
    if (book.holders === 0) {
      this.unheld.delete(chat);
      this.unheld.add(chat);
      this.closeUnheld();
    }
    return book;
  }

  /** The conversation in memory that has the item `key`. */
  holding(key: string): Book | undefined {
    for (const book of this.books.values()) if (book.state.get("items", key)) return book;
    return undefined;
  }

  /** Lets go of the conversations nobody holds beyond the few kept. */
  private closeUnheld(): void {
    for (const chat of this.unheld) {
      if (this.unheld.size <= this.keepClosed) return;
      this.unheld.delete(chat);
      const book = this.books.get(chat);
      if (book) this.letGo(book);
    }
  }

  private letGo(book: Book): void {
    this.writes.writeAll(book.chat);
    if (!book.appender) {
      this.books.delete(book.chat);
      return;
    }
    const closing: Promise<void> = book.close().then(() => {
      if (book.closing !== closing || book.holders > 0) return;
      // Lines given while it closed are written first: the journal is whole before it can be read again.
      if (book.appender?.idle) this.books.delete(book.chat);
      else this.letGo(book);
    });
    book.closing = closing;
    closing.catch(() => undefined);
  }

  /**
   * Keeps the conversation `chat` in memory (read now if it is not) until the returned function
   * is called; a view that follows its items holds it the same way.
   */
  hold(chat: string): () => void {
    const book = this.book(chat);
    book.holders++;
    this.unheld.delete(chat);
    let held = true;
    return () => {
      if (!held) return;
      held = false;
      if (--book.holders > 0 || this.closed) return;
      if (this.books.get(chat) !== book) return;
      this.unheld.add(chat);
      this.closeUnheld();
    };
  }

  /**
   * Reads again every conversation in memory (a reader's, when it has become the writer), each held
   * as it was, and says through `emit` what changed in each since the reader read it.
   */
  reopen(emit: (change: Change) => void): void {
    for (const [chat, old] of [...this.books]) {
      this.books.delete(chat);
      const book = this.book(chat);
      // Those kept from an old journal were held only until they had a journal of their own.
      book.holders = old.ino === -1 ? 0 : old.holders;
      if (book.holders > 0) this.unheld.delete(chat);
      for (const change of old.state.changesTo(book.state)) emit(change);
    }
  }

  /** Forgets every conversation (the store closed). */
  clear(): void {
    this.closed = true;
    this.books.clear();
    this.unheld.clear();
  }
}
