// The open last block when it is a list: its finished items keep the HTML they were given, and a
// delta re-renders only the item still being written (lexing it alone, or, for one-line items of
// words, not at all).
import type { Token, Tokens } from "marked";
import { closable } from "./open";
import { flat } from "./html";
import { hasDefinition, type Links, type Markdown } from "./render";
import { alone, final, shown, type Grown, type Parts } from "./grown";

/** The body of a list's HTML: its items, without the `<ul>`/`<ol>` line and the closing tag. */
function items(html: string, close: string): string | undefined {
  const head = html.indexOf(">\n") + 2;
  return head > 1 && html.endsWith(close) ? html.slice(head, html.length - close.length) : undefined;
}

/** What kind of items a list takes: its bullet, or its number's delimiter. */
function kind(list: Tokens.List): string {
  const marker = /^[ \t]*(?:([*+-])|\d{1,9}([.)]))/.exec(list.items[0]?.raw ?? "");
  return marker ? (marker[1] ?? `1${marker[2]}`) : "";
}

/**
 * LIST as the lexer makes it when loose: every item loose, its text a paragraph; undefined for a
 * task item (the lexer then moves the checkbox into the paragraph).
 */
function loosened(list: Tokens.List): Tokens.List | undefined {
  if (list.items.some((item) => item.task)) return undefined;
  const items = list.items.map((item) => ({
    ...item,
    loose: true,
    tokens: item.tokens.map((t) => (t.type === "text" ? { ...t, type: "paragraph" } : t)),
  }));
  return { ...list, loose: true, items };
}

/**
 * A list item of one line at the margin: its bullet or number and delimiter, one space, and text
 * that can only be a paragraph's: it starts with a letter, a code span's backticks (not a fence),
 * emphasis delimiters before a word (not a rule or another bullet) or an inline link's label (not
 * a task's box or a link definition).
 */
const SIMPLE_ITEM =
  /^(?:([-+*])|(\d{1,9})([.)])) ((?:\p{L}|`{1,2}(?=[^`])|\*+(?=[^\s*_])|_+(?=[^\s*_])|\[(?=[^[\]]+\]\()).*?)[ \t]*$/u;

/** An item nested under a list item, as `SIMPLE_ITEM` (its indent is checked apart). */
const NESTED_ITEM =
  /^( +)(?:([-+*])|(\d{1,9})([.)])) ((?:\p{L}|`{1,2}(?=[^`])|\*+(?=[^\s*_])|_+(?=[^\s*_])|\[(?=[^[\]]+\]\()).*?)[ \t]*$/u;

const LETTER = /^\p{L}/u;

