/**
 * Going back to one of the person's messages from the panel: the files as they were before its
 * answer (the editor's checkpoint), the conversation as it was before it (a fork holding what came
 * before, the original untouched, as edit-and-resend forks), or both; and the files' changes since.
 */
import { randomBytes } from "node:crypto";
import { t } from "../../protocol/l10n";
import type { HostMessage, PanelMessage } from "../../protocol/messages";
import { copiedBefore } from "./fork";
import { conversation } from "../make";
import type { Item } from "../row-schemas";
import type { Store } from "../store";
import type { ViewHost } from "./view-host";
import { reason } from "../../protocol/reason";

/** What the title of a conversation taken back to a message adds to its original's, in English (the title says it in the person's language). */
export const RESTORED = " (restored)";

/**
 * A new conversation holding copies of the items before the person's `message` (nothing is
 * asked: the person writes the next message). Returns its id; throws when `message` is gone.
 */
export function forkBefore(store: Store, message: Item): string {
  const original = store.get("conversations", message.chat);
  if (message.kind !== "user" || !original)
    throw new Error(t("That message is no longer in a conversation."));
  const room = Math.max(0, 200 - t("{0} (restored)", "").length);
  const base = (original.title.trim() || t("Conversation")).slice(0, room);
  const row = conversation(original.agent, t("{0} (restored)", base));
  store.put("conversations", row);
  for (const copy of copiedBefore(store.items(message.chat), message, row.id)) store.put("items", copy);
  return row.id;
}

/**
 * The restore questions asked in the panel, under the person's message: at most one waits; a new
 * one, a panel that reloads or closes answers the waiting one no, so no restore hangs on a question
 * nobody can see any more.
 */
export class RestoreQuestions {
  private waiting?: { ask: string; answer: (yes: boolean) => void };

  constructor(private readonly send: (message: HostMessage) => void) {}

  /** Asks `question` under the message `item`; resolves with the person's answer. */
  ask(item: string, question: string): Promise<boolean> {
    this.cancel();
    // A fresh id per question: a late answer to an earlier one cannot answer this one.
    const ask = randomBytes(12).toString("hex");
    return new Promise((answer) => {
      this.waiting = { ask, answer };
      this.send({ type: "restoreQuestion", item, ask, question });
    });
  }

  /** The panel's answer to the question `ask`; one to an unknown or answered question is ignored. */
  answered(ask: string, yes: boolean): void {
    const waiting = this.waiting;
    if (!waiting || waiting.ask !== ask) return;
    this.waiting = undefined;
    waiting.answer(yes);
  }

  /** Answers the waiting question, if any, no. */
  cancel(): void {
    if (this.waiting) this.answered(this.waiting.ask, false);
  }
}

/**
 * The panel's "restoreTo" and "changesSince": says what was done (or why nothing was) to the panel
 * as a notice, and for "restoreTo" as a `restoreDone` under the message too, whatever the outcome
 * (the panel shows a status there until it comes); resolves with the conversation to open when one
 * was made. Files come first, so a refused or cancelled restore makes no new conversation. With
 * `questions`, the confirmation is asked in the panel.
 */
export async function restoreTo(
  store: Store,
  host: Pick<ViewHost, "send" | "restoreFilesTo" | "changesSince">,
  m: Extract<PanelMessage, { type: "restoreTo" | "changesSince" }>,
  questions?: RestoreQuestions,
): Promise<string | undefined> {
  const item = store.get("items", m.item);
  try {
    if (!item || item.kind !== "user") throw new Error(t("That message is no longer in the conversation."));
    if (m.type === "changesSince") {
      if (!host.changesSince) throw new Error(t("Showing the changes is not available here."));
      const said = await host.changesSince(item);
      if (said) host.send({ type: "notice", level: "info", text: said });
      return undefined;
    }
    const done: string[] = [];
    if (m.files) {
      if (!host.restoreFilesTo) throw new Error(t("Restoring files is not available here."));
      // Asked in the panel, under the message, when the panel can ask; else the editor asks its way.
      const ask = questions && ((question: string) => questions.ask(item.id, question));
      const said = await host.restoreFilesTo(item, ask);
      host.send({ type: "notice", level: "info", text: said });
      done.push(said);
    }
    const chat = m.conversation ? forkBefore(store, item) : undefined;
    if (chat) done.push(t("The conversation before this message is open as a new conversation."));
    if (m.type === "restoreTo")
      host.send({ type: "restoreDone", item: m.item, ok: true, text: done.join(" ") });
    return chat;
  } catch (error) {
    const why = reason(error);
    const text =
      m.type === "changesSince"
        ? t("The changes cannot be shown: {0}", why)
        : t("Nothing was restored: {0}", why);
    host.send({ type: "notice", level: "error", text });
    if (m.type === "restoreTo") host.send({ type: "restoreDone", item: m.item, ok: false, text });
    return undefined;
  }
}
