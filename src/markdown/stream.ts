// A growing Markdown text rendered block by block: closed blocks are rendered once; a delta costs
// work in proportion to the open (last) block — to its last item or row in a list or table — and
// plain words appended to it cost only themselves.
import type { Token, Tokens } from "marked";
import type { Block, Patch } from "../protocol/blocks";
import { openCodeBlock } from "./code";
import { escape, flat, opening } from "./html";
import {
  definitions,
  hasDefinition,
  markdownFor,
  type Links,
  type Markdown,
  type RenderOptions,
} from "./render";
import { parts, type Parts } from "./parts";
import { Changes } from "./changes";
import { closable, openFence, type Fence } from "./open";
import { InlineRun, blankEnd, decided, lastInline, type Shown } from "./inline";

/** Characters that, appended mid-line to plain words, cannot change how anything before renders. */
const PLAIN = /^[\p{L}\p{N}\p{M} ,;?!.-]*$/u;
/** Quotes may end a reference definition's title, so they are plain only on a line without "[". */
const QUOTED = /^[\p{L}\p{N}\p{M} ,;?!'".-]*$/u;
const RUN = /[\p{L}\p{N}\p{M} ,;?!'".-]/u;
const QUOTE = /['"]/;
/** A line start decided by a letter, after a list marker or not. */
const LINE_START = /^(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?(?=\p{L})/u;
const BLANK_BEFORE = /\n[ \t]*\n[ \t]*$/;

/** The end of the text's last line, when it ends in plain words. */
interface PlainEnd {
  /** The spaces and tabs that end it (shown once a word follows them). */
  blanks: string;
  /** The last word before them. */
  word: string;
  /** Whether the line holds a "[" (quotes may then end a definition's title); plain words add none. */
  bracket: boolean;
}

/** Renders one growing Markdown text (an item) as keyed blocks and tells what changed. */
export class MarkdownStream {
  /** The open part of the text: everything before it is in closed blocks. */
  private text = "";
  /** The text as given (CRs and all), its last deltas kept apart until `update` reads it. */
  private source = "";
  private deltas: string[] = [];
  private carriage = false;
  private ended = false;
  private readonly html: string[] = [];
  private closedCount = 0;
  /** The source of each closed block that may hold a reference link, for late definitions. */
  private readonly references = new Map<number, string>();
  private readonly links: Links = {};
  /** The full HTML of the open blocks by source, to reuse when a re-render leaves one unchanged. */
  private rendered = new Map<string, string>();
  /** The last block renders the end of the text, so words typed there append to its HTML. */
  private tailIsLastBlock = false;
  /** A short string the last block's HTML ends with (read instead of the whole, which may be a rope). */
  private ending = "";
  /** The last block holds a code block, whose colours plain words can change. */
  private tailHasCode = false;
  /** Where the plain run that ends the last block's HTML starts in the text; -1 when unknown. */
  private plainFrom = -1;
  /** The end of the last line while `plainFrom` is known. */
  private plain: PlainEnd = { blanks: "", word: "", bracket: false };
  /** The one-line inline text that ends the open block, rendered from its last cut. */
  private run: InlineRun | undefined;
  /** The type of the block whose inline text the run is (a paragraph, a list…). */
  private runBlock = "";
  /** The run's line has ended (`endLine`): it only waits to see whether a blank line follows. */
  private lineEnded = false;
  /** The open list or table, when it is the only open block and re-renders its last part only. */
  private parts: Parts | undefined;
  /** The open fenced code block, and the start of its open line. */
  private fence: (Fence & { line: string }) | undefined;
  private readonly changes = new Changes();
  private readonly markdown: Markdown;

  constructor(
    readonly key: string,
    options: RenderOptions = {},
  ) {
    this.markdown = markdownFor(options);
  }

  /** How many leading blocks are closed: their HTML is final (a late reference definition aside). */
  get closed(): number {
    return this.closedCount;
  }

  /** The blocks as they stand: closed ones final, the open ones without their closing tags. */
  blocks(): Block[] {
    return this.html.map((html, i) => ({ key: `${this.key}.${i}`, html }));
  }

  /** Sets the whole text; when it extends the last one only the added part is rendered. */
  update(text: string): Patch {
    if (this.deltas.length > 0) {
      this.source += this.deltas.join("");
      this.deltas.length = 0;
    }
    if (this.ended || !text.startsWith(this.source)) this.reset();
    return this.append(text.slice(this.source.length));
  }

  /** Adds DELTA to the text and returns the patch since the last one. */
  append(delta: string): Patch {
    if (this.ended) throw new Error("the text has ended");
    this.deltas.push(delta);
    let added = this.carriage ? "\r" + delta : delta;
    if (added.includes("\r")) {
      this.carriage = added.endsWith("\r");
      if (this.carriage) added = added.slice(0, -1);
      added = added.replace(/\r\n?/g, "\n");
    }
    if (
      added !== "" &&
      !this.appendPlain(added) &&
      !this.appendInline(added) &&
      !this.endLine(added) &&
      !this.endParagraph(added)
    ) {
      this.text += added;
      if (!this.renderParts()) this.render(false);
    }
    return this.changes.take(this.key, this.html);
  }

  /** Closes the text (the answer is finished): the last blocks get their final HTML. */
  end(): Patch {
    if (!this.ended) {
      if (this.carriage) this.text += "\n";
      this.carriage = false;
      this.ended = true;
      this.render(true);
    }
    return this.changes.take(this.key, this.html);
  }

  private reset(): void {
    this.text = this.source = "";
    this.deltas.length = 0;
    this.carriage = this.ended = this.tailIsLastBlock = false;
    this.ending = "";
    this.closedCount = 0;
    this.html.length = 0;
    this.references.clear();
    for (const tag of Object.keys(this.links)) delete this.links[tag];
    this.rendered.clear();
    this.fence = undefined;
    this.plainFrom = -1;
    this.run = undefined;
    this.lineEnded = false;
    this.parts = undefined;
    this.changes.forget();
  }

  /** Appends ADDED without re-lexing when it provably only extends the last block's text. */
  private appendPlain(added: string): boolean {
    if (!this.tailIsLastBlock) return false;
    if (this.fence) return this.appendCode(added);
    if (added.includes("\n") || this.tailHasCode || !QUOTED.test(added)) return false;
    if (this.plainFrom < 0 && !this.checkPlainEnd()) return false;
    // Only the end of the last line matters, kept apart (the text is not read: reading a string
    // built by `+` copies it whole), so a delta costs its own length, not the text's.
    const line = this.plain;
    if (!PLAIN.test(added) && line.bracket) return false;
    const pending = line.blanks + added;
    // Words that can grow into an autolink or an entity change with every letter.
    if (/[&:@\\<]|www\./i.test(line.word + pending)) return false;
    this.text += added;
    this.run?.add(added);
    const shown = pending.replace(/[ \t]+$/, "");
    line.blanks = pending.slice(shown.length);
    if (shown === "") return true;
    this.grow(this.html.length - 1, QUOTE.test(shown) ? escape(shown) : shown);
    const blank = Math.max(shown.lastIndexOf(" "), shown.lastIndexOf("\t"));
    line.word = blank < 0 ? line.word + shown : shown.slice(blank + 1);
    return true;
  }

  /**
   * Whether the plain run that ends the text also ends the last block's HTML; if so, remembers
   * where it starts and the end of the line, so that words appended after it need no check again.
   */
  private checkPlainEnd(): boolean {
    // An inline run holds the end of the line, and its start is decided: only that is read.
    const run = this.run;
    const text = run ? run.source : this.text;
    const lineStart = run ? 0 : text.lastIndexOf("\n") + 1;
    let end = text.length;
    while (end > lineStart && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
    let runStart = end;
    while (runStart > lineStart && RUN.test(text[runStart - 1])) runStart--;
    let core = text.slice(runStart, end).trimStart();
    if (!run && (runStart === lineStart || text.slice(lineStart, runStart).trim() === "")) {
      // Text that starts its line could still become a list marker, a rule or an underline,
      // unless a letter follows a list marker or starts the line.
      const marker = LINE_START.exec(core);
      if (!marker) return false;
      core = core.slice(marker[0].length);
    }
    const own = escape(core);
    const html = own.length <= this.ending.length ? this.ending : flat(this.html[this.html.length - 1]);
    if (core === "" || !html.endsWith(own)) return false;
    this.plainFrom = end - core.length;
    const wordStart =
      Math.max(text.lastIndexOf(" ", end - 1), text.lastIndexOf("\t", end - 1), lineStart - 1) + 1;
    this.plain = {
      blanks: text.slice(end),
      word: text.slice(wordStart, end),
      bracket: text.includes("[", lineStart),
    };
    return true;
  }

  /** Appends ADDED to the inline text that ends the open block, re-rendering it from its last cut. */
  private appendInline(added: string): boolean {
    const run = this.run;
    if (!run || !this.tailIsLastBlock || this.fence || run.stops.test(added)) return false;
    this.text += added;
    run.add(added);
    this.show(run.render());
    this.plainFrom = -1;
    return true;
  }

  /**
   * Ends the line of the open block's inline text with ADDED, words then a new line: a line that
   * ends in a word renders the same with its new line, so the block is lexed again only when the
   * next line's text comes and decides what the new line means.
   */
  private endLine(added: string): boolean {
    const words = added.slice(0, -1);
    if (!this.run || !this.tailIsLastBlock || this.fence || added.indexOf("\n") !== words.length)
      return false;
    // Blanks or a backslash before the new line may make a line break once the next line comes.
    if (/[\\ \t]/.test((words || this.run.source).at(-1) ?? " ")) return false;
    if (words !== "" && !this.appendPlain(words) && !this.appendInline(words)) return false;
    this.text += "\n";
    this.tailIsLastBlock = false;
    // The run stays for `endParagraph`, should a blank line come next.
    this.lineEnded = true;
    this.plainFrom = -1;
    return true;
  }

  /**
   * Closes the open paragraph when ADDED ends its line (after words that can be appended) and a
   * blank line follows: a paragraph is over at a blank line, and its inline run holds all of it
   * (it has one line), so its final HTML comes without lexing it again. The rest is rendered.
   */
  private endParagraph(added: string): boolean {
    const run = this.run;
    if (!run || this.runBlock !== "paragraph" || this.fence || this.html.length !== this.closedCount + 1)
      return false;
    // After `endLine` the line has ended: the blank line comes first.
    const ended = this.lineEnded;
    const line = ended ? /^()[ \t]*\n/.exec(added) : /^([^\n]*)\n[ \t]*\n/.exec(added);
    if (!line || !(ended || this.tailIsLastBlock)) return false;
    // Blanks at the end of the line stay in the paragraph's HTML: the run leaves them off.
    const words = line[1];
    if (!ended && !/[^ \t]$/.test(words || run.source)) return false;
    if (words !== "" && !this.appendPlain(words) && !this.appendInline(words)) return false;
    const last = this.html.length - 1;
    // A reference in it may take a definition that comes later (see `lateDefinitions`).
    if (this.text.includes("[")) this.references.set(last, this.text);
    this.show(run.close("</p>\n"));
    this.closedCount++;
    this.run = undefined;
    this.lineEnded = false;
    this.parts = undefined;
    this.tailIsLastBlock = false;
    this.plainFrom = -1;
    this.text = ended ? added : added.slice(words.length + 1);
    this.render(false);
    return true;
  }

  /** Re-renders the last part of the open list or table; false when the text needs a full render. */
  private renderParts(): boolean {
    const grown = this.parts?.render(this.text);
    if (grown === undefined) {
      this.parts = undefined;
      return false;
    }
    this.show(
      grown.kept
        ? { html: grown.head + grown.tail, change: { at: grown.head.length, html: grown.tail } }
        : { html: grown.head + grown.tail },
    );
    this.plainFrom = -1;
    this.tailIsLastBlock = true;
    // Only the current item or row can hold the end of the text.
    this.tailHasCode = grown.tail.includes("<pre");
    this.run = this.inlineRun(grown.token, grown.head, grown.tail);
    this.lineEnded = false;
    return true;
  }

  /** Makes SHOWN the last block's HTML. */
  private show(shown: Shown): void {
    const last = this.html.length - 1;
    this.html[last] = shown.html;
    if (shown.change) {
      this.changes.replaceFrom(last, shown.change.at, shown.change.html);
      this.ending = shown.change.html;
    } else {
      this.changes.touch(last);
      this.ending = shown.html;
    }
  }

  /**
   * The inline run of TOKEN, the only open block whose HTML is HEAD then TAIL, when its last line
   * is one decided by a letter.
   */
  private inlineRun(token: Token, head: string, tail: string): InlineRun | undefined {
    const inline = lastInline(token);
    if (!inline) return undefined;
    const text = inline.text.replace(/[ \t]+$/, "");
    const end = blankEnd(this.text);
    const start = end - text.length;
    if (text.includes("\n") || !decided(text) || start < 0) return undefined;
    if (this.text.slice(start, end) !== text) return undefined;
    const run = new InlineRun(this.markdown, this.links, start, inline.stops, this.text.slice(start));
    this.runBlock = token.type;
    // The block's HTML must end with the inline text's own: what comes before it is the head.
    const own = run.render().html;
    if (own === "" || !flat(tail).endsWith(own)) return undefined;
    run.head = head + tail.slice(0, tail.length - own.length);
    return run;
  }

  /** Appends ADDED to an open fenced code block unless one of its lines may close the fence. */
  private appendCode(added: string): boolean {
    const fence = this.fence as Fence & { line: string };
    const lines = (fence.line + added).split("\n");
    for (const line of lines) {
      const body = line.trimStart();
      if (body[0] === fence.char && line.length - body.length <= 3) return false;
    }
    // Only the start of the last line is kept: a fence needs at most three spaces before it.
    const last = lines[lines.length - 1];
    fence.line = last.length > 8 ? last.slice(0, 8) : last;
    this.text += added;
    this.grow(this.html.length - 1, escape(added));
    return true;
  }

  private grow(index: number, html: string): void {
    this.html[index] += html;
    this.changes.append(index, html);
    // Kept short: reading it flattens it.
    this.ending = this.ending.length < 1024 ? this.ending + html : html;
  }

  /** Lexes the open part of the text, closes the blocks that can no longer change, renders the rest. */
  private render(final: boolean): void {
    const tail = this.text;
    let tokens: Token[] = this.markdown.lex(tail, this.links);
    const starts: number[] = [];
    let offset = 0;
    for (const token of tokens) {
      starts.push(offset);
      offset += token.raw.length;
    }
    const closing = offset === tail.length ? (final ? tokens.length : closable(tokens, starts, tail)) : 0;
    const closingEnd = closing < tokens.length ? starts[closing] : tail.length;

    if (closing > 0) {
      let closed = tokens.slice(0, closing);
      tokens = tokens.slice(closing);
      // Closed blocks must not lean on a definition still being typed: lex them without it.
      if (!final && tokens.some((t) => hasDefinition(t)))
        closed = this.markdown.lex(tail.slice(0, closingEnd), this.links);
      const before = this.closedCount;
      const tags = this.close(closed);
      this.text = this.text.slice(closingEnd);
      this.lateDefinitions(tags, before);
    }
    this.renderOpen(tokens, tail.slice(closingEnd), final);
  }

  /** Renders TOKENS as closed blocks after the ones already closed; returns the labels they define. */
  private close(tokens: Token[]): string[] {
    const tags: string[] = [];
    this.html.length = this.closedCount;
    for (const token of tokens) {
      definitions(token, (d: Tokens.Def) => {
        if (!(d.tag in this.links)) {
          this.links[d.tag] = { href: d.href, title: d.title };
          tags.push(d.tag);
        }
      });
      const html = this.rendered.get(source(token)) ?? this.markdown.render(token);
      if (html === "") continue;
      if (token.raw.includes("[")) this.references.set(this.closedCount, token.raw);
      this.html.push(html);
      this.changes.touch(this.closedCount);
      this.closedCount++;
    }
    if (tags.length > 0) this.rendered.clear();
    return tags;
  }

  /** Re-renders the closed blocks that name a label defined only now (a definition came late). */
  private lateDefinitions(tags: string[], before: number): void {
    if (tags.length === 0) return;
    for (const [index, raw] of this.references) {
      if (index >= before) continue;
      const labels = raw.toLowerCase().replace(/\s+/g, " ");
      if (!tags.some((tag) => labels.includes(`[${tag}]`))) continue;
      const html = this.markdown
        .lex(raw, this.links)
        .map((t) => this.markdown.render(t))
        .join("");
      if (html !== this.html[index]) {
        this.html[index] = html;
        this.changes.touch(index);
      }
    }
  }

  /** Renders the open tokens (the tail of the text) in their open form. */
  private renderOpen(tokens: Token[], tail: string, final: boolean): void {
    const previous = this.html.length;
    const rendered = this.rendered;
    this.rendered = new Map();
    this.html.length = this.closedCount;
    this.fence = undefined;
    this.tailIsLastBlock = false;
    this.plainFrom = -1;
    let offset = 0;
    tokens.forEach((token, i) => {
      const start = offset;
      offset += token.raw.length;
      const last = i === tokens.length - 1;
      const fence = last && !final ? openFence(token) : undefined;
      let html: string;
      if (fence) {
        const contentStart = tail.indexOf("\n", start) + 1;
        html = openCodeBlock(fence.info) + (contentStart > 0 ? escape(tail.slice(contentStart)) : "");
        if (contentStart > 0) this.fence = { ...fence, line: tail.slice(tail.lastIndexOf("\n") + 1) };
      } else {
        // A block before the last one is often unchanged: reuse its HTML (a code block's colours).
        const full = rendered.get(source(token)) ?? this.markdown.render(token);
        if (full === "") return;
        this.rendered.set(source(token), full);
        html = final ? full : opening(full);
      }
      this.changes.touch(this.html.length);
      this.html.push(html);
      if (last) {
        this.ending = html;
        this.tailIsLastBlock = true;
        this.tailHasCode = !fence && html.includes("<pre");
      }
    });
    this.run = undefined;
    this.lineEnded = false;
    // Blocks still open before the last one must be apart from it by a blank line: a line that
    // starts with its own text then cannot join them, whatever follows on it.
    const lastStart = offset - (tokens.at(-1)?.raw.length ?? 0);
    const apart = this.html.length === this.closedCount + 1 || BLANK_BEFORE.test(tail.slice(0, lastStart));
    // The run lexes with the closed blocks' definitions only: one in an open block would be missed.
    if (!final && this.tailIsLastBlock && !this.fence && apart && !tokens.some(hasDefinition))
      this.run = this.inlineRun(tokens[tokens.length - 1], "", this.html[this.html.length - 1]);
    this.parts = final ? undefined : this.partsOf(tokens, tail);
    if (final) {
      this.closedCount = this.html.length;
      this.text = "";
    }
    for (let i = this.html.length; i < previous; i++) this.changes.touch(i);
  }

  /** The parts of the open list or table when it is the only block in TOKENS (the open TEXT). */
  private partsOf(tokens: Token[], text: string): Parts | undefined {
    if (this.html.length !== this.closedCount + 1) return undefined;
    let start = 0;
    let found: Token | undefined;
    for (const token of tokens) {
      if (token.type !== "space") {
        if (found) return undefined;
        found = token;
      } else if (!found) start += token.raw.length;
    }
    const full = found && this.rendered.get(source(found));
    return found && full ? parts(this.markdown, this.links, found, start, text, full) : undefined;
  }
}

/** What TOKEN's HTML depends on: its source, or a code block's text and language only. */
function source(token: Token): string {
  if (token.type !== "code") return token.raw;
  const code = token as Tokens.Code;
  return `\0${code.lang ?? ""}\0${code.text}`;
}

/** A renderer for the growing text of the item KEY. */
export function stream(key: string, options?: RenderOptions): MarkdownStream {
  return new MarkdownStream(key, options);
}
