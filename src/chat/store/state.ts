/**
 * The tables in memory: every live row by table and key, each conversation's items in key order,
 * and about how many bytes the live rows take (to know when the journal is worth compacting).
 */
import { keyTime } from "../make";
import { TABLE_NAMES, type Conversation, type Item, type Row, type Rows, type Table } from "../row-schemas";
import { rowSize, sameValue } from "./lines";

/**
 * A row that changed: as it is now (null: deleted) and as it was (null: new). `appended` is set
 * when an item's text only grew, by that text at its end, and nothing else changed (a streamed
 * delta): a follower then takes the delta without comparing the texts. Any other change is a full
 * replacement: the follower reads `row` whole.
 */
export interface Change<T extends Table = Table> {
  table: T;
  key: string;
  row: Rows[T] | null;
  before: Rows[T] | null;
  appended?: string;
}

/** True when two rows of a table hold the same values (fields are plain values or small lists, such as a message's files). */
export function sameRow(a: Row, b: Row): boolean {
  const x: Record<string, unknown> = a;
  const y: Record<string, unknown> = b;
  for (const field of Object.keys(x)) if (!sameValue(x[field], y[field])) return false;
  return Object.keys(x).length === Object.keys(y).length;
}

/** Where `key` goes in the sorted `keys`. */
function place(keys: string[], key: string): number {
  let lo = 0;
  let hi = keys.length;
  // Keys are made in order, so a new one almost always goes last.
  if (hi === 0 || keys[hi - 1] < key) return hi;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keys[mid] < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** The live rows of every table. */
export class State {
  private readonly tables = new Map<Table, Map<string, Row>>(TABLE_NAMES.map((t) => [t, new Map()]));
  /** Each conversation's item keys, sorted. */
  private readonly chats = new Map<string, string[]>();
  /** About how many bytes the live rows take on their lines. */
  bytes = 0;

  /** The row `key` of `table`, if it is there. */
  get<T extends Table>(table: T, key: string): Rows[T] | undefined {
    return this.tables.get(table)!.get(key) as Rows[T] | undefined;
  }

  /** How many rows `table` has. */
  count(table: Table): number {
    return this.tables.get(table)!.size;
  }

  /** Puts `row` (null: deletes `key`); the change, or null when nothing changed. */
  apply<T extends Table>(table: T, key: string, row: Rows[T] | null): Change<T> | null {
    const rows = this.tables.get(table)!;
    const before = (rows.get(key) as Rows[T] | undefined) ?? null;
    if (row === null && before === null) return null;
    if (row !== null && before !== null && sameRow(row, before)) return null;
    if (before) this.bytes -= rowSize(before);
    if (row) {
      Object.freeze(row);
      rows.set(key, row);
      this.bytes += rowSize(row);
    } else {
      rows.delete(key);
    }
    if (table === "items") {
      const was = before as Item | null;
      const now = row as Item | null;
      if (was && (!now || now.chat !== was.chat)) this.unindex(was.chat, key);
      if (now && (!was || now.chat !== was.chat)) this.index(now.chat, key);
    }
    return { table, key, row, before };
  }

  /** Appends `text` to the text of the item `key`, nothing else changing; the change, or null when there is nothing to append to. */
  append(key: string, text: string): Change<"items"> | null {
    const before = this.get("items", key);
    if (!before || text === "") return null;
    const row = Object.freeze({ ...before, text: before.text + text });
    this.tables.get("items")!.set(key, row);
    // A string field's size is its length (see rowSize).
    this.bytes += text.length;
    return { table: "items", key, row, before, appended: text };
  }

  private index(chat: string, key: string): void {
    let keys = this.chats.get(chat);
    if (!keys) this.chats.set(chat, (keys = []));
    keys.splice(place(keys, key), 0, key);
  }

  private unindex(chat: string, key: string): void {
    const keys = this.chats.get(chat);
    if (!keys) return;
    const at = place(keys, key);
    if (keys[at] === key) keys.splice(at, 1);
    if (!keys.length) this.chats.delete(chat);
  }

  /** The rows of `table` in key order. */
  rows<T extends Table>(table: T): Rows[T][] {
    const rows = this.tables.get(table)!;
    return [...rows.keys()].sort().map((k) => rows.get(k) as Rows[T]);
  }

  /** Every row of every table, table by table (for a snapshot). */
  *all(): Generator<[Table, Row]> {
    for (const [table, rows] of this.tables) for (const row of rows.values()) yield [table, row];
  }

  /** The items of the conversation `chat`, in key order. */
  items(chat: string): Item[] {
    const items = this.tables.get("items")!;
    return (this.chats.get(chat) ?? []).map((k) => items.get(k) as Item);
  }

  /** The key of the last item of `chat` ("" when it has none). */
  lastItem(chat: string): string {
    const keys = this.chats.get(chat);
    return keys?.length ? keys[keys.length - 1] : "";
  }

  /**
   * The conversations, the one with the latest activity (its newest item, else its own making)
   * first.
   */
  conversations(): Conversation[] {
    const when = (c: Conversation): string => {
      const last = this.lastItem(c.id);
      return last > c.id ? last : c.id;
    };
    return this.rows("conversations")
      .map((c) => [when(c), c] as const)
      .sort((a, b) => (a[0] < b[0] ? 1 : a[0] > b[0] ? -1 : 0))
      .map(([, c]) => c);
  }
  /** The conversations whose title or an item's text holds `query` (any case), the latest active first. */
  search(query: string): Conversation[] {
    const q = query.trim().toLowerCase();
    if (!q) return this.conversations();
    return this.conversations().filter(
      (c) =>
        c.title.toLowerCase().includes(q) || this.items(c.id).some((i) => i.text.toLowerCase().includes(q)),
    );
  }

  /** The time of the latest activity of `chat`, in ms since 1970 (NaN when its keys say none). */
  activity(chat: string): number {
    const last = this.lastItem(chat);
    return keyTime(last > chat ? last : chat);
  }

  /** The changes that turn this state into `next`. */
  changesTo(next: State): Change[] {
    const out: Change[] = [];
    for (const table of TABLE_NAMES) {
      const mine = this.tables.get(table)!;
      const theirs = next.tables.get(table)!;
      for (const [key, row] of theirs) {
        const before = mine.get(key) ?? null;
        if (!before || !sameRow(before, row)) out.push({ table, key, row, before });
      }
      for (const [key, before] of mine) if (!theirs.has(key)) out.push({ table, key, row: null, before });
    }
    return out;
  }
}
