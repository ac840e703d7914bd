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

  constructor(id: string, error: unknown) {
    // Kept for whoever debugs the webview; a warning, not an error: the panel goes on.
    console.warn(`item ${id} could not be shown:`, error);
  }

  update(): void {}
}

/** The view of ITEM, or the line that says it could not be shown when making its view throws. */
export function shownView(item: Item, panel: Panel): ItemView {
  try {
    return itemView(item, panel);
  } catch (error) {
    return new UnshownView(String(item?.id), error);
  }
}

/**
 * Shows ITEM's new row in VIEW and answers the view that shows it now: VIEW; the line, when VIEW
 * threw; or, when VIEW is the line, the item's own view if its row can be shown now.
 */
export function updatedView(view: ItemView, item: Item, panel: Panel): ItemView {
  if (view instanceof UnshownView) {
    const next = shownView(item, panel);
    return next instanceof UnshownView ? view : next;
  }
  try {
    view.update(item);
    return view;
  } catch (error) {
    return new UnshownView(item.id, error);
  }
}

/** Shows the blocks of item ID that a patch CHANGED in VIEW; answers VIEW, or the line when it threw. */
export function patchedView(view: ItemView, id: string, changed: number[]): ItemView {
  try {
    view.patched?.(changed);
    return view;
  } catch (error) {
    return new UnshownView(id, error);
  }
}
