/**
 * The open conversation: its items in key order, each updated in place by key. Only the items near
 * the viewport are in the DOM (a window over the conversation); spacers above and below stand for
 * the rest at their measured (or, never shown yet, estimated) heights, so the scrollbar spans the
 * whole conversation and scrolling anywhere shows the items there.
 */
import { parentOf } from "../src/protocol/keys";
import type { Item } from "../src/protocol/rows";
import { h, icon } from "./dom";
import type { ItemView, Panel } from "./items";
import { patchedView, shownView, updatedView } from "./unshown";
import { replaceIfChanged } from "./keyed-rows";
import { planView } from "./plan";
import { planActions } from "./plan-mode";
import { byKey } from "./panel-state";
import { t } from "../src/protocol/l10n";

/** How far past each edge of the viewport items stay in the DOM, in pixels (find, select and Tab reach them). */
const OVERSCAN = 1000;
/** The height of an item never shown yet, in pixels (with the gap under it). */
const ESTIMATE = 72;
/** How many items beyond those needed the window may hold before it is cut back. */
const MAX_SLACK = 60;
/** The space between two items (their margins collapse into one). */
const GAP = 8;

export class Transcript {
  readonly element = h("div", {
    class: "transcript",
    role: "region",
    "aria-label": t("Conversation"),
    tabindex: "-1",
  });
  private readonly plan = h("div", { class: "plan-slot" });
  private readonly above = h("div", { class: "spacer", "aria-hidden": "true" });
  private readonly list = h("div", { class: "items" });
  private readonly below = h("div", { class: "spacer", "aria-hidden": "true" });
  private readonly working = h("div", { class: "working", "aria-hidden": "true" });
  private readonly acting = h("div", { class: "plan-actions-slot" });
  private readonly empty = h("div", { class: "empty-slot" });
  /** Ids of the items shown in the flow (not the plan), in key order. */
  private order: string[] = [];
  /** The window: indexes in `order` of the items in the DOM, from `start` to before `end`. */
  private start = 0;
  private end = 0;
  private readonly views = new Map<string, ItemView>();
  /** Each item's height with its gap, as last measured on screen. */
  private readonly heights = new Map<string, number>();
  private readonly measure = new ResizeObserver((entries) => {
    for (const entry of entries) {
      const id = (entry.target as HTMLElement).dataset.item;
      if (id && this.views.has(id)) this.heights.set(id, entry.borderBoxSize[0].blockSize + GAP);
    }
    // An item that grew (its words, an image, an item drawn once in view) keeps the newest in sight.
    this.scroll();
  });
  /** What the plan slot shows (the plan item's id and text), so it is drawn again only when it changed. */
  private planShown = "";
  private stuck = true;
  /** Where the last scroll event found the view, to tell a move up from the content growing. */
  private lastTop = 0;
  private scrollQueued = false;
  private layoutQueued = false;

  constructor(
    private readonly panel: Panel,
    private readonly announce: (text: string) => void,
    private readonly emptyState: () => HTMLElement,
  ) {
    this.element.append(this.plan, this.empty, this.above, this.list, this.below, this.acting, this.working);
    this.element.addEventListener("scroll", () => {
      const { scrollTop, scrollHeight, clientHeight } = this.element;
      // Only a move up lets go of the bottom: the content growing under a scroll the panel made does not.
      if (scrollHeight - scrollTop - clientHeight < 40) this.stuck = true;
      else if (scrollTop < this.lastTop) this.stuck = false;
      this.lastTop = scrollTop;
      this.queueLayout();
    });
    // Tab into an item at the window's edge: the window follows the focus (it scrolls into view).
    this.element.addEventListener("focusin", () => this.queueLayout());
  }

  /** Shows the open conversation from scratch (a snapshot or another chat opened). */
  reset(): void {
    for (const view of this.views.values()) this.measure.unobserve(view.element);
    this.views.clear();
    this.heights.clear();
    this.list.replaceChildren();
    const items = [...this.panel.store.tables.items.values()].filter((item) => item.kind !== "plan");
    this.order = items.map((item) => item.id).sort(byKey);
    this.start = this.end = this.order.length;
    this.stuck = true;
    this.layout();
    this.showPlan();
    this.refresh();
    this.scroll();
  }

  /** Shows a changed row of the open conversation; `previous` is the row before the change. */
  put(item: Item, previous: Item | undefined): void {
    if (item.kind === "plan") {
      this.showPlan();
      return;
    }
    const view = this.views.get(item.id);
    if (view) this.update(item.id, view, item);
    else if (!previous) this.insert(item.id);
    this.regroup(item);
    if (item.kind === "text" && item.done && previous && !previous.done) this.announce(finishedNotice(item));
    this.refresh();
    this.scroll();
  }

