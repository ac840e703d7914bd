/**
 * The composer's `/` menu: typing `/` at the start of the message lists the prompt files the person
 * can start (and the panel's own `/compact`), filtered as they type the name. Focus stays in the
 * message box (a combobox after the WAI-ARIA pattern): ↑/↓ move, Enter or Tab chooses, Escape closes.
 * Choosing puts `/name ` in the box; the host starts the file when the message is sent.
 */
import type { PromptEntry } from "../src/protocol/messages";
import { h, icon } from "./dom";
import { t } from "../src/protocol/l10n";

/** The panel's own command, listed beside the prompt files. */
const OWN: () => PromptEntry[] = () => [
  {
    name: "compact",
    description: t("Condense the conversation for the model"),
    hint: "",
    source: "workspace",
  },
];

export class SlashMenu {
  readonly element: HTMLElement;
  private readonly list: HTMLElement;
  private prompts: PromptEntry[] = [];
  private shown: PromptEntry[] = [];
  private active = 0;
  private asked = false;

  constructor(
    private readonly input: HTMLTextAreaElement,
    /** Asks the host for the prompt files; it answers with `prompts`. */
    private readonly ask: () => void,
  ) {
    this.list = h("ul", {
      class: "context-options",
      role: "listbox",
      id: "slash-list",
      "aria-label": t("Prompt files"),
    });
    this.element = h("div", { class: "context-picker slash-menu", hidden: true }, this.list);
    this.list.addEventListener("mousedown", (event) => event.preventDefault());
    input.setAttribute("aria-autocomplete", "list");
    input.addEventListener("blur", () => this.close());
  }

  get isOpen(): boolean {
    return !this.element.hidden;
  }

  /** The host's prompt files. */
  listed(prompts: PromptEntry[]): void {
    this.prompts = prompts;
    this.update();
  }

  /** Opens, filters or closes the menu for what the box holds now: a `/name` being typed at its start. */
  update(): void {
    const typed = /^\/([\w.-]*)$/.exec(this.input.value.slice(0, this.input.selectionStart));
    if (!typed || this.input.selectionStart !== this.input.selectionEnd) return this.close();
    if (!this.asked) {
      this.asked = true;
      this.ask();
    }
    const name = typed[1].toLowerCase();
    const all = [...this.prompts, ...OWN()];
    this.shown = [
      ...all.filter((p) => p.name.toLowerCase().startsWith(name)),
      ...all.filter((p) => !p.name.toLowerCase().startsWith(name) && p.name.toLowerCase().includes(name)),
    ];
    if (!this.shown.length) return this.close();
    this.active = Math.min(this.active, this.shown.length - 1);
    this.element.hidden = false;
    this.input.setAttribute("aria-expanded", "true");
    this.input.setAttribute("aria-controls", this.list.id);
    this.render();
  }

  /** Handles a key in the box while the menu is open; true when it did (the composer does nothing more). */
  key(event: KeyboardEvent): boolean {
    if (!this.isOpen || event.isComposing) return false;
    switch (event.key) {
      case "ArrowDown":
      case "ArrowUp":
        event.preventDefault();
        this.active =
          (this.active + (event.key === "ArrowDown" ? 1 : -1) + this.shown.length) % this.shown.length;
        this.render();
        return true;
      case "Enter":
      case "Tab":
        if (event.shiftKey) return false;
        event.preventDefault();
        this.choose(this.active);
        return true;
      case "Escape":
        event.preventDefault();
        event.stopPropagation();
        this.close();
        return true;
    }
    return false;
  }

  close(): void {
    if (this.element.hidden) return;
    this.element.hidden = true;
    this.asked = false;
    this.active = 0;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  private render(): void {
    this.list.replaceChildren(
      ...this.shown.map((prompt, index) => {
        const option = h(
          "li",
          {
            class: "context-option",
            role: "option",
            id: `slash-${index}`,
            "aria-selected": index === this.active ? "true" : "false",
          },
          icon(prompt.source === "person" ? "account" : "symbol-event"),
          h("span", { class: "context-label", text: `/${prompt.name}` }),
          h("span", {
            class: "context-detail muted",
            text: [prompt.description, prompt.hint].filter(Boolean).join(" — "),
          }),
        );
        option.addEventListener("click", () => this.choose(index));
        return option;
      }),
    );
    this.input.setAttribute("aria-activedescendant", `slash-${this.active}`);
    (this.list.children[this.active] as HTMLElement | undefined)?.scrollIntoView({ block: "nearest" });
  }

  private choose(index: number): void {
    const prompt = this.shown[index];
    if (!prompt) return;
    const rest = this.input.value.slice(this.input.selectionStart).replace(/^[\w.-]*/, "");
    const head = `/${prompt.name} `;
    this.input.value = head + rest.replace(/^\s+/, "");
    this.input.setSelectionRange(head.length, head.length);
    this.close();
    this.input.dispatchEvent(new Event("input"));
  }
}
