/**
 * Project instructions in the panel: the chips of the files an answer was given (AGENTS.md…), and
 * the switch that turns them off for the open conversation.
 */
import type { Item } from "../src/protocol/rows";
import { button, h, icon } from "./dom";
import type { ItemView, Panel } from "./items";
import { setAttribute } from "./keyed-rows";
import { t } from "../src/protocol/l10n";

/** The chips of the instructions files `item` was given (none when it names none). */
function chipsOf(item: Item, panel: Panel): HTMLElement | undefined {
  const notes = item.instructions ?? [];
  if (!notes.length) return undefined;
  const chips = notes.map((note) => {
    const label = note.given ? note.path : t("{0} (not read)", note.path);
    const chip = button(
      note.given ? "book" : "warning",
      label,
      () => panel.host.post({ type: "openFile", path: note.path }),
      { showLabel: true, className: note.given ? "chip" : "chip left-out" },
    );
    chip.title = note.note
      ? `${note.path}: ${note.note}`
      : t("Project instructions from {0} were given to the model", note.path);
    return h("span", { role: "listitem" }, chip);
  });
  return h(
    "div",
    { class: "chips instructions", role: "list", "aria-label": t("Project instructions used") },
    ...chips,
  );
}

/** `view` with the instructions chips of its row above it, kept as the row changes. */
export function withInstructions(view: ItemView, item: Item, panel: Panel): ItemView {
  const show = (row: Item) => {
    view.element.querySelector(":scope > .chips.instructions")?.remove();
    const chips = chipsOf(row, panel);
    if (chips) view.element.prepend(chips);
  };
  show(item);
  return {
    element: view.element,
    update(row) {
      view.update(row);
      show(row);
    },
    patched: view.patched?.bind(view),
  };
}

/**
 * The switch of the open conversation's project instructions. Before a conversation exists it is
 * the new chat's: kept with the draft and sent with its first message.
 */
export class InstructionsSwitch {
  readonly element = h("button", {
    type: "button",
    class: "button icon-only instructions-switch",
    "aria-pressed": "true",
    title: t("Project instructions (AGENTS.md…): on"),
    "aria-label": t("Project instructions"),
  });
  /** The new chat's setting (the draft's), until its first message makes the conversation. */
  draft = true;

  constructor(
    private readonly panel: Panel,
    private readonly changed: () => void = () => undefined,
  ) {
    this.element.append(icon("book"));
    this.element.addEventListener("click", () => {
      const { store, host } = this.panel;
      if (store.chat) host.post({ type: "instructions", chat: store.chat, on: !this.on() });
      else {
        this.draft = !this.draft;
        this.refresh();
        this.changed();
      }
    });
    this.refresh();
  }

  /** Whether the open conversation (or the new chat) is given the project's instructions. */
  private on(): boolean {
    const { store } = this.panel;
    if (!store.chat) return this.draft;
    return store.tables.conversations.get(store.chat)?.instructions !== false;
  }

  /** Shows the open conversation's setting, or the new chat's. */
  refresh(): void {
    const on = this.on();
    setAttribute(this.element, "aria-pressed", String(on));
    const chat = this.panel.store.chat !== "";
    const title = on
      ? chat
        ? t("Project instructions (AGENTS.md…): on for this conversation")
        : t("Project instructions (AGENTS.md…): on for the new conversation")
      : chat
        ? t("Project instructions (AGENTS.md…): off for this conversation")
        : t("Project instructions (AGENTS.md…): off for the new conversation");
    setAttribute(this.element, "title", title);
    this.element.classList.toggle("off", !on);
  }
}
