/** Small DOM builders for the panel: elements with attributes and children, and codicons. */

type Attributes = Record<string, string | number | boolean | undefined>;
type Child = Node | string | undefined | false;

/** An element `tag` with its attributes (false/undefined are left out) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attributes: Attributes = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name === "text") element.textContent = String(value);
    else element.setAttribute(name, value === true ? "" : String(value));
  }
  append(element, children);
  return element;
}

/** Adds children to `parent`, skipping the empty ones. */
export function append(parent: Node, children: Child[]): void {
  for (const child of children) {
    if (child === undefined || child === false) continue;
    parent.appendChild(typeof child === "string" ? document.createTextNode(child) : child);
  }
}

/** A codicon, hidden from screen readers (the control around it carries the label). */
export function icon(name: string): HTMLElement {
  return h("span", { class: `codicon codicon-${name}`, "aria-hidden": "true" });
}

/** A button with a codicon and a label (shown when `showLabel`, else the tooltip and ARIA label). */
export function button(
  iconName: string,
  label: string,
  onClick: (event: MouseEvent) => void,
  options: { showLabel?: boolean; className?: string; primary?: boolean } = {},
): HTMLButtonElement {
  const classes = [
    "button",
    options.primary ? "primary" : "",
    options.showLabel ? "" : "icon-only",
    options.className ?? "",
  ];
  const element = h(
    "button",
    {
      type: "button",
      class: classes.filter(Boolean).join(" "),
      title: label,
      "aria-label": options.showLabel ? undefined : label,
    },
    iconName ? icon(iconName) : undefined,
    options.showLabel ? h("span", { text: label }) : undefined,
  );
  element.addEventListener("click", onClick);
  return element;
}

/** Replaces every child of `element` with `children`, skipping the empty ones. */
export function fill(element: Element, ...children: Child[]): void {
  element.replaceChildren();
  append(element, children);
}

/** Tokens for people: 1234 → "1.2k", 128000 → "128k". */
export function compactCount(count: number): string {
  if (count < 1000) return String(count);
  if (count < 1_000_000) return `${trim(count / 1000)}k`;
  return `${trim(count / 1_000_000)}M`;
}

function trim(value: number): string {
  return value >= 100 ? String(Math.round(value)) : value.toFixed(1).replace(/\.0$/, "");
}
