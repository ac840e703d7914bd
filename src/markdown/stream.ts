// A growing Markdown text rendered block by block: closed blocks are rendered once; a delta costs
// work in proportion to the open (last) block — to its last item or row in a list or table — and
// plain words appended to it cost only themselves.
import type { Token } from "marked";
import type { Block, Patch } from "../protocol/blocks";
import { escape, flat } from "./html";
import { define, hasDefinition, markdownFor, type Links, type Markdown, type RenderOptions } from "./render";
import { openParts, type Parts } from "./parts";
import { References } from "./references";
import { Changes } from "./block-changes";
import { Renders } from "./renders";
import { closable, fenceLine, type OpenFence } from "./open";
import { Incoming } from "./held";
import { paragraphStart, runOf, type InlineRun, type Shown } from "./inline";
import { afterDelimiters, plainEnd, plainKinds, plainWords, type PlainEnd } from "./plain";

const BLANK_BEFORE = /\n[ \t]*\n[ \t]*$/;

/** Renders one growing Markdown text (an item) as keyed blocks and tells what changed. */
export class MarkdownStream {
  /** The open part of the text: everything before it is in closed blocks. */
  private text = "";
  private readonly incoming = new Incoming();
  private ended = false;
  private readonly html: string[] = [];
  private closedCount = 0;
  /** The source of each closed block that may hold a reference link, for late definitions. */
  private readonly references = new References();
  private readonly links: Links = {};
  /** The whole HTML of the open blocks by source, to reuse when a re-render leaves one unchanged. */
  private readonly renders: Renders;
  /** The last block renders the end of the text, so words typed there append to its HTML. */
  private tailIsLastBlock = false;
  /** A short string the last block's HTML ends with (read instead of the whole, which may be a rope). */
  private ending = "";
  /** The last block holds a code block, whose colours plain words can change. */
  private tailHasCode = false;
  /** The end of the last line when it is plain words that end the last block's HTML; or unknown. */
  private plain: PlainEnd | undefined;
  /** The one-line inline text that ends the open block, rendered from its last cut. */
  private run: InlineRun | undefined;
  /** The type of the block whose inline text the run is (a paragraph, a list…). */
  private runBlock = "";
  /** The run's line has ended (`endLine`): it only waits to see whether a blank line follows. */
  private lineEnded = false;
  /** The open list or table, when it is the only open block and re-renders its last part only. */
  private parts: Parts | undefined;
  /** The open fenced code block, and the start of its open line. */
  private fence: OpenFence | undefined;
  private readonly changes = new Changes();
  private readonly markdown: Markdown;
  private readCount = 0;

  constructor(
    readonly key: string,
    options: RenderOptions = {},
  ) {
    this.markdown = markdownFor(options);
    this.renders = new Renders(this.markdown);
  }

  /** How many leading blocks are closed: their HTML is final (a late reference definition aside). */
  get closed(): number {
    return this.closedCount;
  }

  /** The blocks as they stand: closed ones final, the open ones without their closing tags. */
  blocks(): Block[] {
    return this.html.map((html, i) => ({ key: `${this.key}.${i}`, html }));
  }

  /** How many characters of its input the stream has read: a delta once, a whole text each time. */
  get read(): number {
    return this.readCount;
  }

  /**
   * Sets the whole text (a full replacement); when it extends the last one given this way, only the
   * added part is rendered, but all of it is read (after `append`, the text starts over).
   */
  update(text: string): Patch {
    const source = this.incoming.source;
    if (this.ended || source === undefined || !text.startsWith(source)) this.reset();
    const added = text.slice(this.incoming.length);
    this.readCount += text.length - added.length;
    const patch = this.append(added);
    this.incoming.source = text;
    return patch;
  }

