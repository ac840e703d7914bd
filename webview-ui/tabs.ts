/**
 * The panel's tabs: a tablist of codicon buttons (arrow keys move between them) and their pages. The
 * "New chat" button sits beside the tablist, not in it: a tablist holds only tabs.
 */
import { button, h, icon } from "./dom";
import { t } from "../src/protocol/l10n";

export interface Tab {
  id: string;
  label: string;
  icon: string;
  page: HTMLElement;
  /** What gets focus when the tab is chosen. */
  focus?: () => HTMLElement;
}

export class Tabs {
  readonly element = h("div", { class: "shell" });
  private readonly bar = h("div", { class: "tabs" });
  private readonly list = h("div", { class: "tablist", role: "tablist", "aria-label": "Tandem" });
  private readonly buttons = new Map<string, HTMLButtonElement>();
  current = "";

  constructor(
    private readonly tabs: Tab[],
    newChat: () => void,
    private readonly changed: () => void,
  ) {
    for (const tab of tabs) {
      const control = h(
        "button",
        {
          type: "button",
          role: "tab",
          id: `tab-${tab.id}`,
          "aria-controls": `page-${tab.id}`,
          title: tab.label,
          "aria-label": tab.label,
        },
        icon(tab.icon),
      );
      control.addEventListener("click", () => this.select(tab.id));
      control.addEventListener("keydown", (event) => this.key(event, tab.id));
      this.buttons.set(tab.id, control);
      this.list.append(control);
      tab.page.id = `page-${tab.id}`;
      tab.page.setAttribute("role", "tabpanel");
      tab.page.setAttribute("aria-labelledby", `tab-${tab.id}`);
    }
    this.bar.append(
      this.list,
      h("span", { class: "grow" }),
      button("add", t("New chat"), newChat, { className: "new-chat" }),
    );
    this.element.append(this.bar, ...tabs.map((tab) => tab.page));
  }

  /** Shows the tab `id` (the first one if there is none), and moves focus into it when asked. */
  select(id: string, focus = true): void {
    const chosen = this.tabs.find((tab) => tab.id === id) ?? this.tabs[0];
    this.current = chosen.id;
    for (const tab of this.tabs) {
      const on = tab === chosen;
      tab.page.hidden = !on;
      const control = this.buttons.get(tab.id);
      control?.setAttribute("aria-selected", String(on));
      control?.setAttribute("tabindex", on ? "0" : "-1");
    }
    if (focus) chosen.focus?.().focus();
    this.changed();
  }

  private key(event: KeyboardEvent, id: string): void {
    const index = this.tabs.findIndex((tab) => tab.id === id);
    let next = -1;
    if (event.key === "ArrowRight") next = (index + 1) % this.tabs.length;
    else if (event.key === "ArrowLeft") next = (index - 1 + this.tabs.length) % this.tabs.length;
    else if (event.key === "Home") next = 0;
    else if (event.key === "End") next = this.tabs.length - 1;
    if (next < 0) return;
    event.preventDefault();
    const tab = this.tabs[next];
    this.select(tab.id, false);
    this.buttons.get(tab.id)?.focus();
  }
}
