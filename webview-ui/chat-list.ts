/**
 * The conversations, newest first: search by title (here) and by text (the host's search), open,
 * rename in place, and delete with a moment to undo.
 */
import type { Conversation } from "../src/protocol/rows";
import { button, h, icon } from "./dom";
import type { Panel } from "./items";
import { reconcile, remake } from "./keyed-rows";
import { t } from "../src/protocol/l10n";

/** How long a deleted conversation can be brought back. */
const UNDO_MS = 10_000;

export class ChatList {
  readonly element = h("section", { class: "page chats", "aria-label": t("Conversations") });
  readonly search = h("input", {
    type: "search",
    class: "search",
    placeholder: t("Search conversations"),
    "aria-label": t("Search conversations"),
  });
  private readonly list = h("ul", { class: "rows", "aria-label": t("Conversations") });
  private readonly undo = h("div", { class: "undo", role: "status" });
  /** Conversations whose text matches the query, as the host found them. */
  private found: { query: string; chats: Set<string> } = { query: "", chats: new Set() };
  private searchTimer: ReturnType<typeof setTimeout> | undefined;
  private undoTimer: ReturnType<typeof setTimeout> | undefined;
  private renaming = "";

  constructor(
    private readonly panel: Panel,
    private readonly opened: () => void,
  ) {
    this.element.append(
      h(
        "div",
        { class: "page-head" },
        this.search,
        button("add", t("New chat"), () => this.newChat()),
      ),
      this.undo,
      this.list,
    );
    this.search.addEventListener("input", () => {
      this.refresh();
      clearTimeout(this.searchTimer);
      const query = this.search.value.trim();
      // The host searches the text of every conversation; ask once the person pauses.
      if (query) this.searchTimer = setTimeout(() => panel.host.post({ type: "search", query }), 200);
    });
  }

  /** The host's answer to a search. */
  foundChats(query: string, chats: string[]): void {
    this.found = { query, chats: new Set(chats) };
    if (query === this.search.value.trim()) this.refresh();
  }

  newChat(): void {
    this.panel.host.post({ type: "newChat" });
    this.opened();
  }

  /** Shows the list as the store has it. */
  refresh(): void {
    if (this.renaming && this.list.contains(document.activeElement)) return;
    const query = this.search.value.trim().toLowerCase();
    const matches = (c: Conversation) =>
      !query ||
      c.title.toLowerCase().includes(query) ||
      (this.found.query.toLowerCase() === query && this.found.chats.has(c.id));
    const { store } = this.panel;
    const rows = store.conversations().filter(matches);
    // By key: a conversation's row is made again only when what it shows changed.
    reconcile(
      this.list,
      rows.length
        ? rows.map((c) => ({
            key: c.id,
            look: JSON.stringify([c.title, c.id === store.chat, store.running.has(c.id)]),
            make: () => this.row(c),
          }))
        : [
            {
              key: "",
              look: query ? "no match" : "none",
              make: () =>
                h("li", {
                  class: "muted blank",
                  text: query ? t("No conversation matches.") : t("No conversations yet."),
                }),
            },
          ],
    );
  }

  private row(chat: Conversation): HTMLElement {
    const current = chat.id === this.panel.store.chat;
    const title = chat.title || t("New conversation");
    const open = h(
      "button",
      { type: "button", class: "row-main", "aria-current": current ? "true" : undefined, title },
      icon(this.panel.store.running.has(chat.id) ? "loading codicon-modifier-spin" : "comment"),
      h("span", { class: "title", text: title }),
    );
    open.addEventListener("click", () => {
      this.panel.host.post({ type: "openChat", chat: chat.id });
      this.opened();
    });
    open.addEventListener("keydown", (event) => {
      if (event.key === "F2") this.rename(chat, item);
      if (event.key === "Delete") this.remove(chat);
    });
    const item = h(
      "li",
      { class: current ? "row current" : "row", "data-chat": chat.id },
      open,
      button("edit", t("Rename {0}", title), () => this.rename(chat, item)),
      button("trash", t("Delete {0}", title), () => this.remove(chat)),
    );
    return item;
  }

  private rename(chat: Conversation, row: HTMLElement): void {
    const input = h("input", {
      type: "text",
      class: "rename",
      value: chat.title,
      "aria-label": t("New title"),
    });
    this.renaming = chat.id;
    let done = false;
    const finish = (save: boolean) => {
      if (done) return;
      done = true;
      this.renaming = "";
      const title = input.value.trim();
      if (save && title && title !== chat.title)
        this.panel.host.post({ type: "rename", chat: chat.id, title });
      this.refresh();
      this.list.querySelector<HTMLElement>(`[data-chat="${CSS.escape(chat.id)}"] .row-main`)?.focus();
    };
    input.addEventListener("keydown", (event) => {
      if (event.key !== "Enter" && event.key !== "Escape") return;
      // Focus returns to the row's button: without this, the same Enter would also open the chat.
      event.preventDefault();
      finish(event.key === "Enter");
    });
    input.addEventListener("blur", () => finish(true));
    // The row holds the input now: it is made again when the list is shown next.
    remake(row);
    row.replaceChildren(input);
    input.focus();
    input.select();
  }

  private remove(chat: Conversation): void {
    this.panel.host.post({ type: "deleteChat", chat: chat.id });
    clearTimeout(this.undoTimer);
    const undo = button(
      "discard",
      t("Undo"),
      () => {
        this.panel.host.post({ type: "undoDelete", chat: chat.id });
        clearTimeout(this.undoTimer);
        this.undo.replaceChildren();
      },
      { showLabel: true, className: "link" },
    );
    this.undo.replaceChildren(
      h("span", { text: t("Deleted “{0}”.", chat.title || t("New conversation")) }),
      undo,
    );
    undo.focus();
    this.undoTimer = setTimeout(() => this.undo.replaceChildren(), UNDO_MS);
  }
}
