/**
 * Going through every conversation's items without opening them in the store: each journal is
 * read, looked through and let go, one after another, so memory holds one conversation at a time
 * and the event loop is free between two (a search over all history, the sweeps that need every
 * item). A conversation the store has open is looked through in memory, as it is now.
 */
import { readFile } from "node:fs/promises";
import type { Item } from "../row-schemas";
import { readBytes } from "./file";

/** Where the scan finds each conversation: its items when open, else its journal's path. */
export interface Shelf {
  /** Every conversation that has items. */
  chats(): string[];
  /** The items of `chat` when it is open in the store, else undefined. */
  open(chat: string): Item[] | undefined;
  /** The journal of `chat`. */
  path(chat: string): string;
}

/** How many journals are read at once. */
const AT_ONCE = 4;

const yielded = () => new Promise<void>((r) => setImmediate(r));

/**
 * Calls `each` with the items of every conversation on `shelf`. `skip`, given a journal's bytes,
 * may say that it holds nothing wanted, so it is not read into rows.
 */
export async function eachChat(
  shelf: Shelf,
  each: (chat: string, items: Item[]) => void,
  skip?: (journal: Buffer) => boolean,
): Promise<void> {
  const chats = shelf.chats();
  for (let at = 0; at < chats.length; at += AT_ONCE) {
    const batch = chats.slice(at, at + AT_ONCE);
    const read = await Promise.all(
      batch.map((chat) => (shelf.open(chat) ? null : readFile(shelf.path(chat)).catch(() => null))),
    );
    for (let i = 0; i < batch.length; i++) {
      const chat = batch[i];
      const open = shelf.open(chat);
      if (open) {
        each(chat, open);
        continue;
      }
      const buf = read[i];
      if (!buf) continue;
      if (skip?.(buf)) continue;
      each(chat, readBytes(buf, 0).state.items(chat));
    }
    await yielded();
  }
}

/** Characters outside ASCII whose lower case holds an ASCII letter (İ, the Kelvin sign), in UTF-8. */
const FOLDS_TO_ASCII = [Buffer.from("\u0130"), Buffer.from("\u212a")];

/**
 * A test that says a journal surely does not hold `query` (in lower case) in any case: it looks
 * for the query as JSON writes it. An ASCII query is looked for in the bytes as they are, ignoring
 * ASCII case (fast, nothing decoded); any other in the text in lower case.
 */
function passOver(query: string): (journal: Buffer) => boolean {
  const written = JSON.stringify(query).slice(1, -1);
  // A patch appends to a text: a word may be split between two lines, so such a journal is read.
  const patched = (journal: Buffer) => journal.includes('"a":{');
  if (/^[\x20-\x7e]*$/.test(written)) {
    const pattern = new RegExp(written.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"), "i");
    return (journal) =>
      !patched(journal) &&
      !FOLDS_TO_ASCII.some((c) => journal.includes(c)) &&
      !pattern.test(journal.toString("latin1"));
  }
  return (journal) => !patched(journal) && !journal.toString("utf8").toLowerCase().includes(written);
}

/**
 * The conversations on `shelf` whose items' text holds `query` (in any case). A journal that
 * surely does not hold it is passed over unread (see `passOver`).
 */
export async function searchItems(shelf: Shelf, query: string): Promise<Set<string>> {
  const q = query.toLowerCase();
  const found = new Set<string>();
  await eachChat(
    shelf,
    (chat, items) => {
      if (items.some((i) => i.text.toLowerCase().includes(q))) found.add(chat);
    },
    passOver(q),
  );
  return found;
}

/** The items of every conversation on `shelf` that `wanted` keeps (journals without `hint` unread). */
export async function findItems(
  shelf: Shelf,
  wanted: (item: Item) => boolean,
  hint?: string,
): Promise<Item[]> {
  const out: Item[] = [];
  await eachChat(
    shelf,
    (_chat, items) => {
      for (const item of items) if (wanted(item)) out.push(item);
    },
    hint === undefined ? undefined : (journal) => !journal.includes(hint),
  );
  return out;
}