/** A list item's marker followed by a word. */
const WORD_ITEM = / {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+\p{L}/uy;

/**
 * A list: items before the current one are finished once the next item's first line is complete
 * or has started with a word (until then the next line may still turn into a rule or lazy text).
 * While the list stays tight, or has become loose, and its items keep their bullet, an item's HTML
 * does not depend on the others.
 */
export class ListItems implements Parts {
  private constructor(
    private readonly markdown: Markdown,
    private readonly links: Links,
    private readonly kind: string,
    /** `<ul>\n` or `<ol start="N">\n`, and the closing tag. */
    private readonly head: string,
    private readonly close: string,
    /** The HTML of the finished items. */
    private done: string,
    /** Where the current item starts in the open text. */
    private itemStart: number,
  ) {
    this.shown = done;
  }

  /** The finished items' HTML when the list was last shown, and what was finished since. */
  private shown: string;
  private fresh = "";
  /** Whether the list's HTML was last shown as its head, the finished items, then the current one. */
  private kept = true;
  /** Whether its items are apart (blank lines between them): each one's text is then a paragraph. */
  private loose = false;
  /** The list without items: its kind and start, for items made without the lexer. */
  private shape!: Tokens.List;
  /** The blanks before its items' markers. */
  private margin = "";

  static of(
    markdown: Markdown,
    links: Links,
    list: Tokens.List,
    start: number,
    text: string,
    full: string,
  ): ListItems | undefined {
    if (hasDefinition(list)) return undefined;
    const close = list.ordered ? "</ol>\n" : "</ul>\n";
    const body = items(full, close);
    if (body === undefined) return undefined;
    const run = new ListItems(
      markdown,
      links,
      kind(list),
      full.slice(0, full.indexOf(">\n") + 2),
      close,
      "",
      start,
    );
    run.loose = list.loose;
    run.shape = { ...list, items: [] };
    run.margin = /^ */.exec(list.items[0]?.raw ?? "")?.[0] ?? "";
    const current = run.finish(list, text);
    const own = items(markdown.render(current), close);
    if (own === undefined || !flat(body).endsWith(own)) return undefined;
    run.done = run.shown = body.slice(0, body.length - own.length);
    return run;
  }

  render(text: string): Grown | undefined {
    const rest = text.slice(this.itemStart);
    const simple = this.simple(rest);
    if (simple) {
      const end = this.itemStart + (simple.over ?? 0);
      this.itemStart += simple.start;
      return simple.over === undefined
        ? this.grown(simple.done, simple.current)
        : this.closed(simple.current, end, simple.done);
    }
    const tokens = this.markdown.lex(rest, this.links);
    const over = alone(tokens, "list") ? undefined : this.over(tokens, rest);
    if (!alone(tokens, "list") && over === undefined) return undefined;
    const lexed = tokens[0] as Tokens.List;
    if ((lexed.loose && !this.loose) || kind(lexed) !== this.kind || hasDefinition(lexed)) return undefined;
    // Once loose, a list stays loose whatever comes: its items are lexed without the blank lines
    // that made it so, and shown as it shows them.
    const list = this.loose ? loosened(lexed) : lexed;
    if (list === undefined) return undefined;
    if (over !== undefined) return this.closed(list, this.itemStart + over);
    const current = this.finish(list, text);
    let done = "";
    for (const item of list.items.slice(0, list.items.length - current.items.length)) {
      const html = this.itemsHtml({ ...list, items: [item] });
      if (html === undefined) return undefined;
      done += html;
    }
    return this.grown(done, current);
  }

  /**
   * Where the list ends in REST (lexed as TOKENS), when it is over: a blank line and a block that
   * cannot continue it came after it (as `closable` decides for the whole text).
   */
  private over(tokens: Token[], rest: string): number | undefined {
    if (tokens[0]?.type !== "list") return undefined;
    const starts: number[] = [];
    let offset = 0;
    for (const token of tokens) {
      starts.push(offset);
      offset += token.raw.length;
    }
    if (offset !== rest.length) return undefined;
    const closing = closable(tokens, starts, rest);
    const end = closing < tokens.length ? starts[closing] : rest.length;
    // Only the list, and the blank lines after it, close.
    return closing >= 1 && tokens.slice(1, closing).every((t) => t.type === "space") ? end : undefined;
  }

  /**
   * The list's final HTML, its items from the current one on being LIST (after those whose HTML is
   * DONE), the open text going on at END.
   */
  private closed(list: Tokens.List, end: number, done = ""): Grown | undefined {
    const own = items(this.markdown.render(list), this.close);
    if (own === undefined) return undefined;
    this.fresh += done;
    return final(this.head + this.shown, this.fresh + own + this.close, this.kept, list, end);
  }

  /** The list's open HTML once the items whose HTML is DONE are finished and CURRENT is the rest. */
  private grown(done: string, current: Tokens.List): Grown | undefined {
    const own = this.itemsHtml(current);
    if (own === undefined) return undefined;
    this.done += done;
    this.fresh += done;
    const grown = shown(this.head + this.shown, this.fresh, own + this.close, current, this.kept);
    this.kept = grown.shaped;
    this.shown = this.done;
    this.fresh = "";
    return grown;
  }

  /**
   * REST, the open text from the current item on, when it is only items of this list's kind,
   * one line each, a marker, one space and words from a letter on — and, in a tight list, items
   * nested one level under them at the item's text (a bullet list, or a numbered one from 1): the
   * finished ones' HTML, the current one as a list of it, and where it starts in REST; made
   * without lexing the list.
   */
  private simple(
    rest: string,
  ): { done: string; current: Tokens.List; start: number; over?: number } | undefined {
    const lines = rest.split("\n");
    // A line ended with nothing after it yet: the item on it is still the current one.
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    const margin = this.margin;
    let done = "";
    let current: Tokens.ListItem | undefined;
    let start = 0;
    let at = 0;
    /** The current item's text indent and nested list, if it has one. */
    let indent = 0;
    let nested: { kind: string; list: Tokens.List } | undefined;
    for (const [i, line] of lines.entries()) {
      const lineStart = at;
      at += line.length + 1;
      // A blank line, then a line at the margin that starts with a letter, ends the list.
      if (line === "" && current && i + 2 === lines.length && LETTER.test(lines[i + 1]))
        return { done, current: { ...this.shape, items: [current] }, start, over: at };
      // A finished item keeps the blanks that end its line; the last one's are left off.
      if (i < lines.length - 1 && /[ \t]$/.test(line)) return undefined;
      const item =
        line.startsWith(margin) && line[margin.length] !== " "
          ? SIMPLE_ITEM.exec(line.slice(margin.length))
          : null;
      if (!item) {
        // A list of another kind starting before the current item's text ends this list.
        const other = current && NESTED_ITEM.exec(" " + line);
        if (other && other[1].length - 1 < margin.length + indent && other[1].length <= 4) {
          const kind = other[2] ?? `1${other[4]}`;
          if (kind !== this.kind)
            return {
              done,
              current: { ...this.shape, items: [current as Tokens.ListItem] },
              start,
              over: lineStart,
            };
        }
        const sub = current && !this.loose ? NESTED_ITEM.exec(line) : null;
        if (!sub || sub[1].length !== margin.length + indent) return undefined;
        const kind = sub[2] ?? `1${sub[4]}`;
        if (nested ? nested.kind !== kind : sub[3] !== undefined && sub[3] !== "1") return undefined;
        if (!nested) {
          const list: Tokens.List = {
            type: "list",
            raw: "",
            ordered: sub[3] !== undefined,
            start: sub[3] ? 1 : "",
            loose: false,
            items: [],
          };
          nested = { kind, list };
          (current as Tokens.ListItem).tokens.push(list);
        }
        nested.list.items.push(this.item(line, sub[5]));
        continue;
      }
      if ((item[1] ?? `1${item[3]}`) !== this.kind) return undefined;
      if (current) {
        const html = this.itemsHtml({ ...this.shape, items: [current] });
        if (html === undefined) return undefined;
        done += html;
      }
      current = this.item(line, item[4]);
      start = lineStart;
      indent = item[1] ? 2 : item[2].length + 2;
      nested = undefined;
    }
    return current && { done, current: { ...this.shape, items: [current] }, start };
  }

  /**
   * The HTML of LIST's items (its body, as `items` takes it from the list's HTML): a tight item
   * of inline text alone is `<li>`, its inline HTML and `</li>`, as the renderer makes it, without
   * rendering the list around it.
   */
  private itemsHtml(list: Tokens.List): string | undefined {
    const item = list.items.length === 1 ? list.items[0] : undefined;
    const text = item && !item.task && item.tokens.length === 1 ? item.tokens[0] : undefined;
    if (text?.type === "text" && "tokens" in text && text.tokens)
      return `<li>${this.markdown.renderInline(text.tokens)}</li>\n`;
    return items(this.markdown.render(list), this.close);
  }

  /** The list item of LINE whose text is TEXT, as the lexer makes it in this list. */
  private item(line: string, text: string): Tokens.ListItem {
    const tokens = this.markdown.inlineTokens(text, this.links);
    const body = { type: this.loose ? "paragraph" : "text", raw: text, text, tokens };
    return { type: "list_item", raw: line, task: false, loose: this.loose, text, tokens: [body] };
  }

  /** Moves the current item past the items of LIST (lexed from it) that are finished; the rest. */
  private finish(list: Tokens.List, text: string): Tokens.List {
    let first = 0;
    let at = this.itemStart;
    while (first + 1 < list.items.length) {
      const next = at + list.items[first].raw.length;
      // The next item's first line is complete, or its text has started with a letter: it can
      // no longer turn into a rule or lazy text, and the item before it is over.
      WORD_ITEM.lastIndex = next;
      if (text.indexOf("\n", next) < 0 && !WORD_ITEM.test(text)) break;
      at = next;
      first++;
    }
    this.itemStart = at;
    return first === 0 ? list : { ...list, items: list.items.slice(first) };
  }
}