  /** Removes an item from the view. */
  delete(id: string): void {
    const index = this.order.indexOf(id);
    if (index >= 0) {
      this.order.splice(index, 1);
      if (index < this.start) this.start--;
      if (index < this.end) this.end--;
      const view = this.views.get(id);
      if (view) this.unrender(id, view);
      this.heights.delete(id);
      this.spacers();
    }
    this.showPlan();
    this.refresh();
  }

  /** Shows the blocks a patch changed. */
  patched(id: string, changed: number[]): void {
    if (this.panel.store.tables.items.get(id)?.kind === "plan") this.showPlan();
    const view = this.views.get(id);
    if (view) this.replace(id, view, patchedView(view, id, changed));
    this.scroll();
  }

  /** The run of the open conversation started or ended. */
  running(): void {
    for (const [id, view] of this.views) {
      const item = this.panel.store.tables.items.get(id);
      if (item && !item.done && (item.kind === "text" || item.kind === "reasoning"))
        this.update(id, view, item);
    }
    this.refresh();
  }

  /** Scrolls item `id` into the middle of the view (rendering the items around it); false when it is not shown. */
  reveal(id: string): boolean {
    const index = this.order.indexOf(id);
    if (index < 0) return false;
    this.stuck = false;
    const height = this.element.clientHeight;
    this.show(this.back(index, height / 2 + OVERSCAN), this.forward(index, height / 2 + OVERSCAN));
    this.views.get(id)?.element.scrollIntoView({ block: "center" });
    return true;
  }

  /** An answer's actions follow the whole answer: when its words or its message change, its words are shown again. */
  private regroup(item: Item): void {
    const group = parentOf(item.id) || item.id;
    // Only a new or changed text item, or the message it answers, moves Regenerate within an answer.
    if (item.kind !== "text" && item.id !== group) return;
    for (const [id, view] of this.views) {
      const row =
        id !== item.id && parentOf(id) === group ? this.panel.store.tables.items.get(id) : undefined;
      if (row?.kind === "text") this.update(id, view, row);
    }
  }

