// Escaping text for HTML, and splitting an open block's HTML from the closing tags that end it.

const ENTITIES: Record<string, string> = {
  "&": "&amp;",
  "<": "&lt;",
  ">": "&gt;",
  '"': "&quot;",
  "'": "&#39;",
};

/** The text as HTML text or attribute value: `& < > " '` become entities. */
export function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c]);
}

/**
 * S laid out flat in memory. A string built by `+` is a tree of pieces (a rope) until something
 * flattens it, and V8 compares a rope character by character through the tree: `startsWith` on
 * one is tens of times slower. Reading a character makes V8 flatten it in place, once.
 */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

const CLOSING = /^<\/[a-z][a-z0-9]*>$/;
const EMPTY_CELL = /^<t[dh](?: align="[a-z]+")?>$/;

/**
 * The HTML without its trailing closing tags and empty table cells: an open block is sent this
 * way so that the next render, which adds text where the Markdown ends, extends it and can go
 * as an append.
 */
export function opening(html: string): string {
  let end = html.length;
  for (;;) {
    while (end > 0 && /\s/.test(html[end - 1])) end--;
    if (end < 4 || html[end - 1] !== ">") return html.slice(0, end);
    const start = html.lastIndexOf("<", end - 1);
    const tag = html.slice(start, end);
    // An empty cell is one a short table row is padded with: it comes when its text does.
    if (start < 0 || !(CLOSING.test(tag) || (EMPTY_CELL.test(tag) && html.startsWith("</t", end)))) {
      return html.slice(0, end);
    }
    end = start;
  }
}
