/**
 * The pending bar above the composer: the files the agent changed that the person has not kept
 * or undone yet, each opening its review diff, with Review, Keep All and Undo All.
 */
import type { PendingAction, PendingFile } from "../src/protocol/messages";
import { button, fill, h } from "./dom";
import type { PanelBridge } from "./bridge";
import { t } from "../src/protocol/l10n";

/** The bar; hidden while nothing is pending. */
export class PendingBar {
  readonly element = h("div", {
    class: "pending-bar",
    role: "region",
    "aria-label": t("Pending changes"),
    hidden: true,
  });

  constructor(private readonly host: Pick<PanelBridge, "post">) {}

  /** Shows `files` (none: the bar hides). */
  show(files: PendingFile[]): void {
    this.element.hidden = files.length === 0;
    if (!files.length) return fill(this.element);
    const ask =
      (action: PendingAction, path = "") =>
      () =>
        this.host.post({ type: "pendingAction", action, path });
    const list = h(
      "ul",
      { class: "pending-files" },
      ...files.map((f) =>
        h(
          "li",
          {},
          button("diff", f.shown, ask("review", f.path), { showLabel: true, className: "pending-file" }),
        ),
      ),
    );
    fill(
      this.element,
      h("span", {
        class: "pending-title",
        text:
          files.length === 1 ? t("1 file changed by Tandem") : t("{0} files changed by Tandem", files.length),
      }),
      list,
      h(
        "div",
        { class: "pending-actions" },
        button("diff", t("Review"), ask("review"), { showLabel: true }),
        button("check-all", t("Keep All"), ask("keepAll"), { showLabel: true, primary: true }),
        button("discard", t("Undo All"), ask("undoAll"), { showLabel: true }),
      ),
    );
  }
}
