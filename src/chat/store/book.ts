/**
 * One conversation opened from its own journal (`chats/CHAT.jsonl`, the lines of lines.ts, items
 * only): its items in memory, and in the writer its appender and upkeep. A book is opened when its
 * conversation is asked for and closed when nobody holds it (see store.ts).
 */
import type { Item } from "../row-schemas";
import { Appender } from "./appender";
import { readJournalSync, repair, type Reading } from "./file";
import type { Listing } from "./listing";
import type { Change, State } from "./state";
import { Upkeep, type UpkeepOptions } from "./upkeep";

/** A conversation's items in memory, and how its journal is read and written. */
export class Book {
  state: State;
  /** The writer's appends to the journal (null in a reader). */
  appender: Appender | null = null;
  upkeep: Upkeep | null = null;
  /** How many hold it open (a view that shows it, a run that answers it). */
  holders = 0;
  /** Its closing, while the appender writes what is left (null: open). */
  closing: Promise<void> | null = null;
  /** Where a reader goes on following its journal. */
  offset: number;
  ino: number;
  lines: number;
  /** How many items are not done. */
  open = 0;

  constructor(
    readonly chat: string,
    readonly path: string,
    reading: Reading,
  ) {
    this.state = reading.state;
    this.offset = reading.size;
    this.ino = reading.ino;
    this.lines = reading.lines;
    this.reset(reading);
  }

  /** Takes the items `reading` found (the journal read again); the changes that made. */
  reset(reading: Reading): Change[] {
    const changes = this.state.changesTo(reading.state);
    this.state = reading.state;
    this.offset = reading.size;
    this.ino = reading.ino;
    this.lines = reading.lines;
    this.open = 0;
    for (const item of this.state.items(this.chat)) if (!item.done) this.open++;
    return changes;
  }

  /** Reads the journal of `chat` at `path` at once. */
  static read(chat: string, path: string): { book: Book; reading: Reading } {
    const reading = readJournalSync(path);
    return { book: new Book(chat, path, reading), reading };
  }

  /** The items, in key order. */
  items(): Item[] {
    return this.state.items(this.chat);
  }

  /** What the list knows of it; null when it has no items. */
  listing(): Listing | null {
    const count = this.state.count("items");
    return count ? { last: this.state.lastItem(this.chat), count, open: this.open } : null;
  }

  /** Counts a changed item's part in `open`. */
  counted(row: Item | null, before: Item | null): void {
    this.open += (row && !row.done ? 1 : 0) - (before && !before.done ? 1 : 0);
  }

  /**
   * Makes this book the writer's: its journal repaired of what `reading` found (before any append),
   * appended to from now on. `report` says a problem, `folder` is where dropped lines are kept.
   */
  write(reading: Reading, options: UpkeepOptions, corruptPath: string, report: (text: string) => void): void {
    const appender = new Appender(this.path, reading.size, report);
    if (reading.torn || reading.unterminated || reading.skipped.length) {
      void appender
        .step(() => repair(this.path, reading, corruptPath))
        .catch((e: unknown) => report(String(e)));
    }
    this.appender = appender;
    this.upkeep = new Upkeep(options, () => this.appender, report, reading.state.bytes);
  }

  /** Writes what is queued and lets the file go; resolves once it is on disk. */
  async close(): Promise<void> {
    await this.appender?.close();
  }
}
