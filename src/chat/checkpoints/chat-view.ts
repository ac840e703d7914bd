/**
 * The checkpoints of `@tandem`'s answers in VS Code's Chat view. That view keeps its conversations
 * itself, not in Tandem's store, so each Chat session has a conversation key of its own, made on
 * its first answer and carried in the answers' metadata; its prefix tells the checkpoint stores'
 * sweep at start (which drops the checkpoints of conversations gone from the store) to leave it
 * alone, and its checkpoints go only when the size limit drops the oldest. The messages whose
 * answers took a checkpoint are listed, so a restore names only one of them.
 */
import { z } from "zod";
import { item, keyTime, newKey } from "../make";
import type { Item } from "../row-schemas";

/** How every Chat session's conversation key begins. */
export const CHAT_VIEW = "chat-view-";

/** The most messages listed; the oldest go first (their checkpoints are long gone by then). */
export const MAX_LISTED = 500;

/** A new Chat session's conversation key. */
export function chatViewKey(): string {
  return CHAT_VIEW + newKey();
}

/** Whether `chat` is a Chat session's conversation key (as `chatViewKey` makes them). */
export function isChatViewKey(chat: unknown): chat is string {
  return typeof chat === "string" && /^chat-view-[0-9a-z]{19}$/.test(chat);
}

/** The conversations the store keeps, and every Chat session: what the sweep at start keeps. */
class KeptChats extends Set<string> {
  override has(chat: string): boolean {
    return super.has(chat) || isChatViewKey(chat);
  }
}

/**
 * The conversations whose checkpoints the sweep at start keeps: those of the store (`conversations`)
 * and every Chat session, which the store never holds.
 */
export function keptChats(conversations: Iterable<string>): ReadonlySet<string> {
  return new KeptChats(conversations);
}

/**
 * A message of the Chat view whose answer took a checkpoint. The schema is made on first use: the editor
 * layer's extension.js uses this file's keys, and a schema made when the file loads would bring zod in.
 */
function chatCheckpointShape() {
  return z.strictObject({
    /** Its Chat session's conversation key. */
    chat: z.string().refine(isChatViewKey),
    /** Its key, made when it was asked (keys sort in time). */
    id: z.string().regex(/^[0-9a-z]{19}$/),
    /** What the person asked. */
    text: z.string(),
  });
}
let chatCheckpoint: ReturnType<typeof chatCheckpointShape> | undefined;
export type ChatCheckpoint = z.infer<ReturnType<typeof chatCheckpointShape>>;

/** The listed messages in what was stored (anything else in it is left out, never trusted). */
export function listedIn(stored: unknown): ChatCheckpoint[] {
  if (!Array.isArray(stored)) return [];
  return stored.flatMap((entry: unknown) => {
    const read = (chatCheckpoint ??= chatCheckpointShape()).safeParse(entry);
    return read.success ? [read.data] : [];
  });
}

/** The list with `entry` last (listed once), at most `max` long. */
export function listed(
  list: readonly ChatCheckpoint[],
  entry: ChatCheckpoint,
  max = MAX_LISTED,
): ChatCheckpoint[] {
  const others = list.filter((c) => c.chat !== entry.chat || c.id !== entry.id);
  return [...others, entry].slice(-max);
}

/**
 * The listed message `named` names ({chat, id}), or undefined: what a command's caller passes is
 * never taken as a message, only used to find one Tandem listed (its words come from the list).
 */
export function knownCheckpoint(list: readonly ChatCheckpoint[], named: unknown): ChatCheckpoint | undefined {
  const read = z.object({ chat: z.string(), id: z.string() }).safeParse(named);
  if (!read.success) return undefined;
  const { chat, id } = read.data;
  return list.find((c) => c.chat === chat && c.id === id);
}

/** The listed messages of the Chat session `chat`, newest first. */
export function sessionCheckpoints(list: readonly ChatCheckpoint[], chat: string): ChatCheckpoint[] {
  return list.filter((c) => c.chat === chat).sort((a, b) => (a.id < b.id ? 1 : a.id > b.id ? -1 : 0));
}

/** When the message was asked, in ms since 1970. */
export function askedAt(c: ChatCheckpoint): number {
  return keyTime(c.id);
}

/** The message as the checkpoints know messages: a user item of its Chat session. */
export function messageOf(c: ChatCheckpoint): Item {
  return { ...item("user", c.text, c.chat), id: c.id };
}
