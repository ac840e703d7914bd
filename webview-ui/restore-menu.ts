/**
 * t("Restore…") on the person's message: the files as they were before its answer, the conversation
 * as it was before it (a new conversation), or both; and t("Show changes since"), which opens the
 * editor's diff. The host's confirmation (naming how many files change) is asked here, under the
 * message, before it writes; what the host is doing meanwhile, and what it did, are said there too.
 */
import type { RestoreAsked, RestoreDone } from "../src/protocol/messages";
import type { Item } from "../src/protocol/rows";
import { button, h, icon } from "./dom";
import type { PanelBridge } from "./bridge";
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

/** Shows the host's result under its message, ending the status shown there while it worked. */
export function restoreDone(message: RestoreDone): void {
  const element = [...document.querySelectorAll<HTMLElement>(".restore-menu")].find(
    (e) => e.dataset.restoreItem === message.item,
  );
  if (element) menus.get(element)?.done(message.ok, message.text);
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
  /** Whether a restore asked from this menu waits for the host's `restoreDone`. */
  private waiting = false;

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
    // The choices and the question close; a status or a result gives way to the choices.
    if (this.menu.querySelector(".restore-choice, .restore-question")) return this.close();
    const restore = (files: boolean, conversation: boolean) => () => {
      this.panel.host.post({ type: "restoreTo", item: this.item.id, files, conversation });
      // Comparing the files can take seconds on a large workspace: said until the question comes.
      this.waiting = true;
      this.status(files ? t("Comparing the files with the checkpoint…") : t("Restoring…"));
    };
    const choice = { showLabel: true, className: "restore-choice" };
    this.open(
      button("file", t("Restore files"), restore(true, false), choice),
      button("comment-discussion", t("Restore conversation"), restore(false, true), choice),
      button("history", t("Restore both"), restore(true, true), choice),
      button(
        "diff",
        t("Show changes since"),
        () => {
          this.panel.host.post({ type: "changesSince", item: this.item.id });
          this.close();
        },
        choice,
      ),
      button("close", t("Cancel"), () => this.close(), { className: "restore-choice" }),
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
    // Only a restore asks: the host says when it is done, whatever the answer.
    this.waiting = true;
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
    // The person's no needs no word back; after a yes the restore is said until the host is done.
    if (yes && ask && this.waiting) this.status(t("Restoring…"));
    else this.close();
  }

  /** Ends the status of a restore asked here with the host's words on what was done (or why not). */
  done(ok: boolean, text: string): void {
    if (!this.waiting) return;
    this.waiting = false;
    const words = h("p", { class: "restore-words", text });
    const result = h(
      "div",
      { class: `restore-result ${ok ? "done" : "failed"}`, role: ok ? "status" : "alert" },
      icon(ok ? "check" : "error"),
      words,
      button("close", t("Dismiss"), () => this.close()),
    );
    this.open(result);
  }

  /** Says under the message what the host is doing (a status read out, not a control). */
  private status(text: string): void {
    const had = this.menu.contains(document.activeElement);
    this.open(
      h(
        "div",
        { class: "restore-status", role: "status" },
        icon("loading codicon-modifier-spin"),
        h("span", { text }),
      ),
    );
    // The control that had the focus is gone: it goes back to the message's Restore….
    if (had || document.activeElement === document.body) this.button.focus();
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

  /**
   * Closes the choices, the question (a question closed unanswered is answered no), a status (the
   * host's result is then not shown) or a result.
   */
  private close(): void {
    if (this.question) return this.answer(false);
    this.waiting = false;
    const had = this.menu.contains(document.activeElement);
    this.menu.replaceChildren();
    this.menu.removeEventListener("keydown", this.escape);
    this.button.setAttribute("aria-expanded", "false");
    if (had) this.button.focus();
  }
}
