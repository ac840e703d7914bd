/**
 * HTML to readable text for a model: scripts, styles and other non-content elements go, tags
 * go (the text of links stays), block elements become line breaks, entities are decoded and
 * whitespace is collapsed. One pass over the input, so hostile markup costs linear time.
 */

import { entity } from "./entities";

/** Elements whose content is never text (raw text, or not shown). */
const DROPPED = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "iframe",
  "noembed",
  "noframes",
  "object",
  "svg",
  "math",
  "textarea",
  "select",
  "canvas",
  "xmp",
]);

/** Elements that start and end a paragraph (two line breaks). */
const PARAGRAPHS = new Set([
  "p",
  "div",
  "section",
  "article",
  "header",
  "footer",
  "nav",
  "aside",
  "main",
  "blockquote",
  "pre",
  "table",
  "ul",
  "ol",
  "dl",
  "figure",
  "form",
  "fieldset",
  "address",
  "details",
  "hr",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
]);

/** Elements that start a line. */
const LINES = new Set(["br", "li", "tr", "dt", "dd", "figcaption", "summary", "caption", "option", "legend"]);

/** Decodes character references (`&amp;`, `&#39;`, `&#x1F600;`); unknown names stay as written. */
export function decode(text: string): string {
  if (!text.includes("&")) return text;
  return text.replace(
    /&(#[xX][0-9a-fA-F]{1,8}|#[0-9]{1,10}|[a-zA-Z][a-zA-Z0-9]{1,31});?/g,
    (whole, body: string) => {
      if (body[0] === "#") {
        const code =
          body[1] === "x" || body[1] === "X" ? parseInt(body.slice(2), 16) : parseInt(body.slice(1), 10);
        if (code === 0 || code > 0x10ffff || (code >= 0xd800 && code <= 0xdfff)) return "\uFFFD";
        return String.fromCodePoint(code);
      }
      return whole.endsWith(";") ? (entity(body) ?? whole) : whole;
    },
  );
}

/** A page's title and its text. */
export interface Readable {
  title: string;
  text: string;
}

/** Control characters other than tab and newline: they carry nothing readable. */
// eslint-disable-next-line no-control-regex -- these are the characters removed
const CONTROL = /[\u0000-\u0008\u000B-\u001F\u007F]/g;

/** Writes text with collapsed whitespace and at most one blank line between blocks. */
class Writer {
  private readonly parts: string[] = [];
  private breaks = 0;
  private space = false;
  private started = false;
  private atLineStart = true;

  /** Text as a browser shows it: whitespace runs become one space. */
  text(raw: string): void {
    const text = raw.replace(CONTROL, "").replace(/[ \t\n\r\f]+/g, " ");
    if (text === "") return;
    if (text.startsWith(" ")) this.space = true;
    const body = text.trim();
    if (body === "") return;
    this.flush();
    this.parts.push(body);
    this.atLineStart = false;
    this.space = text.endsWith(" ");
  }

  /** Text kept as written (inside `pre`). */
  verbatim(raw: string): void {
    const text = raw.replace(CONTROL, "").replace(/\r\n?/g, "\n");
    if (text.trim() === "") {
      if (text.includes("\n") && this.started) this.breaks = Math.max(this.breaks, 1);
      return;
    }
    this.flush();
    this.parts.push(text);
    this.atLineStart = text.endsWith("\n");
    this.space = false;
  }

  /** A line break (1) or paragraph break (2) before the next text. */
  block(breaks: number): void {
    this.breaks = Math.max(this.breaks, breaks);
    this.space = false;
  }

  /** A literal marker at the start of the next line (a list bullet). */
  marker(text: string): void {
    this.block(1);
    this.flush();
    this.parts.push(text);
    this.atLineStart = false;
    this.space = false;
  }

  private flush(): void {
    if (this.started && this.breaks > 0) {
      this.parts.push(this.atLineStart ? "\n".repeat(this.breaks - 1) : "\n".repeat(this.breaks));
      this.atLineStart = true;
    } else if (this.started && this.space && !this.atLineStart) this.parts.push(" ");
    this.breaks = 0;
    this.space = false;
    this.started = true;
  }

  done(): string {
    return this.parts
      .join("")
      .split("\n")
      .map((line) => line.trimEnd())
      .join("\n")
      .replace(/\n{3,}/g, "\n\n")
      .trim();
  }
}

/** The index after the element `name`'s end tag at or after `from` (case-insensitive), or the input's end. */
function after(html: string, name: string, from: number): number {
  const end = new RegExp(`</${name}(?=[\\s/>])[^>]*>?`, "gi");
  end.lastIndex = from;
  const match = end.exec(html);
  return match ? match.index + match[0].length : html.length;
}

/** The index after the tag that starts at `from` (quotes in attribute values respected), or -1. */
function tagEnd(html: string, from: number): number {
  for (let i = from; i < html.length; i++) {
    const c = html[i];
    if (c === ">") return i + 1;
    if (c === '"' || c === "'") {
      const close = html.indexOf(c, i + 1);
      if (close < 0) return -1;
      i = close;
    }
  }
  return -1;
}

/** The value of attribute `name` in a tag's text, decoded. */
function attribute(tag: string, name: string): string | undefined {
  const match = new RegExp(`\\s${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag);
  return match ? decode(match[1] ?? match[2] ?? match[3]) : undefined;
}

/** The title and readable text of an HTML document. */
export function htmlText(html: string): Readable {
  const out = new Writer();
  let title = "";
  let pre = 0;
  let i = 0;
  while (i < html.length) {
    const open = html.indexOf("<", i);
    const stop = open < 0 ? html.length : open;
    if (stop > i) {
      const text = decode(html.slice(i, stop));
      if (pre > 0) out.verbatim(text);
      else out.text(text);
    }
    if (open < 0) break;
    i = open;
    if (html.startsWith("<!--", i)) {
      const end = html.indexOf("-->", i + 4);
      i = end < 0 ? html.length : end + 3;
      continue;
    }
    const closing = html[i + 1] === "/";
    const nameMatch = /^[a-zA-Z][a-zA-Z0-9:-]*/.exec(html.slice(i + (closing ? 2 : 1), i + 64));
    if (!nameMatch) {
      if (html[i + 1] === "!" || html[i + 1] === "?" || closing) {
        // A doctype, a processing instruction or a bogus comment: skipped to its `>`.
        const end = html.indexOf(">", i + 1);
        i = end < 0 ? html.length : end + 1;
      } else {
        out.text("<");
        i++;
      }
      continue;
    }
    const name = nameMatch[0].toLowerCase();
    const end = tagEnd(html, i + 1 + nameMatch[0].length + (closing ? 1 : 0));
    if (end < 0) break; // An unfinished tag at the end is dropped, as browsers do.
    const tag = html.slice(i, end);
    i = end;
    if (closing) {
      if (name === "pre" && pre > 0) pre--;
      if (PARAGRAPHS.has(name)) out.block(2);
      else if (LINES.has(name)) out.block(1);
      continue;
    }
    if (name === "title") {
      const close = after(html, "title", i);
      if (!title) {
        const inner = html.slice(i, close).replace(/<\/title[^>]*>?$/i, "");
        title = decode(inner).replace(/\s+/g, " ").trim();
      }
      i = close;
      continue;
    }
    if (DROPPED.has(name)) {
      if (!tag.endsWith("/>") || name === "script" || name === "style") i = after(html, name, i);
      continue;
    }
    if (name === "img") {
      const alt = attribute(tag, "alt");
      if (alt && alt.trim()) out.text(` ${alt} `);
    } else if (name === "li") out.marker("- ");
    else if (/^h[1-6]$/.test(name)) {
      out.block(2);
      out.marker(`${"#".repeat(Number(name[1]))} `);
    } else if (name === "pre") {
      out.block(2);
      pre++;
    } else if (PARAGRAPHS.has(name)) out.block(2);
    else if (LINES.has(name)) out.block(1);
    else if (name === "td" || name === "th") out.text(" ");
  }
  return { title, text: out.done() };
}
