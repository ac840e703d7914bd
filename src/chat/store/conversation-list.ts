/**
 * The conversation list as the store keeps it: what it knows of each conversation without its
 * items (a `Listing`, on `~list` lines of the main journal, see listing.ts), kept true as items
 * change, in the order the list shows (latest activity first), and searched through every
 * conversation's journal one at a time (scan.ts) without keeping them.
 */
import type { Conversation, Item } from "../row-schemas";
import type { Book } from "./book";
import { chatPath, listLine, sameListing, type Listing } from "./listing";
import { findItems, searchItems, type Shelf } from "./scan";

/** The listings of one store's conversations, and the writing of their lines. */
export class ConversationList {
  /** What the list knows of each conversation that has items, by conversation id. */
  readonly listings = new Map<string, Listing>();
  /** The conversations whose listing changed since its line was written. */
  private readonly relisted = new Set<string>();
  private timer: ReturnType<typeof setTimeout> | null = null;

  constructor(
    private readonly folder: string,
    /** The conversations in memory (their items are read there, not from their journals). */
    private readonly books: ReadonlyMap<string, Book>,
    /** How soon a listing that may wait is written (the store's `syncMs`). */
    private readonly syncMs: number,
    /** Writes a line to the main journal (nothing in a reader). */
    private readonly write: (line: string) => void,
  ) {}

  /** Makes `listings` the list's (a journal just read), with nothing left to write. */
  replace(listings: ReadonlyMap<string, Listing>): void {
    this.listings.clear();
    for (const [chat, l] of listings) this.listings.set(chat, l);
  }

  /** What the list knows of `chat` without its items (undefined: it has none). */
  get(chat: string): Listing | undefined {
    return this.listings.get(chat);
  }

  /** How many items every conversation has. */
  itemCount(): number {
    let n = 0;
    for (const l of this.listings.values()) n += l.count;
    return n;
  }

  /** The conversations with an item not done (a message waiting, an answer a crash cut short). */
  unfinished(): string[] {
    return [...this.listings].filter(([, l]) => l.open > 0).map(([chat]) => chat);
  }

  /**
   * Makes what the list says of `book`'s conversation true, in memory at once and in the journal:
   * at once when the conversation is new, gone, or has an item not done where it had none (a
   * message to answer after a crash); else within `syncMs` or at the next flush, one line for many
   * changes (a newer item, one more done).
   */
  relist(book: Book): void {
    const now = book.listing();
    const was = this.listings.get(book.chat);
    if (sameListing(now ?? undefined, was)) return;
    if (now) this.listings.set(book.chat, now);
    else this.listings.delete(book.chat);
    if (!now || !was || (now.open > 0 && was.open === 0)) {
      this.relisted.delete(book.chat);
      this.write(listLine(book.chat, now));
      return;
    }
    this.relisted.add(book.chat);
    if (!this.timer) {
      this.timer = setTimeout(() => this.writeChanged(), this.syncMs);
      this.timer.unref();
    }
  }

  /** Writes the listings changed since they were last written. */
  writeChanged(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
    const chats = [...this.relisted];
    this.relisted.clear();
    for (const chat of chats) this.write(listLine(chat, this.listings.get(chat) ?? null));
  }

  /** Every listing's line, for a snapshot of the main journal. */
  lines(): string[] {
    return [...this.listings].map(([chat, l]) => listLine(chat, l));
  }

  /** `conversations` in the list's order: the one with the latest activity (its newest item, else its own making) first. */
  ordered(conversations: readonly Conversation[]): Conversation[] {
    const when = (c: Conversation): string => {
      const last = this.listings.get(c.id)?.last ?? "";
      return last > c.id ? last : c.id;
    };
    return conversations
      .map((c) => [when(c), c] as const)
      .sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0))
      .map(([, c]) => c);
  }

  /**
   * Those of `conversations` whose title or an item's text holds `query` (any case), in the list's
   * order; every conversation's journal is looked through without keeping it in memory.
   */
  async search(query: string, conversations: readonly Conversation[]): Promise<Conversation[]> {
    const q = query.trim().toLowerCase();
    if (!q) return this.ordered(conversations);
    const found = await searchItems(this.shelf(), q);
    return this.ordered(conversations).filter((c) => found.has(c.id) || c.title.toLowerCase().includes(q));
  }

  /**
   * The items of every conversation that `wanted` keeps, read one conversation at a time; a
   * conversation whose journal does not hold the text `hint` (as written in JSON) is passed over.
   */
  findItems(wanted: (item: Item) => boolean, hint?: string): Promise<Item[]> {
    return findItems(this.shelf(), wanted, hint);
  }

  private shelf(): Shelf {
    return {
      chats: () => [...this.listings.keys()],
      open: (chat) => this.books.get(chat)?.items(),
      path: (chat) => chatPath(this.folder, chat),
    };
  }
}
