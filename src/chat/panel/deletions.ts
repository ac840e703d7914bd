/**
 * A conversation deleted from the panel, with a moment to bring it back: its rows are kept for a
 * few seconds, then the deletion is final (and what only it used, such as kept context files, goes).
 */
import type { Item, Rows } from "../row-schemas";
import type { Store } from "../store";

/** How long a deleted conversation can be brought back. */
const UNDO_MS = 10_000;

/** The panel's deletions that can still be undone. */
export class Deletions {
  private readonly deleted = new Map<
    string,
    { rows: Item[]; chat: Rows["conversations"]; timer: ReturnType<typeof setTimeout> }
  >();

  constructor(
    private readonly store: Store,
    /** Called with a conversation's rows once its deletion can no longer be undone. */
    private readonly final: (rows: Item[]) => void,
  ) {}

  /** Deletes the conversation `chat`; false when there was none. */
  delete(chat: string): boolean {
    const row = this.store.get("conversations", chat);
    if (!row) return false;
    const rows = this.store.items(chat);
    this.store.deleteConversation(chat);
    const timer = setTimeout(() => this.forGood(chat), UNDO_MS);
    timer.unref?.();
    this.deleted.set(chat, { rows, chat: row, timer });
    return true;
  }

  /** Brings the deleted conversation `chat` back; false when it can no longer be. */
  undo(chat: string): boolean {
    const kept = this.deleted.get(chat);
    if (!kept) return false;
    clearTimeout(kept.timer);
    this.deleted.delete(chat);
    this.store.put("conversations", kept.chat);
    // The answer that was cut off by the delete stays closed: it is not answered again.
    for (const item of kept.rows)
      this.store.put("items", { ...item, done: item.kind === "user" ? true : item.done });
    return true;
  }

  /** Makes every deletion final (the panel closes within the undo window). */
  finishAll(): void {
    for (const chat of [...this.deleted.keys()]) this.forGood(chat);
  }

  private forGood(chat: string): void {
    const gone = this.deleted.get(chat);
    if (!gone) return;
    clearTimeout(gone.timer);
    this.deleted.delete(chat);
    this.final(gone.rows);
  }
}
