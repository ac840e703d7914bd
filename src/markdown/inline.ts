// The one-line inline text that ends the open block (a paragraph, a heading, a list item's text),
// rendered on each delta from its last safe cut only: a delta costs the words since that cut, not
// the whole block.
import type { Token, Tokens } from "marked";
import { asciiSet } from "./chars";
import { escape, flat, opening } from "./html";
import type { Links, Markdown } from "./render";
import { wordsLine } from "./plain";

const LETTER = /^\p{L}/u;
/** Plain words and punctuation: text that renders as itself, escaped (a character of it). */
const PLAIN_START = /^[\p{L}\p{N}\p{M} ,;?!'".()/-]$/u;
/** For each ASCII character, 1 when `PLAIN_START` takes it. */
const PLAIN_ASCII = asciiSet(PLAIN_START);
/** What ends the one-line inline text of a block: a new line, and in a heading a closing `#`. */
const LINE_END = /\n/;
const HEADING_END = /[\n#]/;
/** What ends a table cell's text: a pipe (unless escaped, hence the backslash) or a new line. */
const CELL_END = /[\n|\\]/;
/** Characters that may start a construct a later delimiter could still close. */
const PENDING = /[*_~`[\]<\\]/;
/** Characters that, inside a finished emphasis or strikethrough, may lean on masking past it. */
const MASKED = /[[\]<`\\]/;

/** Whether TOKEN is settled: no text appended after it can change how it or anything before it lexes. */
function settled(token: Token): boolean {
  switch (token.type) {
    case "text":
      return !PENDING.test(token.raw);
    case "strong":
    case "em":
    case "del":
      return !MASKED.test(token.raw.slice(1, -1));
    case "escape":
    case "codespan":
    case "br":
    case "link":
    case "image":
      return true;
    default:
      return false;
  }
}

/** The open block's HTML after a render, and what follows its first `at` characters, which it kept. */
export interface Shown {
  html: string;
  /** Unset when the render may have changed the block anywhere (its HTML is then compared). */
  change?: { at: number; html: string };
}

/**
 * The inline text of the open block, from source offset `start` to the end of the text. Its HTML
 * is `head`, then the HTML of the frozen part (start..cut), then that of the live part. A cut is
 * only ever placed after a space, before a word, where every construct before it is finished:
 * there, lexing the two parts apart gives the HTML of lexing them together. The run keeps its own
 * copy of the text from the cut on, so that a delta reads only that, never the whole text.
 */
export class InlineRun {
  private cut: number;
  private frozen = "";
  /** How much of `frozen` the block's HTML showed when last rendered, and what was frozen since. */
  private shownFrozen = 0;
  private fresh = "";
  /** The block's HTML before its inline text (`<p>`, `<ul>\n<li>`…). */
  head = "";
  /**
   * The closing tags the open HTML left off at its end when last rendered (a construct that ends
   * the text, such as `**bold**`), while that HTML still ends the block's.
   */
  closing = "";
  /** The source and HTML of the text last rendered that is after the cut, when all of it is finished. */
  private rest: { length: number; html: string } | undefined;

  constructor(
    private readonly markdown: Markdown,
    private readonly links: Links,
    /** Where the inline text starts in the item's text. */
    readonly start: number,
    /** Characters that could change the block's structure, not just its inline text. */
    readonly stops: RegExp,
    /** The text from the cut to the end of the item's text, trailing blanks included. */
    public source: string,
  ) {
    this.cut = start;
  }

  /** Adds TEXT at the end of the inline text. */
  add(text: string): void {
    this.source += text;
  }

  /** The block's open HTML for the inline text as it stands (without its trailing blanks). */
  render(): Shown {
    this.skipPlain();
    // After a cut the live part is lexed behind a space, as it stands in the whole text.
    const context = this.cut > this.start ? " " : "";
    const live = context + this.source.slice(0, blankEnd(this.source));
    const tokens = this.markdown.inlineTokens(live, this.links);
    const each = this.markdown.renderEach(tokens);
    const html = each.join("").slice(context.length);
    // Closing tags end the open HTML only while the live part shows nothing after them.
    const opened = opening(html);
    const shown: Shown =
      opened === ""
        ? { html: this.head + opening(this.frozen + html) }
        : {
            html: this.head + this.frozen + opened,
            change: { at: this.head.length + this.shownFrozen, html: this.fresh + opened },
          };
    this.shownFrozen = this.frozen.length;
    this.fresh = "";
    this.closing = shown.change ? html.slice(opened.length) : "";
    const end = live.length - context.length;
    const advanced = this.advance(tokens, each, live, context.length);
    this.rest = advanced.clean
      ? { length: end - advanced.moved, html: html.slice(advanced.html.length) }
      : undefined;
    return shown;
  }

  /**
   * The block's final HTML once its inline text is complete (it ends in neither a blank nor a
   * new line): the HTML of the whole inline text, then CLOSING, the block's closing tags.
   */
  close(closing: string): Shown {
    this.skipPlain();
    const context = this.cut > this.start ? " " : "";
    const tokens = this.markdown.inlineTokens(context + this.source, this.links);
    const html = this.markdown.renderInline(tokens).slice(context.length) + closing;
    return {
      html: this.head + this.frozen + html,
      change: { at: this.head.length + this.shownFrozen, html: this.fresh + html },
    };
  }

  /**
   * Moves the cut past the plain words that start the live text (words typed since the last
   * render often are): they render as their own escaped text, so they need not be lexed again.
   */
  private skipPlain(): void {
    const source = this.source;
    let end = 0;
    while (end < source.length) {
      const c = source.charCodeAt(end);
      if (c < 128 ? PLAIN_ASCII[c] === 0 : !PLAIN_START.test(source[end])) break;
      end++;
    }
    // A word with "www." in it may turn into a link as it grows.
    const www = end > 3 ? source.slice(0, end).search(/www\./i) : -1;
    if (www >= 0) end = www;
    let at = end;
    while (at > 0 && !(source[at - 1] === " " && at < source.length && source[at] !== " ")) at--;
    if (at === 0) return;
    const html = escape(source.slice(0, at));
    this.frozen += html;
    this.fresh += html;
    this.cut += at;
    this.source = source.slice(at);
  }

  /** Moves the cut to the last place in LIVE (lexed as TOKENS, EACH's HTML) where it may go. */
  private advance(
    tokens: Token[],
    each: string[],
    live: string,
    skip: number,
  ): { moved: number; html: string; clean: boolean } {
    let clean = 0;
    while (clean < tokens.length && settled(tokens[clean])) clean++;
    let offset = 0;
    const starts = tokens.map((t) => ((offset += t.raw.length), offset - t.raw.length));
    // The first unfinished token, when it is text, is finished up to its first pending character
    // (the lexer joins plain words and a lone "`" or "*" into one text token).
    const last = Math.min(clean, tokens.length - 1);
    for (let i = last; i >= 0; i--) {
      const token = tokens[i] as Tokens.Text;
      if (token.type !== "text" || token.raw !== token.text) continue;
      const pending = i === clean ? token.raw.search(PENDING) : token.raw.length;
      // The last space inside this text token, before anything pending, that a word follows.
      for (let at = starts[i] + pending; at > starts[i] && at > skip; at--) {
        if (live[at - 1] !== " " || at >= live.length || /\s/.test(live[at])) continue;
        const part = token.raw.slice(0, at - starts[i]);
        // The tokens before it show as they did (EACH holds their HTML), then the part.
        const partHtml = this.markdown.renderInline([{ ...token, raw: part, text: part }]);
        const frozen = (each.slice(0, i).join("") + partHtml).slice(skip);
        this.frozen += frozen;
        this.fresh += frozen;
        this.cut += at - skip;
        this.source = this.source.slice(at - skip);
        return { moved: at - skip, html: frozen, clean: clean === tokens.length };
      }
    }
    return { moved: 0, html: "", clean: clean === tokens.length };
  }

  /**
   * When the text last rendered was finished through its end (a construct such as `**bold**`
   * ended it) and blanks and words came after it since, moves the cut past it and the blanks:
   * the next render lexes only the words.
   */
  cutPast(): void {
    const rest = this.rest;
    this.rest = undefined;
    if (!rest) return;
    let at = rest.length;
    while (at < this.source.length && (this.source[at] === " " || this.source[at] === "\t")) at++;
    if (at === rest.length || at === this.source.length) return;
    // The block's HTML now starts with all that: the run's frozen HTML shows as it is.
    this.frozen += rest.html + this.source.slice(rest.length, at);
    this.shownFrozen = this.frozen.length;
    this.fresh = "";
    this.cut += at;
    this.source = this.source.slice(at);
  }
}

/** Where TEXT ends without its trailing spaces and tabs. */
function blankEnd(text: string): number {
  let end = text.length;
  while (end > 0 && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  return end;
}

/**
 * Whether a block's inline TEXT starts in a way no more text on its line can change: it could
 * not still become a list marker, a rule, a fence, an HTML block or a link definition.
 */
function decided(text: string): boolean {
  const first = text[0];
  if (LETTER.test(first)) return true;
  if (first === "<") return false;
  // A link definition or a task box until its label closes on something other than ":".
  if (first === "[") {
    const close = text.indexOf("]");
    return (
      close > 0 && !text.slice(0, close).includes("\\") && close + 1 < text.length && text[close + 1] !== ":"
    );
  }
  if (first === "`" || first === "~") {
    let n = 1;
    while (text[n] === first) n++;
    return n < 3 && n < text.length;
  }
  if (/\d/.test(first)) {
    const [, mark, after] = /^\d+([.)]?)(.?)/.exec(text) ?? [];
    return mark === "" ? after !== "" : after !== "" && after !== " " && after !== "\t";
  }
  if ("*_-+=#".includes(first)) return /[^*_\-+=# \t]/.test(text);
  return true;
}

/** The inline text that ends TOKEN (a paragraph, a heading, the last list item's text…), if any. */
function lastInline(token: Token): { text: string; stops: RegExp } | undefined {
  switch (token.type) {
    case "paragraph":
    case "text":
      return { text: (token as Tokens.Paragraph).text, stops: LINE_END };
    case "heading":
      return { text: (token as Tokens.Heading).text, stops: HEADING_END };
    case "list": {
      const last = (token as Tokens.List).items.at(-1)?.tokens.at(-1);
      return last && lastInline(last);
    }
    case "table": {
      // The last cell of the last row that has text (a short row is padded with empty cells):
      // its inline text ends the text until a closing pipe comes.
      const cell = (token as Tokens.Table).rows.at(-1)?.findLast((c) => c.text !== "");
      return cell && { text: cell.text, stops: CELL_END };
    }
    case "blockquote": {
      const last = (token as Tokens.Blockquote).tokens.at(-1);
      return last && lastInline(last);
    }
    default:
      return undefined;
  }
}

/**
 * The inline run of TOKEN, the only open block of the open TEXT, whose HTML is HEAD then TAIL:
 * when the block's last line is one decided by a letter, and its HTML ends with that line's own.
 */
export function runOf(
  markdown: Markdown,
  links: Links,
  token: Token,
  text: string,
  head: string,
  tail: string,
): InlineRun | undefined {
  const inline = lastInline(token);
  if (!inline) return undefined;
  const own = inline.text.replace(/[ \t]+$/, "");
  const end = blankEnd(text);
  const start = end - own.length;
  if (own.includes("\n") || !decided(own) || start < 0) return undefined;
  if (text.slice(start, end) !== own) return undefined;
  const run = new InlineRun(markdown, links, start, inline.stops, text.slice(start));
  // What comes before the line's own HTML is the head.
  const html = run.render().html;
  if (html === "" || !flat(tail).endsWith(html)) return undefined;
  run.head = head + tail.slice(0, tail.length - html.length);
  return run;
}

/**
 * The open paragraph that TEXT starts, when it is blank lines then plain words from a letter on
 * (see `wordsLine`): its open HTML, the words', and its inline run, made without lexing them.
 */
export function paragraphStart(
  markdown: Markdown,
  links: Links,
  text: string,
): { html: string; run: InlineRun } | undefined {
  let start = 0;
  while (text[start] === "\n") start++;
  const line = text.slice(start);
  if (!wordsLine(line)) return undefined;
  const html = "<p>" + line;
  const run = runOf(
    markdown,
    links,
    { type: "paragraph", raw: line, text: line, tokens: [] },
    text,
    "",
    html,
  );
  return run && { html, run };
}
