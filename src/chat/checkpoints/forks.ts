/**
 * Checkpoints across forks. A forked conversation (edit and resend, "Restore conversation") holds
 * copies of the items before the message it was forked at, with new ids; the checkpoints before
 * those messages' answers were taken in the original conversation, keyed by the original's ids.
 * Each copy names the item it copies where that was first written (`copiedFrom`), so the checkpoint
 * of a copied message is found (through any number of forks), and an original's checkpoints are
 * kept while a fork still names them, even once the original conversation is deleted.
 */
import type { Item } from "../row-schemas";

/** A person's message as the checkpoint store keys it: its conversation and its id. */
export interface Asked {
  chat: string;
  message: string;
}

/**
 * The originals of the person's copied messages of `message`'s conversation from `message` on, in
 * order (`items` are that conversation's items): where the checkpoints before their answers are.
 * The conversation's own messages all come after its copies.
 */
export function originals(items: readonly Item[], message: Item): Asked[] {
  const from = items.some((i) => i.id === message.id) ? items : [message];
  return from.flatMap((i) =>
    i.id >= message.id && i.kind === "user" && i.copiedFrom
      ? [{ chat: i.copiedFrom.chat, message: i.copiedFrom.item }]
      : [],
  );
}

/**
 * The conversations whose checkpoints are still needed: those in `chats`, and every conversation a
 * copy among their items names (a fork still restores to its original's checkpoints).
 */
export function neededChats(
  chats: Iterable<string>,
  itemsOf: (chat: string) => readonly Item[],
): Set<string> {
  const out = new Set<string>();
  for (const chat of chats) {
    out.add(chat);
    for (const i of itemsOf(chat)) if (i.copiedFrom) out.add(i.copiedFrom.chat);
  }
  return out;
}

/**
 * The deleted conversations whose checkpoints wait for the forks that name them (in this window;
 * the sweep on the next activation covers the rest): says which conversations' checkpoints go as
 * conversations are deleted.
 */
export class Waiting {
  private readonly chats = new Set<string>();

  /** After `chat` was deleted, with `needed` the conversations still needed: those whose checkpoints go now. */
  deleted(chat: string, needed: ReadonlySet<string>): string[] {
    const gone: string[] = [];
    for (const c of [chat, ...this.chats]) {
      if (needed.has(c)) this.chats.add(c);
      else if (!gone.includes(c)) {
        this.chats.delete(c);
        gone.push(c);
      }
    }
    return gone;
  }
}