  /** Adds DELTA to the text and returns the patch since the last one: only DELTA is read. */
  append(delta: string): Patch {
    if (this.ended) throw new Error("the text has ended");
    this.readCount += delta.length;
    const added = this.incoming.add(delta);
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
      this.text += this.incoming.rest();
      this.ended = true;
      this.render(true);
    }
    return this.changes.take(this.key, this.html);
  }

  private reset(): void {
    this.text = this.ending = "";
    this.ended = this.tailIsLastBlock = this.lineEnded = false;
    this.fence = this.plain = this.run = this.parts = undefined;
    this.closedCount = this.html.length = 0;
    for (const tag of Object.keys(this.links)) delete this.links[tag];
    this.incoming.clear();
    this.references.clear();
    this.renders.clear();
    this.changes.forget();
  }

  /** Appends ADDED without re-lexing when it provably only extends the last block's text. */
  private appendPlain(added: string): boolean {
    if (!this.tailIsLastBlock) return false;
    if (this.fence) return this.appendCode(added);
    const kinds = plainKinds(added);
    if (this.tailHasCode || kinds === 0) return false;
    // Only the end of the last line matters, kept apart (the text is not read: reading a string
    // built by `+` copies it whole), so a delta costs its own length, not the text's.
    const line = this.plain ?? (this.plain = this.plainEnd());
    if (!line) return this.afterConstruct(added, kinds);
    const html = plainWords(line, added, kinds);
    if (html === undefined) return false;
    this.text += added;
    this.run?.add(added);
    if (html !== "") this.grow(this.html.length - 1, html);
    return true;
  }

  /** Appends ADDED, plain words, where the text ends with inline delimiters (see `afterDelimiters`). */
  private afterConstruct(added: string, kinds: number): boolean {
    const after = this.run && afterDelimiters(this.run, this.ending, added, kinds);
    if (!this.run || !after) return false;
    this.text += added;
    this.run.add(added);
    if (after.html !== "") this.grow(this.html.length - 1, after.html);
    this.plain = after.line;
    if (after.html !== "") this.run.cutPast();
    return true;
  }

  /** The end of the last line, if plain words end it and the last block's HTML. */
  private plainEnd(): PlainEnd | undefined {
    // An inline run holds the end of the line, and its start is decided: only that is read.
    const run = this.run;
    return plainEnd(run ? run.source : this.text, run !== undefined, (own) =>
      (own.length <= this.ending.length ? this.ending : flat(this.html[this.html.length - 1])).endsWith(own),
    );
  }

  /** Appends ADDED to the inline text that ends the open block, re-rendering it from its last cut. */
  private appendInline(added: string): boolean {
    const run = this.run;
    if (!run || !this.tailIsLastBlock || this.fence || run.stops.test(added)) return false;
    this.text += added;
    run.add(added);
    this.show(run.render());
    this.plain = undefined;
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
    this.plain = undefined;
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
    this.show(run.close("</p>\n"));
    this.text += ended ? added : added.slice(words.length);
    this.closeLast(this.text.length - (ended ? added.length : added.length - words.length - 1));
    return true;
  }

  /** The last block, the open text up to END, is final (its HTML is): the text from END is rendered. */
  private closeLast(end: number): void {
    // A reference in it may take a definition that comes later (see `References`).
    this.references.closed(this.html.length - 1, this.text.slice(0, end));
    this.closedCount++;
    this.run = undefined;
    this.lineEnded = false;
    this.parts = undefined;
    this.tailIsLastBlock = false;
    this.plain = undefined;
    this.text = this.text.slice(end);
    // Blank lines alone open no block.
    if (!/^[ \t\n]*$/.test(this.text) && !this.startParagraph()) this.render(false);
  }

  /** Opens a paragraph for the open text without lexing it, when it is plain words (`paragraphStart`). */
  private startParagraph(): boolean {
    const start =
      this.html.length === this.closedCount && paragraphStart(this.markdown, this.links, this.text);
    if (!start) return false;
    this.html.push(start.html);
    this.changes.touch(this.html.length - 1);
    this.ending = start.html;
    this.run = start.run;
    this.runBlock = "paragraph";
    this.tailIsLastBlock = true;
    this.tailHasCode = false;
    this.fence = undefined;
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
    if (grown.end !== undefined) {
      this.closeLast(grown.end);
      return true;
    }
    this.plain = undefined;
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

  /** The inline run of TOKEN, the only open block, whose HTML is HEAD then TAIL (see `runOf`). */
  private inlineRun(token: Token, head: string, tail: string): InlineRun | undefined {
    const run = runOf(this.markdown, this.links, token, this.text, head, tail);
    if (run) this.runBlock = token.type;
    return run;
  }

  /** Appends ADDED to an open fenced code block unless one of its lines may close the fence. */
  private appendCode(added: string): boolean {
    const fence = this.fence as OpenFence;
    const line = fenceLine(fence, added);
    if (line === undefined) return false;
    fence.line = line;
    this.text += added;
    this.grow(this.html.length - 1, escape(added));
    return true;
  }

  private grow(index: number, html: string): void {
    if (this.run) this.run.closing = "";
    this.html[index] += html;
    this.changes.append(index, html);
    // Kept short: reading it flattens it.
    this.ending = html;
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
      // A closed block that names a label defined only now (a definition came late) shows it now.
      for (const index of this.references.rerender(tags, before, this.markdown, this.links, this.html))
        this.changes.touch(index);
    }
    this.renderOpen(tokens, tail.slice(closingEnd), final);
  }

  /** Renders TOKENS as closed blocks after the ones already closed; returns the labels they define. */
  private close(tokens: Token[]): string[] {
    const tags = define(tokens, this.links);
    this.html.length = this.closedCount;
    for (const token of tokens) {
      const html = this.renders.whole(token);
      if (html === "") continue;
      this.references.closed(this.closedCount, token.raw);
      this.html.push(html);
      this.changes.touch(this.closedCount);
      this.closedCount++;
    }
    if (tags.length > 0) this.renders.clear();
    return tags;
  }

  /** Renders the open tokens (the tail of the text) in their open form. */
  private renderOpen(tokens: Token[], tail: string, final: boolean): void {
    const previous = this.html.length;
    this.html.length = this.closedCount;
    const open = this.renders.open(tokens, tail, final);
    for (const html of open.html) {
      this.changes.touch(this.html.length);
      this.html.push(html);
    }
    this.fence = open.fence;
    this.tailIsLastBlock = open.tail;
    this.tailHasCode = open.tailHasCode;
    this.plain = undefined;
    if (open.tail) this.ending = this.html[this.html.length - 1];
    this.run = undefined;
    this.lineEnded = false;
    // Blocks still open before the last one must be apart from it by a blank line: a line that
    // starts with its own text then cannot join them, whatever follows on it.
    const lastStart = tokens.slice(0, -1).reduce((sum, t) => sum + t.raw.length, 0);
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
    return openParts(this.markdown, this.links, tokens, text, (token) => this.renders.known(token));
  }
}

/** A renderer for the growing text of the item KEY. */
export function stream(key: string, options?: RenderOptions): MarkdownStream {
  return new MarkdownStream(key, options);
}
