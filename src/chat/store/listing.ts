/**
 * What the store keeps of each conversation without its items, on lines of its own in the main
 * journal, so the conversation list and the runner's start need no conversation opened:
 *   listing {"t":"~list","k":CHAT,"r":{"last":KEY,"count":N,"open":N}}   (or "d":1: no items left)
 *   format  {"t":"~format","k":"store","r":{"version":2}}                 (the journal's first line)
 * `last` is the key of its newest item (the list's order), `count` how many items it has, `open`
 * how many are not done (a message waiting for its answer, an answer growing when a crash came).
 * A conversation's own journal is the truth: when it is opened its listing is made true again.
 */
import { createHash } from "node:crypto";
import { join } from "node:path";

/** A conversation as the list knows it without its items. */
export interface Listing {
  last: string;
  count: number;
  open: number;
}

const LIST = "~list";
const FORMAT = "~format";
/** The journal format this version writes: 2, the items of each conversation in a journal of its own. */
export const VERSION = 2;

/** The line that says `chat`'s listing (null: it has no items any more). */
export function listLine(chat: string, listing: Listing | null): string {
  return JSON.stringify(listing ? { t: LIST, k: chat, r: listing } : { t: LIST, k: chat, d: 1 }) + "\n";
}

/** The line that says which format the journal is in. */
export function formatLine(): string {
  return JSON.stringify({ t: FORMAT, k: "store", r: { version: VERSION } }) + "\n";
}

/** What a line of the store's own (a table whose name starts with "~") says; null for any other line. */
export type Internal =
  { kind: "list"; chat: string; listing: Listing | null } | { kind: "format"; version: number } | null;

const whole = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n >= 0;

/** Reads `line` as one of the store's own lines; null when it is not one (or does not read). */
export function readInternal(line: string): Internal {
  if (!line.startsWith('{"t":"~')) return null;
  let value: { t?: unknown; k?: unknown; r?: Record<string, unknown>; d?: unknown };
  try {
    value = JSON.parse(line) as typeof value;
  } catch {
    return null;
  }
  if (value.t === FORMAT && whole(value.r?.version)) return { kind: "format", version: value.r.version };
  if (value.t !== LIST || typeof value.k !== "string") return null;
  if (value.d !== undefined) return { kind: "list", chat: value.k, listing: null };
  const r = value.r;
  if (!r || typeof r.last !== "string" || !whole(r.count) || !whole(r.open)) return null;
  return { kind: "list", chat: value.k, listing: { last: r.last, count: r.count, open: r.open } };
}

/** True when two listings say the same. */
export function sameListing(a: Listing | undefined, b: Listing | undefined): boolean {
  return a?.last === b?.last && a?.count === b?.count && a?.open === b?.open;
}

/** The folder of the conversations' journals, in the store's folder. */
export const CHATS = "chats";

/** The journal of the conversation `chat`: its id when that makes a safe file name, else a hash of it. */
export function chatPath(folder: string, chat: string): string {
  const name = /^[0-9a-z][0-9a-z_-]{0,99}$/.test(chat)
    ? chat
    : `~${createHash("sha256").update(chat).digest("hex")}`;
  return join(folder, CHATS, `${name}.jsonl`);
}

/**
 * Takes the store's own lines out of a journal's `foreign` lines (those of tables this version
 * does not know), into `listing`; the version the journal says it is in (0: none said).
 */
export function takeInternal(foreign: string[], listing: Map<string, Listing>): number {
  let version = 0;
  let kept = 0;
  for (const line of foreign) {
    const found = readInternal(line);
    if (!found) foreign[kept++] = line;
    else if (found.kind === "format") version = found.version;
    else if (found.listing) listing.set(found.chat, found.listing);
    else listing.delete(found.chat);
  }
  foreign.length = kept;
  return version;
}
