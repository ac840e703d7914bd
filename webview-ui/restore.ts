/**
 * t("Restore…") on the person's message: the files as they were before its answer, the conversation
 * as it was before it (a new conversation), or both; and t("Show changes since"), which opens the
 * editor's diff. The host's confirmation (naming how many files change) is asked here, under the
 * message, before it writes.
 */
import type { RestoreAsked } from "../src/protocol/messages";
import type { Item } from "../src/protocol/rows";
import { button, h } from "./dom";
import type { PanelBridge } from "./host";
import { t } from "../src/protocol/l10n";
import type { Panel } from "./items";

/** Each message's menu, found from its element (a menu gone from the page is forgotten with it). */
const menus = new WeakMap<Element, RestoreMenu>();
/** The menu showing the host's question, if one does: the host asks one at a time. */
const asking: { menu?: RestoreMenu } = {};

/**
 * Shows the host's question under its message; answers no at once when that message is not on
 * screen (the host would otherwise wait for an answer nobody can give).
 */
export function restoreAsked(message: RestoreAsked, host: PanelBridge): void {
  // A new question replaces the one shown: the host has answered that one no already.
  asking.menu?.withdraw();
  const element = [...document.querySelectorAll<HTMLElement>(".restore-menu")].find(
    (e) => e.dataset.restoreItem === message.item,
  );
  const menu = element && menus.get(element);
  if (menu) menu.ask(message.ask, message.question);
  else host.post({ type: "restoreAnswer", ask: message.ask, yes: false });
}

/** The t("Restore…") button of a message and the choices it opens below the message. */
export class RestoreMenu {
  readonly button: HTMLButtonElement;
  /** The choices or the host's question, empty while closed (placed by the message's view). */
  readonly menu = h("div", {
    class: "restore-menu",
    role: "group",
    "aria-label": t("Restore to this message"),
  });
  /** The id of the host's question shown, if one is. */
  private question?: string;

  constructor(
    private readonly item: Item,
    private readonly panel: Panel,
  ) {
    this.button = button("history", t("Restore…"), () => this.toggle(), { className: "restore-message" });
    this.button.setAttribute("aria-expanded", "false");
    this.menu.dataset.restoreItem = item.id;
    menus.set(this.menu, this);
  }

  private toggle(): void {
    if (this.menu.childElementCount) return this.close();
    const restore = (files: boolean, conversation: boolean) => () => {
      this.panel.host.post({ type: "restoreTo", item: this.item.id, files, conversation });
      this.close();
    };
    this.open(
      button("file", t("Restore files"), restore(true, false), { showLabel: true }),
      button("comment-discussion", t("Restore conversation"), restore(false, true), { showLabel: true }),
      button("history", t("Restore both"), restore(true, true), { showLabel: true }),
      button(
        "diff",
        t("Show changes since"),
        () => {
          this.panel.host.post({ type: "changesSince", item: this.item.id });
          this.close();
        },
        { showLabel: true },
      ),
      button("close", t("Cancel"), () => this.close()),
    );
    (this.menu.firstElementChild as HTMLElement | null)?.focus();
  }

  /** Shows the host's question `ask` in words, with Restore and Cancel; the focus moves to it. */
  ask(ask: string, question: string): void {
    const words = h("p", { class: "restore-words", id: `restore-question-${this.item.id}`, text: question });
    const restore = button("history", t("Restore"), () => this.answer(true), {
      showLabel: true,
      primary: true,
    });
    const dialog = h(
      "div",
      { class: "restore-question", role: "alertdialog", "aria-labelledby": words.id },
      words,
      h(
        "div",
        { class: "restore-answers" },
        restore,
        button("close", t("Cancel"), () => this.answer(false), { showLabel: true }),
      ),
    );
    this.open(dialog);
    this.question = ask;
    asking.menu = this;
    restore.focus();
  }

  /** Drops the question shown without answering it (the host no longer waits for it). */
  withdraw(): void {
    this.question = undefined;
    if (asking.menu === this) asking.menu = undefined;
    if (this.menu.querySelector(".restore-question")) this.close();
  }

  private answer(yes: boolean): void {
    const ask = this.question;
    this.question = undefined;
    if (asking.menu === this) asking.menu = undefined;
    if (ask) this.panel.host.post({ type: "restoreAnswer", ask, yes });
    this.close();
  }

  private open(...children: HTMLElement[]): void {
    this.menu.replaceChildren(...children);
    this.button.setAttribute("aria-expanded", "true");
    this.menu.addEventListener("keydown", this.escape);
  }

  private readonly escape = (event: KeyboardEvent): void => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    this.close();
  };

  /** Closes the choices or the question (a question closed unanswered is answered no). */
  private close(): void {
    if (this.question) return this.answer(false);
    const had = this.menu.contains(document.activeElement);
    this.menu.replaceChildren();
    this.menu.removeEventListener("keydown", this.escape);
    this.button.setAttribute("aria-expanded", "false");
    if (had) this.button.focus();
  }
}