  /** Adds item `id` to the order; it is rendered when it falls in the window (or the window follows the end). */
  private insert(id: string): void {
    const order = this.order;
    let index = order.length;
    if (order.length > 0 && byKey(id, order[order.length - 1]) < 0) {
      let low = 0;
      let high = order.length;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (byKey(order[middle], id) < 0) low = middle + 1;
        else high = middle;
      }
      index = low;
    }
    const atEnd = this.end === order.length;
    order.splice(index, 0, id);
    if (index < this.start || (index === this.start && this.start > 0)) {
      this.start++;
      this.end++;
    } else if (index < this.end || (index === this.end && atEnd)) {
      this.list.insertBefore(this.render(id), this.views.get(order[index + 1])?.element ?? null);
      this.end++;
    }
    this.spacers();
  }

  private render(id: string): HTMLElement {
    const item = this.panel.store.tables.items.get(id);
    if (!item) return h("div");
    const view = shownView(item, this.panel);
    view.element.dataset.item = id;
    this.views.set(id, view);
    this.measure.observe(view.element);
    return view.element;
  }

  /** Shows ITEM's new row in VIEW, or in the view that takes its place (see `updatedView`). */
  private update(id: string, view: ItemView, item: Item): void {
    this.replace(id, view, updatedView(view, item, this.panel));
  }

  /** Puts NEXT in the place of item ID's view BEFORE, when it is another view. */
  private replace(id: string, before: ItemView, next: ItemView): void {
    if (next === before) return;
    this.measure.unobserve(before.element);
    next.element.dataset.item = id;
    before.element.replaceWith(next.element);
    this.views.set(id, next);
    this.measure.observe(next.element);
  }

  private unrender(id: string, view: ItemView): void {
    this.measure.unobserve(view.element);
    view.element.remove();
    this.views.delete(id);
  }

  /** The height item `index` takes, with its gap. */
  private pitch(index: number): number {
    return this.heights.get(this.order[index]) ?? ESTIMATE;
  }

  /** The first index from which the items up to `index` fill `span` pixels. */
  private back(index: number, span: number): number {
    let from = Math.min(index, this.order.length);
    for (let filled = 0; from > 0 && filled < span;) filled += this.pitch(--from);
    return from;
  }

  /** The index after the items from `index` that fill `span` pixels. */
  private forward(index: number, span: number): number {
    let to = Math.max(0, index);
    for (let filled = 0; to < this.order.length && filled < span;) filled += this.pitch(to++);
    return to;
  }

  /**
   * The index of the item at the viewport's top: found among the items in the DOM when the top is
   * among them, else counted by the items' heights from the spacer it lies in.
   */
  private atTop(): number {
    const top = this.element.getBoundingClientRect().top;
    const shown = this.list.children;
    const list = this.list.getBoundingClientRect();
    if (shown.length > 0 && list.top <= top && list.bottom > top) {
      let low = 0;
      let high = shown.length - 1;
      while (low < high) {
        const middle = (low + high) >> 1;
        if (shown[middle].getBoundingClientRect().bottom <= top) low = middle + 1;
        else high = middle;
      }
      return this.start + low;
    }
    const below = shown.length > 0 && list.bottom <= top;
    let offset = top - (below ? this.below : this.above).getBoundingClientRect().top;
    let index = below ? this.end : 0;
    for (; index < this.order.length - 1; index++) {
      offset -= this.pitch(index);
      if (offset < 0) break;
    }
    return index;
  }

  private queueLayout(): void {
    if (this.layoutQueued) return;
    this.layoutQueued = true;
    requestAnimationFrame(() => {
      this.layoutQueued = false;
      this.layout();
    });
  }

  /**
   * Moves the window to the viewport: the items within OVERSCAN of it in the DOM, the rest as
   * spacers. A window that still covers half that margin stays as it is, so most scroll steps
   * change no DOM and the others add or drop a batch of items.
   */
  private layout(): void {
    const height = this.element.clientHeight || window.innerHeight;
    const count = this.order.length;
    const top = this.stuck ? count : this.atTop();
    const near = (margin: number): [number, number] =>
      this.stuck
        ? [this.back(count, height + margin), count]
        : [this.back(top, margin), this.forward(top, height + margin)];
    const [needFrom, needTo] = near(OVERSCAN / 2);
    const covered = this.start <= needFrom && this.end >= needTo;
    const slack = needFrom - this.start + (this.end - needTo);
    if (covered && slack <= MAX_SLACK) return;
    let [from, to] = near(OVERSCAN);
    // The item that holds the focus stays in the DOM while it is near (a window of it and the viewport).
    const focused = this.focusedIndex();
    if (focused >= 0 && focused > from - MAX_SLACK && focused < to + MAX_SLACK) {
      from = Math.min(from, focused);
      to = Math.max(to, focused + 1);
    }
    this.show(from, to);
  }

  /** The index of the item that holds the focus, or -1. */
  private focusedIndex(): number {
    const focused = document.activeElement;
    if (!focused || !this.list.contains(focused)) return -1;
    const id = focused.closest<HTMLElement>("[data-item]")?.dataset.item;
    return id === undefined ? -1 : this.order.indexOf(id, this.start);
  }

  /** Makes the items from `from` to before `to` the ones in the DOM, keeping those already there. */
  private show(from: number, to: number): void {
    if (from === this.start && to === this.end) return;
    for (let i = this.start; i < this.end; i++) {
      if (i >= from && i < to) continue;
      const view = this.views.get(this.order[i]);
      if (view) this.unrender(this.order[i], view);
    }
    const overlap = from < this.end && to > this.start;
    const head = document.createDocumentFragment();
    const tail = document.createDocumentFragment();
    for (let i = from; i < to; i++) {
      if (overlap && i >= this.start && i < this.end) continue;
      (overlap && i < this.start ? head : tail).appendChild(this.render(this.order[i]));
    }
    this.list.prepend(head);
    this.list.append(tail);
    this.start = from;
    this.end = to;
    this.spacers();
  }

  /** Sizes the spacers for the items before and after the window. */
  private spacers(): void {
    let above = 0;
    for (let i = 0; i < this.start; i++) above += this.pitch(i);
    let below = 0;
    for (let i = this.end; i < this.order.length; i++) below += this.pitch(i);
    if (this.above.style.height !== `${above}px`) this.above.style.height = `${above}px`;
    if (this.below.style.height !== `${below}px`) this.below.style.height = `${below}px`;
  }

  private showPlan(): void {
    let plan: Item | undefined;
    for (const item of this.panel.store.tables.items.values()) {
      if (item.kind === "plan" && (!plan || byKey(item.id, plan.id) > 0)) plan = item;
    }
    const shown = plan ? `${plan.id}\n${plan.text}` : "";
    if (shown === this.planShown) return;
    this.planShown = shown;
    this.plan.replaceChildren(...(plan ? [planView(plan)] : []));
  }

  /**
   * Shows what depends on the whole: the empty state, the plan's actions and the working line (each
   * written only when it changes); called too when the open conversation's mode changes.
   */
  refresh(): void {
    replaceIfChanged(this.acting, planActions(this.panel));
    const blank = this.order.length === 0 && this.plan.childElementCount === 0;
    if (blank && this.empty.childElementCount === 0) this.empty.append(this.emptyState());
    if (!blank && this.empty.firstChild) this.empty.replaceChildren();
    const busy = this.panel.store.busy;
    replaceIfChanged(
      this.working,
      busy ? [icon("loading codicon-modifier-spin"), h("span", { text: t("Working…") })] : [],
    );
  }

  /** Keeps the newest item in sight while the person has not scrolled away; once per frame. */
  private scroll(): void {
    if (!this.stuck || this.scrollQueued) return;
    this.scrollQueued = true;
    requestAnimationFrame(() => {
      this.scrollQueued = false;
      if (!this.stuck) return;
      this.layout();
      this.element.scrollTop = this.element.scrollHeight;
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
