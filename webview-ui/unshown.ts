/**
 * An item whose view cannot be drawn (a corrupt row, a kind this version does not know) shows a
 * short line in its place, so that the rest of the conversation still shows.
 */
import type { Item } from "../src/protocol/rows";
import { h } from "./dom";
import { type ItemView, type Panel, itemView } from "./items";
import { t } from "../src/protocol/l10n";

/** The line shown in place of an item whose view threw. */
export class UnshownView implements ItemView {
  readonly element = h("div", { class: "item note unshown", text: t("This item could not be shown") });

  constructor(item: Item, error: unknown) {
    // Kept for whoever debugs the webview; a warning, not an error: the panel goes on.
    console.warn(`item ${String(item?.id)} could not be shown:`, error);
  }

  update(): void {}
}

/** The view of ITEM, or the line that says it could not be shown when making its view throws. */
export function shownView(item: Item, panel: Panel): ItemView {
  try {
    return itemView(item, panel);
  } catch (error) {
    return new UnshownView(item, error);
  }
}
