/**
 * Moving items out of the main journal into each conversation's own (format 1, one journal of
 * every row, to format 2, see listing.ts), once, safely: every conversation's journal is written
 * whole and fsynced first (a temporary file renamed over it), then the main journal is rewritten
 * without the items, atomically — the moment the move takes effect. A crash before that leaves the
 * old journal as it was and the next opening moves it again (the conversations' journals written
 * meanwhile are written again, the same); after it, there is nothing left to move. The writer
 * opens the main journal through `openMain`, which repairs it and moves it when it is old.
 */
import { constants } from "node:fs";
import { mkdir, open, readdir, rename, unlink } from "node:fs/promises";
import { join } from "node:path";
import type { Item } from "../row-schemas";
import { readJournal, repair, writeAtomic, type Reading } from "./file";
import { putLine } from "./lines";
import { CHATS, chatPath, formatLine, listLine, takeInternal, type Listing } from "./listing";
import { State } from "./state";

/** How many conversations' journals are written at once. */
const AT_ONCE = 8;

/** True when the main journal's `reading` still holds items (or is of the format before conversations had journals). */
export function needsMove(reading: Reading, version: number): boolean {
  return reading.state.count("items") > 0 || (version === 0 && reading.size > 0);
}

/** The items of `state` by conversation. */
function byChat(state: State): Map<string, Item[]> {
  const chats = new Map<string, Item[]>();
  for (const [table, row] of state.all()) {
    if (table !== "items") continue;
    const item = row as Item;
    let items = chats.get(item.chat);
    if (!items) chats.set(item.chat, (items = []));
    items.push(item);
  }
  return chats;
}

async function syncFolder(folder: string): Promise<void> {
  try {
    const dir = await open(folder, constants.O_RDONLY);
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    // Not every platform syncs a folder.
  }
}

/** Writes the journal of one conversation: the items it had (if any) with `items` over them. */
async function writeChat(path: string, items: Item[]): Promise<State> {
  const state = (await readJournal(path)).state;
  for (const item of items) state.apply("items", item.id, item);
  const text = [...state.all()].map(([table, row]) => putLine(table, row)).join("");
  const temp = `${path}.move.tmp`;
  const fh = await open(temp, "w");
  try {
    await fh.writeFile(text);
    await fh.sync();
  } finally {
    await fh.close();
  }
  await rename(temp, path);
  return state;
}

/**
 * Moves the items of the main journal at `path` (read as `reading`, its store's own lines already
 * taken into `listing`) into their conversations' journals in `folder`, then rewrites it (see the
 * top of this file). `listing` ends saying every conversation's items.
 */
export async function moveItems(
  folder: string,
  path: string,
  reading: Reading,
  listing: Map<string, Listing>,
): Promise<void> {
  const chats = [...byChat(reading.state)];
  const dir = join(folder, CHATS);
  await mkdir(dir, { recursive: true });
  // What a move cut short left behind.
  for (const name of await readdir(dir))
    if (name.endsWith(".tmp")) await unlink(join(dir, name)).catch(() => undefined);
  for (let at = 0; at < chats.length; at += AT_ONCE) {
    await Promise.all(
      chats.slice(at, at + AT_ONCE).map(async ([chat, items]) => {
        const state = await writeChat(chatPath(folder, chat), items);
        listing.set(chat, {
          last: state.lastItem(chat),
          count: state.count("items"),
          open: state.items(chat).filter((i) => !i.done).length,
        });
      }),
    );
  }
  await syncFolder(dir);
  const parts = [formatLine()];
  for (const [table, row] of reading.state.all()) if (table !== "items") parts.push(putLine(table, row));
  for (const [chat, l] of listing) parts.push(listLine(chat, l));
  for (const line of reading.foreign) parts.push(line + "\n");
  await writeAtomic(path, parts.join(""));
}

/**
 * The main journal at `path` as its writer opens it: read, what a crash left put aside in
 * `corruptPath` (repair), moved to this format once when it is older, and the store's own lines
 * taken out into the conversations' listings.
 */
export async function openMain(
  folder: string,
  path: string,
  corruptPath: string,
): Promise<{ reading: Reading; listing: Map<string, Listing> }> {
  let reading = await readJournal(path);
  await repair(path, reading, corruptPath);
  const listing = new Map<string, Listing>();
  const version = takeInternal(reading.foreign, listing);
  const problems = reading.problems;
  if (needsMove(reading, version)) {
    await moveItems(folder, path, reading, listing);
    reading = await readJournal(path);
    takeInternal(reading.foreign, listing);
    reading.problems = problems.concat(reading.problems);
  }
  return { reading, listing };
}
