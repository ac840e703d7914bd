/**
 * Condensing in conversations: the summary item that marks where the model's view was condensed,
 * a summary kept for the next runs of the same conversation (while the history it covers is the
 * same), and `/compact`, the person's wish to condense now.
 */
import { createHash } from "node:crypto";
import { compact, condensingOf } from "../../agent/condense-turn";
import type { Agent, Message } from "../../agent/types";
import type { Item } from "../row-schemas";
import { parentOf } from "./answer-items";
import type { Answer } from "./answer-items";
import type { Tally } from "./usage";
import { t } from "../../protocol/l10n";

/** The message that asks to condense the conversation now. */
export const COMPACT = "/compact";

/** A summary kept between runs: the text, and the messages it covers by count and fingerprint. */
export interface Kept {
  count: number;
  print: string;
  text: string;
}

/** True when the person's message is `/compact`. */
export function isCompact(user: Item): boolean {
  return user.kind === "user" && user.text.trim() === COMPACT;
}

/**
 * A fingerprint of what `messages` say (roles, words, tools), not of ids: a history rebuilt from
 * the stored items prints the same as the one a run built as it went.
 */
export function fingerprint(messages: readonly Message[]): string {
  const hash = createHash("sha256");
  for (const m of messages) {
    hash.update(`${m.role}\u0000${m.text}\u0000`);
    if (m.role === "assistant")
      for (const c of m.calls ?? []) hash.update(`${c.name}\u0000${c.arguments}\u0000`);
  }
  return hash.digest("hex");
}

/** The history without the `/compact` messages: they are wishes to Tandem, not words to the model. */
export function withoutCommands(history: readonly Message[]): Message[] {
  return history.filter((m) => !(m.role === "user" && m.text.trim() === COMPACT));
}

/** Takes up `kept` when the history still begins with what it covers. */
export function resume(a: Agent, kept: Kept | undefined): void {
  if (!kept || kept.count > a.history.length) return;
  if (fingerprint(a.history.slice(0, kept.count)) !== kept.print) return;
  condensingOf(a).summary = { count: kept.count, text: kept.text };
}

/**
 * Writes a summary item into the answer each time the model's view is condensed by a summary, and
 * gives `keep` the summary to take up in the next run.
 */
export function marking(a: Agent, written: Answer, tally: Tally, keep: (kept: Kept) => void): void {
  condensingOf(a).told = (event) => {
    if (!event.summary) return;
    const { count, text } = event.summary;
    written.note("summary", text);
    keep({ count, print: fingerprint(a.history.slice(0, count)), text });
    tally.viewed(event.tokens, event.window);
  };
}

/** Answers `/compact`: summarises the conversation so far; says so when there is nothing to condense. */
export async function compactNow(a: Agent, written: Answer, signal: AbortSignal): Promise<void> {
  const made = await compact(a, signal);
  if (!made) written.error(t("There is nothing to condense yet."));
}

/**
 * The summary the latest `/compact` before `user` stored, with the messages it covers (all those
 * before it, counted by `before`), for a run after a restart, when no summary is kept in memory.
 */
export async function storedCompact(
  items: readonly Item[],
  user: Item,
  before: (compact: Item) => Promise<number>,
): Promise<{ count: number; text: string } | undefined> {
  for (let i = items.length - 1; i >= 0; i--) {
    const row = items[i];
    if (row.kind !== "summary" || row.id >= user.id) continue;
    const compact = items.find((u) => u.id === parentOf(row.id));
    if (!compact || !isCompact(compact)) return undefined;
    return { count: await before(compact), text: row.text };
  }
  return undefined;
}
