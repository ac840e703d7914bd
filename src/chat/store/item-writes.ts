/**
 * The writes of a conversation's items to its journal: a finished item's change at once, a
 * growing one's at most every `coalesceMs` (the latest row winning, only its new words written),
 * and each journal's compaction, which the growing items' next patches start from.
 */
import { changeLine, deleteLine, putLine } from "./lines";
import type { Book } from "./book";
import type { Item } from "../row-schemas";
import type { Change } from "./state";

interface Pending {
  chat: string;
  base: Item | null;
  timer: ReturnType<typeof setTimeout>;
}

/** The item writes of one store's conversations in memory (`books`). */
export class ItemWrites {
  private readonly pending = new Map<string, Pending>();
  private readonly lastWrite = new Map<string, number>();

  constructor(
    private readonly coalesceMs: number,
    private readonly books: Map<string, Book>,
  ) {}

  /** Writes every growing item's pending change (of the conversation `chat`; all when not given). */
  writeAll(chat?: string): void {
    for (const [key, pending] of [...this.pending])
      if (chat === undefined || pending.chat === chat) this.writePending(key);
  }

  /** Forgets the pending changes of the conversation `chat` (deleted). */
  drop(chat: string): void {
    for (const [key, pending] of this.pending) {
      if (pending.chat !== chat) continue;
      clearTimeout(pending.timer);
      this.pending.delete(key);
    }
  }

  /** Writes the change of an item of `book` to its journal, coalescing a growing one's (see the top). */
  journal(book: Book, change: Change<"items">): void {
    const { key, row } = change;
    if (row && !row.done) {
      if (this.pending.has(key)) return;
      const now = performance.now();
      const last = this.lastWrite.get(key);
      if (last === undefined || now - last >= this.coalesceMs) {
        this.lastWrite.set(key, now);
        this.writeItem(book, changeLine("items", change.before ?? undefined, row));
        return;
      }
      const timer = setTimeout(() => this.writePending(key), last + this.coalesceMs - now);
      this.pending.set(key, { chat: book.chat, base: change.before, timer });
      return;
    }
    const pending = this.pending.get(key);
    const base = pending ? pending.base : change.before;
    if (pending) {
      clearTimeout(pending.timer);
      this.pending.delete(key);
    }
    this.lastWrite.delete(key);
    this.writeItem(book, row ? changeLine("items", base ?? undefined, row) : deleteLine("items", key));
  }

  writePending(key: string): void {
    const pending = this.pending.get(key);
    if (!pending) return;
    clearTimeout(pending.timer);
    this.pending.delete(key);
    const book = this.books.get(pending.chat);
    const row = book?.state.get("items", key);
    if (!book || !row || !book.appender) return;
    this.lastWrite.set(key, performance.now());
    this.writeItem(book, changeLine("items", pending.base ?? undefined, row));
  }

  private writeItem(book: Book, line: string): void {
    const appender = book.appender;
    if (!line || !appender || !book.upkeep) return;
    appender.append(line);
    book.upkeep.appended(appender, book.state.bytes, () => this.compactBook(book));
  }

  async compactBook(book: Book): Promise<void> {
    if (!book.appender || !book.upkeep) return;
    await book.upkeep.compact(book.appender, () => {
      const parts: string[] = [];
      for (const [table, row] of book.state.all()) parts.push(putLine(table, row));
      // The snapshot holds the growing items' latest rows: their next patches start from these.
      for (const [key, pending] of this.pending) {
        if (pending.chat === book.chat) pending.base = book.state.get("items", key) ?? null;
      }
      return parts.join("");
    });
  }
}
