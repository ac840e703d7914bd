/**
 * t("Restore…") on the person's message: the files as they were before its answer, the conversation
 * as it was before it (a new conversation), or both; and t("Show changes since"), which opens the
 * editor's diff. The host asks for confirmation (naming how many files change) before it writes.
 */
import type { Item } from "../src/protocol/rows";
import { button, h } from "./dom";
import { t } from "../src/protocol/l10n";
import type { Panel } from "./items";

/** The t("Restore…") button of a message and the choices it opens below the message. */
export class RestoreMenu {
  readonly button: HTMLButtonElement;
  /** The choices, empty while closed (placed by the message's view). */
  readonly menu = h("div", {
    class: "restore-menu",
    role: "group",
    "aria-label": t("Restore to this message"),
  });

  constructor(
    private readonly item: Item,
    private readonly panel: Panel,
  ) {
    this.button = button("history", t("Restore…"), () => this.toggle(), { className: "restore-message" });
    this.button.setAttribute("aria-expanded", "false");
  }

  private toggle(): void {
    if (this.menu.childElementCount) return this.close();
    const restore = (files: boolean, conversation: boolean) => () => {
      this.panel.host.post({ type: "restoreTo", item: this.item.id, files, conversation });
      this.close();
    };
    this.menu.replaceChildren(
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
    this.button.setAttribute("aria-expanded", "true");
    (this.menu.firstElementChild as HTMLElement | null)?.focus();
    this.menu.addEventListener("keydown", this.escape);
  }

  private readonly escape = (event: KeyboardEvent): void => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    this.close();
  };

  private close(): void {
    const had = this.menu.contains(document.activeElement);
    this.menu.replaceChildren();
    this.menu.removeEventListener("keydown", this.escape);
    this.button.setAttribute("aria-expanded", "false");
    if (had) this.button.focus();
  }
}
