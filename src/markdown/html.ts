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
  // Most text has nothing to escape: looked for before a replacement is set up.
  return SPECIAL.test(text) ? text.replace(/[&<>"']/g, (c) => ENTITIES[c]) : text;
}

const SPECIAL = /[&<>"']/;

/**
 * S laid out flat in memory. A string built by `+` is a tree of pieces (a rope) until something
 * flattens it, and V8 compares a rope character by character through the tree: `startsWith` on
 * one is tens of times slower. Reading a character makes V8 flatten it in place, once.
 */
export function flat(s: string): string {
  s.charCodeAt(0);
  return s;
}

/** Whether C, a character code, is one `\s` matches. */
function blank(c: number): boolean {
  if (c < 128) return c === 32 || (c >= 9 && c <= 13);
  return /\s/.test(String.fromCharCode(c));
}

/** Whether HTML from START to END is a closing tag, `</name>`. */
function closingTag(html: string, start: number, end: number): boolean {
  if (end - start < 4 || html.charCodeAt(start + 1) !== 47) return false;
  for (let i = start + 2; i < end - 1; i++) {
    const c = html.charCodeAt(i);
    const letter = (c >= 97 && c <= 122) || (i > start + 2 && c >= 48 && c <= 57);
    if (!letter) return false;
  }
  return true;
}

const EMPTY_CELL = /^<t[dh](?: align="[a-z]+")?>$/;

/**
 * The HTML without its trailing closing tags and empty table cells: an open block is sent this
 * way so that the next render, which adds text where the Markdown ends, extends it and can go
 * as an append.
 */
export function opening(html: string): string {
  let end = html.length;
  for (;;) {
    while (end > 0 && blank(html.charCodeAt(end - 1))) end--;
    if (end < 4 || html.charCodeAt(end - 1) !== 62) return html.slice(0, end);
    const start = html.lastIndexOf("<", end - 1);
    // An empty cell is one a short table row is padded with: it comes when its text does.
    if (
      start < 0 ||
      !(
        closingTag(html, start, end) ||
        (html.startsWith("</t", end) && EMPTY_CELL.test(html.slice(start, end)))
      )
    ) {
      return html.slice(0, end);
    }
    end = start;
  }
}
