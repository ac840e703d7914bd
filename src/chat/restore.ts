/**
 * Going back to one of the person's messages from the panel: the files as they were before its
 * answer (the editor's checkpoint), the conversation as it was before it (a fork holding what came
 * before, the original untouched, as edit-and-resend forks), or both; and the files' changes since.
 */
import { t } from "../protocol/l10n";
import type { PanelMessage } from "../protocol/messages";
import { copiedBefore } from "./fork";
import { conversation } from "./make";
import type { Item } from "./rows";
import type { Store } from "./store";
import type { ViewHost } from "./view-host";

/** What the title of a conversation taken back to a message adds to its original's. */
export const RESTORED = " (restored)";

/**
 * A new conversation holding copies of the items before the person's `message` (nothing is
 * asked: the person writes the next message). Returns its id; throws when `message` is gone.
 */
export function forkBefore(store: Store, message: Item): string {
  const original = store.get("conversations", message.chat);
  if (message.kind !== "user" || !original)
    throw new Error(t("That message is no longer in a conversation."));
  const base = (original.title.trim() || "Conversation").slice(0, 200 - RESTORED.length);
  const row = conversation(original.agent, base + RESTORED);
  store.put("conversations", row);
  for (const copy of copiedBefore(store.items(message.chat), message, row.id)) store.put("items", copy);
  return row.id;
}

/**
 * The panel's "restoreTo" and "changesSince": says what was done (or why nothing was) to the panel
 * as a notice; resolves with the conversation to open when one was made. Files come first, so a
 * refused or cancelled restore makes no new conversation.
 */
export async function restoreTo(
  store: Store,
  host: Pick<ViewHost, "send" | "restoreFilesTo" | "changesSince">,
  m: Extract<PanelMessage, { type: "restoreTo" | "changesSince" }>,
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
    if (m.files) {
      if (!host.restoreFilesTo) throw new Error(t("Restoring files is not available here."));
      host.send({ type: "notice", level: "info", text: await host.restoreFilesTo(item) });
    }
    return m.conversation ? forkBefore(store, item) : undefined;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    const text =
      m.type === "changesSince"
        ? t("The changes cannot be shown: {0}", why)
        : t("Nothing was restored: {0}", why);
    host.send({ type: "notice", level: "error", text });
    return undefined;
  }
}
