/**
 * Edit and resend, and regenerating an answer. A message sent again in another form forks the
 * conversation: a new conversation holds copies of the items before that message and then the
 * message as sent now, and the runner answers it as any message. The original conversation is not
 * touched, so the store stays append-only (no row is rewritten, nothing is hidden as a branch) and
 * both stay whole in the list. Regenerating the latest answer writes a retry item in place, as the
 * Retry button does; regenerating an earlier one forks the same way, with the message unchanged.
 */
import { fileRef, type FileRef } from "../../protocol/file-refs";
import type { PanelMessage } from "../../protocol/messages";
import { asked, conversation, newKey, retried } from "../make";
import type { Item, State } from "../row-schemas";
import { FINAL, parentOf } from "../runner";
import type { Store } from "../store";
import type { ViewHost } from "./view";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/** The message as the person sends it again: its words, its files, and the model it goes to ("" the agent's). */
export interface Resent {
  text: string;
  files: FileRef[];
  model: string;
}

/** What the title of a fork adds to its original's, in English (the title says it in the person's language). */
export const EDITED = " (edited)";
export const REGENERATED = " (regenerated)";

/** `base` with what `suffix` says, in the person's language when the title is made (a stored title stays as made). */
function suffixed(base: string, suffix: string): string {
  if (suffix === EDITED) return t("{0} (edited)", base);
  if (suffix === REGENERATED) return t("{0} (regenerated)", base);
  return base + suffix;
}

/**
 * The items of `items` before the message `before`, copied into the conversation `to`: new keys
 * in the same order (an answer's items keyed after their message's new key), every field kept.
 * Anything still open in the original (a run going on) is closed in the copy, so the fork does not
 * answer it again: a message as answered, an answer or a call as interrupted. Each copy names the
 * item it copies where that was first written (`copiedFrom`), so the checkpoints taken before the
 * original's answers are found from the copy, through any number of forks.
 */
export function copiedBefore(items: readonly Item[], before: Item, to: string): Item[] {
  const keys = new Map<string, string>();
  const out: Item[] = [];
  for (const i of items) {
    if (i.id >= before.id) break;
    const parent = parentOf(i.id) || i.id;
    let key = keys.get(parent);
    if (!key) keys.set(parent, (key = newKey()));
    const id = parent === i.id ? key : key + i.id.slice(parent.length);
    const copy: Item = { ...i, id, chat: to, copiedFrom: i.copiedFrom ?? { chat: i.chat, item: i.id } };
    if (!copy.done) {
      const cut = copy.kind === "text" || copy.kind === "reasoning" || copy.kind === "call";
      const state: State = cut ? "interrupted" : copy.state;
      out.push({ ...copy, state, done: true });
    } else if (copy.kind === "call" && !FINAL.has(copy.state)) {
      out.push({ ...copy, state: "interrupted" });
    } else {
      out.push(copy);
    }
  }
  return out;
}

/** A fork's title: the original's (else the message's first words) with `suffix`, at most 200 characters. */
function forkTitle(title: string, text: string, suffix: string): string {
  const room = Math.max(0, 200 - suffixed("", suffix).length);
  return suffixed((title.trim() || text.replace(/\s+/g, " ").trim().slice(0, 60)).slice(0, room), suffix);
}

/**
 * Forks the conversation of the person's message `message`: a new conversation with the same agent,
 * titled after the original with `suffix`, holding copies of the items before it and then `sent`
 * (durable before its run starts). Returns the new conversation's id. Throws when `message` is not
 * a message of a conversation that exists.
 */
export async function fork(store: Store, message: Item, sent: Resent, suffix: string): Promise<string> {
  const original = store.get("conversations", message.chat);
  if (message.kind !== "user" || !original)
    throw new Error(t("That message is no longer in a conversation."));
  if (!sent.text.trim()) throw new Error("A message is not empty.");
  const row = conversation(original.agent, forkTitle(original.title, sent.text, suffix));
  store.put("conversations", row);
  for (const copy of copiedBefore(store.items(message.chat), message, row.id)) store.put("items", copy);
  await store.putDurable("items", asked(sent.text, row.id, sent.model, sent.files));
  return row.id;
}

/** The person's message an item answers or asks again (a retry's: the last message before it). */
export function messageOf(store: Store, item: Item): Item | undefined {
  if (item.kind === "user") return item;
  const key = parentOf(item.id) || item.id;
  return store.items(item.chat).findLast((i) => i.kind === "user" && i.id <= key);
}

/**
 * Regenerates the answer to the item `item` (a message, a retry, or an item of their answer) from
 * `model` ("" the one it had): a retry item when it answers the conversation's latest message,
 * else a fork that asks that message again. Returns the conversation the new answer is in.
 */
export async function regenerate(store: Store, item: Item, model: string): Promise<string> {
  const message = messageOf(store, item);
  if (!message) throw new Error(t("There is no message before that answer to answer again."));
  const latest = store.items(message.chat).findLast((i) => i.kind === "user");
  if (latest?.id === message.id) {
    await store.putDurable("items", retried(message.chat, model));
    return message.chat;
  }
  const sent = { text: message.text, files: message.files, model: model || message.model };
  return fork(store, message, sent, REGENERATED);
}

/**
 * The panel's "resend" (after the files are restored, when the person asked) or "regenerate".
 * Resolves with the conversation the new answer is in; what fails is said to the panel and
 * changes nothing (undefined).
 */
export async function sendAgain(
  store: Store,
  host: Pick<ViewHost, "send" | "restoreFilesTo">,
  m: Extract<PanelMessage, { type: "resend" | "regenerate" }>,
): Promise<string | undefined> {
  const item = store.get("items", m.item);
  try {
    if (!item) throw new Error(t("That message is no longer in the conversation."));
    if (m.type === "regenerate") return await regenerate(store, item, m.model);
    if (m.restore) {
      if (!host.restoreFilesTo) throw new Error(t("Restoring files is not available here."));
      host.send({ type: "notice", level: "info", text: await host.restoreFilesTo(item) });
    }
    // The kind of a file is the host's to say, from its name, whatever the panel sent.
    const files = m.files.map((f) => fileRef(f.path, f.name));
    return await fork(store, item, { text: m.text, files, model: m.model }, EDITED);
  } catch (error) {
    const why = reason(error);
    host.send({ type: "notice", level: "error", text: t("Nothing was sent: {0}", why) });
    return undefined;
  }
}
