/**
 * Views that follow rows by key: a list keeps the element of each row whose look did not change,
 * and a slot or an attribute is written only when what it shows differs. So a changed row touches
 * only the DOM that shows it, and a refresh that changes nothing changes no DOM at all.
 */

/** One row of a keyed list: its key, what it looks like (a string that changes with what it shows), and how to make it. */
export interface KeyedRow {
  key: string;
  look: string;
  make: () => Element;
}

/** What each element of a keyed list was made for. */
const made = new WeakMap<Element, { key: string; look: string }>();

/**
 * Makes `parent`'s children the elements of `rows`, in order: an element whose key and look are
 * the same stays (not even moved when already in place); the others are made anew; the rest go.
 */
export function reconcile(parent: Element, rows: readonly KeyedRow[]): void {
  const existing = new Map<string, Element>();
  for (const child of parent.children) {
    const was = made.get(child);
    if (was) existing.set(was.key, child);
  }
  const placed = new Set<Element>();
  let cursor = parent.firstElementChild;
  for (const row of rows) {
    const old = existing.get(row.key);
    let element: Element;
    if (old && made.get(old)?.look === row.look && !placed.has(old)) element = old;
    else {
      element = row.make();
      made.set(element, { key: row.key, look: row.look });
    }
    placed.add(element);
    if (element === cursor) cursor = cursor.nextElementSibling;
    else parent.insertBefore(element, cursor);
  }
  for (const child of [...parent.children]) if (!placed.has(child)) child.remove();
}

/** Makes the element of a keyed list be made again at the next `reconcile` (it was changed in place). */
export function remake(element: Element): void {
  made.delete(element);
}

/** Replaces `parent`'s children with `children` only when their markup differs from what it shows. */
export function replaceIfChanged(parent: Element, children: readonly Element[]): void {
  const shown = parent.children;
  if (shown.length === children.length && children.every((child, i) => child.isEqualNode(shown[i]))) return;
  parent.replaceChildren(...children);
}

/** Sets (or, for undefined, removes) an attribute only when it differs. */
export function setAttribute(element: Element, name: string, value: string | undefined): void {
  if (value === undefined) {
    if (element.hasAttribute(name)) element.removeAttribute(name);
  } else if (element.getAttribute(name) !== value) element.setAttribute(name, value);
}
