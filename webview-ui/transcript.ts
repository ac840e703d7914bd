/**
 * The open conversation: its items in key order, each updated in place by key. Only the last page
 * of a long conversation is in the DOM; earlier pages come in as the person asks for them.
 */
import { parentOf } from "../src/protocol/keys";
import type { Item } from "../src/protocol/rows";
import { button, h, icon } from "./dom";
import { type ItemView, type Panel, itemView } from "./items";
import { planView } from "./plan";
import { planActions } from "./plan-mode";
import { byKey } from "./state";
import { t } from "../src/protocol/l10n";

/** How many items one page of the transcript holds. */
export const PAGE = 100;

export class Transcript {
  readonly element = h("div", {
    class: "transcript",
    role: "region",
    "aria-label": t("Conversation"),
    tabindex: "-1",
  });
  private readonly plan = h("div", { class: "plan-slot" });
  private readonly earlier = h("div", { class: "earlier" });
  private readonly list = h("div", { class: "items" });
  private readonly working = h("div", { class: "working", "aria-hidden": "true" });
  private readonly acting = h("div", { class: "plan-actions-slot" });
  private readonly empty = h("div", { class: "empty-slot" });
  /** Ids of the items shown in the flow (not the plan), in key order. */
  private order: string[] = [];
  /** Index in `order` of the first item in the DOM. */
  private first = 0;
  private readonly views = new Map<string, ItemView>();
  private stuck = true;
  private scrollQueued = false;

  constructor(
    private readonly panel: Panel,
    private readonly announce: (text: string) => void,
    private readonly emptyState: () => HTMLElement,
  ) {
    this.element.append(this.plan, this.empty, this.earlier, this.list, this.acting, this.working);
    this.element.addEventListener("scroll", () => {
      const { scrollTop, scrollHeight, clientHeight } = this.element;
      this.stuck = scrollHeight - scrollTop - clientHeight < 40;
    });
  }

  /** Shows the open conversation from scratch (a snapshot or another chat opened). */
  reset(): void {
    this.views.clear();
    this.list.replaceChildren();
    const items = [...this.panel.store.tables.items.values()].filter((item) => item.kind !== "plan");
    this.order = items.map((item) => item.id).sort(byKey);
    this.first = Math.max(0, this.order.length - PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = this.first; i < this.order.length; i++) fragment.appendChild(this.render(this.order[i]));
    this.list.appendChild(fragment);
    this.showPlan();
    this.refresh();
    this.stuck = true;
    this.scroll();
  }

  /** Shows a changed row of the open conversation; `previous` is the row before the change. */
  put(item: Item, previous: Item | undefined): void {
    if (item.kind === "plan") {
      this.showPlan();
      return;
    }
    const view = this.views.get(item.id);
    if (view) view.update(item);
    else this.insert(item.id);
    this.regroup(item);
    if (item.kind === "text" && item.done && previous && !previous.done) this.announce(finishedNotice(item));
    this.refresh();
    this.scroll();
  }

  /** Removes an item from the view. */
  delete(id: string): void {
    const view = this.views.get(id);
    view?.element.remove();
    this.views.delete(id);
    const index = this.order.indexOf(id);
    if (index >= 0) {
      this.order.splice(index, 1);
      if (index < this.first) this.first--;
    }
    this.showPlan();
    this.refresh();
  }

  /** Shows the blocks a patch changed. */
  patched(id: string, changed: number[]): void {
    if (this.panel.store.tables.items.get(id)?.kind === "plan") this.showPlan();
    this.views.get(id)?.patched?.(changed);
    this.scroll();
  }

  /** The run of the open conversation started or ended. */
  running(): void {
    for (const [id, view] of this.views) {
      const item = this.panel.store.tables.items.get(id);
      if (item && !item.done && (item.kind === "text" || item.kind === "reasoning")) view.update(item);
    }
    this.refresh();
  }

  /** Shows the page of items before the first one shown, keeping what the person sees in place. */
  showEarlier(): void {
    const start = Math.max(0, this.first - PAGE);
    const fragment = document.createDocumentFragment();
    for (let i = start; i < this.first; i++) fragment.appendChild(this.render(this.order[i]));
    const height = this.element.scrollHeight;
    this.list.prepend(fragment);
    this.first = start;
    this.element.scrollTop += this.element.scrollHeight - height;
    this.refresh();
  }

  /** An answer's actions follow the whole answer: when one of its items changes, its words are shown again. */
  private regroup(item: Item): void {
    const group = parentOf(item.id) || item.id;
    for (const [id, view] of this.views) {
      const row =
        id !== item.id && parentOf(id) === group ? this.panel.store.tables.items.get(id) : undefined;
      if (row?.kind === "text") view.update(row);
    }
  }

  private insert(id: string): void {
    const order = this.order;
    if (order.length === 0 || byKey(id, order[order.length - 1]) > 0) {
      order.push(id);
      this.list.appendChild(this.render(id));
      return;
    }
    let low = 0;
    let high = order.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (byKey(order[middle], id) < 0) low = middle + 1;
      else high = middle;
    }
    order.splice(low, 0, id);
    if (low < this.first) {
      this.first++;
      return;
    }
    const next = this.views.get(order[low + 1]);
    this.list.insertBefore(this.render(id), next?.element ?? null);
  }

  private render(id: string): HTMLElement {
    const item = this.panel.store.tables.items.get(id);
    if (!item) return h("div");
    const view = itemView(item, this.panel);
    view.element.dataset.item = id;
    this.views.set(id, view);
    return view.element;
  }

  private showPlan(): void {
    let plan: Item | undefined;
    for (const item of this.panel.store.tables.items.values()) {
      if (item.kind === "plan" && (!plan || byKey(item.id, plan.id) > 0)) plan = item;
    }
    this.plan.replaceChildren(...(plan ? [planView(plan)] : []));
  }

  /** Shows what depends on the whole: the empty state, "show earlier", the plan's actions and the working line. */
  refresh(): void {
    this.acting.replaceChildren(...planActions(this.panel));
    const blank = this.order.length === 0 && this.plan.childElementCount === 0;
    if (blank && this.empty.childElementCount === 0) this.empty.append(this.emptyState());
    if (!blank) this.empty.replaceChildren();
    this.earlier.replaceChildren(
      ...(this.first > 0
        ? [
            button(
              "fold-up",
              t("Show {0} earlier items", Math.min(PAGE, this.first)),
              () => this.showEarlier(),
              {
                showLabel: true,
                className: "link",
              },
            ),
          ]
        : []),
    );
    const busy = this.panel.store.busy;
    this.working.replaceChildren(
      ...(busy ? [icon("loading codicon-modifier-spin"), h("span", { text: t("Working…") })] : []),
    );
  }

  /** Keeps the newest item in sight while the person has not scrolled away; once per frame. */
  private scroll(): void {
    if (!this.stuck || this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      if (this.stuck) this.element.scrollTop = this.element.scrollHeight;
    });
  }

  /** Rebuilds the empty state (when whether a model is set up changes). */
  emptyChanged(): void {
    this.empty.replaceChildren();
    this.refresh();
  }
}

/** What the live region says when an answer is finished: its first words, not every token. */
function finishedNotice(item: Item): string {
  const words = item.text.replace(/\s+/g, " ").trim();
  return words
    ? t("Answer finished: {0}", words.length > 140 ? `${words.slice(0, 140)}…` : words)
    : t("Answer finished.");
}
