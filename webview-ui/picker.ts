/**
 * The `@` picker: a popup holding a search box (role combobox) and the list of what can be pulled
 * into the message (role listbox), after the WAI-ARIA combobox pattern — focus stays in the search
 * box, the active option is its `aria-activedescendant`, ↑/↓/Home/End move, Enter or Tab chooses,
 * Escape closes, and typing filters (the host answers each query with its entries).
 */
import "./picker.css";
import type { ContextEntry, ContextKind } from "../src/protocol/messages";
import { h, icon } from "./dom";
import { t } from "../src/protocol/l10n";

/** The codicon of each kind of reference. */
export const KIND_ICONS: Record<ContextKind, string> = {
  file: "file",
  folder: "folder",
  symbol: "symbol-method",
  selection: "selection",
  editors: "files",
  problems: "warning",
  terminal: "terminal",
};

let opened = 0;

export class ContextPicker {
  readonly element: HTMLElement;
  readonly search: HTMLInputElement;
  private readonly list: HTMLElement;
  private readonly status: HTMLElement;
  private entries: ContextEntry[] = [];
  private active = -1;
  private readonly id = `context-${++opened}`;

  constructor(
    /** Asks the host for the entries matching `query`. */
    private readonly ask: (query: string) => void,
    /** The person chose `entry`. */
    private readonly chosen: (entry: ContextEntry) => void,
    /**
     * The picker closed without a choice; `typed` is what was in its search box, `refocus` whether
     * focus should go back (Escape) or stays where the person moved it (a click elsewhere).
     */
    private readonly dismissed: (typed: string, refocus: boolean) => void,
  ) {
    this.list = h("ul", {
      class: "context-options",
      role: "listbox",
      id: `${this.id}-list`,
      "aria-label": t("Context"),
    });
    this.search = h("input", {
      class: "context-search",
      type: "text",
      role: "combobox",
      "aria-label": t("Search files, folders, symbols and more"),
      "aria-autocomplete": "list",
      "aria-expanded": "false",
      "aria-controls": this.list.id,
      autocomplete: "off",
      spellcheck: "false",
      placeholder: t("Add context: files, folders, symbols…"),
    });
    // role status is a polite live region by itself; the panel's own [aria-live] region stays the only one.
    this.status = h("div", { class: "visually-hidden", role: "status" });
    this.element = h(
      "div",
      { class: "context-picker", hidden: true },
      h("div", { class: "context-field" }, icon("mention"), this.search),
      this.list,
      this.status,
    );
    this.search.addEventListener("input", () => this.ask(this.search.value));
    this.search.addEventListener("keydown", (event) => this.key(event));
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
    this.element.addEventListener("focusout", (event) => {
      if (this.element.contains(event.relatedTarget as Node | null) || !this.isOpen) return;
      this.close();
      this.dismissed(this.search.value, false);
    });
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** Opens the popup with `typed` in its search box and focus there. */
  open(typed = ""): void {
    this.element.hidden = false;
    this.search.value = typed;
    this.search.setAttribute("aria-expanded", "true");
    this.entries = [];
    this.render();
    this.search.focus();
    this.ask(typed);
  }

  /** Closes the popup (its caller puts focus back). */
  close(): void {
    this.element.hidden = true;
    this.search.setAttribute("aria-expanded", "false");
    this.search.removeAttribute("aria-activedescendant");
  }

  /** The host's entries for `query`; an answer to an older query is ignored. */
  show(query: string, entries: ContextEntry[]): void {
    if (!this.isOpen || query !== this.search.value) return;
    this.entries = entries;
    this.active = entries.findIndex((e) => !e.disabled);
    this.render();
    this.status.textContent = entries.length
      ? entries.length === 1
        ? t("1 result")
        : t("{0} results", entries.length)
      : t("No results");
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.entries.map((entry, index) => {
        const option = h(
          "li",
          {
            class: "context-option",
            role: "option",
            id: `${this.id}-${index}`,
            "aria-selected": index === this.active ? "true" : "false",
            "aria-disabled": entry.disabled ? "true" : undefined,
          },
          icon(KIND_ICONS[entry.ref.kind]),
          h("span", { class: "context-label", text: entry.label }),
          h("span", { class: "context-detail muted", text: entry.detail }),
        );
        option.addEventListener("click", () => this.choose(index));
        return option;
      }),
    );
    if (this.active >= 0) {
      const option = this.list.children[this.active] as HTMLElement | undefined;
      this.search.setAttribute("aria-activedescendant", `${this.id}-${this.active}`);
      option?.scrollIntoView({ block: "nearest" });
    } else {
      this.search.removeAttribute("aria-activedescendant");
    }
  }

  private key(event: KeyboardEvent): void {
    if (event.isComposing) return;
    switch (event.key) {
      case "ArrowDown":
        return this.move(event, 1, this.active);
      case "ArrowUp":
        return this.move(event, -1, this.active < 0 ? this.entries.length : this.active);
      case "Home":
        return this.move(event, 1, -1);
      case "End":
        return this.move(event, -1, this.entries.length);
      case "Enter":
      case "Tab":
        if (this.active < 0) {
          // Nothing to choose: Enter does nothing, Tab leaves the popup as it would any field.
          if (event.key === "Enter") event.preventDefault();
          return;
        }
        event.preventDefault();
        return this.choose(this.active);
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        this.close();
        this.dismissed(this.search.value, true);
        return;
    }
  }

  /** Moves the active option by `step` from `from`, skipping the disabled ones. */
  private move(event: KeyboardEvent, step: number, from: number): void {
    event.preventDefault();
    for (let i = from + step; i >= 0 && i < this.entries.length; i += step) {
      if (!this.entries[i].disabled) {
        this.active = i;
        this.render();
        return;
      }
    }
  }

  private choose(index: number): void {
    const entry = this.entries[index];
    if (!entry || entry.disabled) return;
    this.close();
    this.chosen(entry);
  }
}
