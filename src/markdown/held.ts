// The text as it comes in, before the blocks see it: its length so far (and the text itself when
// it came whole, for `update` to compare with), CR and CRLF turned into LF (a CR at the end of a
// delta waits for the next one), and what is still undecided held back. Shown at once it would
// flicker — a lone "-" under a list item is an empty item, under an indented one it turns the
// item's text into a heading; a half-typed delimiter row shows as text until it completes, then
// the text above it turns into a table's header; a "`" or a "#" may yet open a fence or a heading;
// a link's Markdown shows until the link is written — and each of those states costs a render of
// the block. So the start of a line is held until its text starts, a table row or a fence line
// until its line ends, a link until it is one (or turns out not to be), and delimiters that end
// the text after a word until what follows them comes.
import { asciiSet, lastOf } from "./chars";

/** Blanks, a bullet or an item number (with or without its delimiter) without text after them. */
const ITEM_START = /^[ \t]*(?:(?:[-+*]|\d{1,9}[.)]?)[ \t]*)?$/;
/**
 * A fence's first marks, or a heading's, without what decides them (a third mark, a space); or a
 * fence's whole line until it ends (a closing fence closes its block with its new line).
 */
const BLOCK_START = /^ {0,3}(?:`{1,2}|~{1,2}|#{1,6}|`{3,}[^`]*|~{3,}.*)$/;
/** Pipes, dashes and colons: a delimiter row, a rule or an underline. */
const DELIMITER_ROW = /^ {0,3}\|?(?:[ \t]*:?-*:?[ \t]*\|)*[ \t]*:?-*:?[ \t]*$/;
/** A table row (or a header), shown once its line is complete rather than cell by cell. */
const ROW = /^ {0,3}\|/;
/** The longest line held back (it shows nothing but markers). */
const LONGEST = 256;

/**
 * A link on its way: its label, its label closed, or its destination so far. Once the text after
 * the "[" stops looking like this (a blank or another character after the "]", the ")"), it never
 * does again: text let go is never held back again.
 */
const LINK = /^\[[^\]\n]*(?:\]\([^)\s]*|\])?$/;

/** Whether LINE, a whole line or its start, is undecided: see the patterns above. */
function undecided(line: string): boolean {
  // Each of them is blank or starts (after blanks) with one of these: most lines start otherwise.
  const first = /\S/.exec(line)?.[0];
  if (first !== undefined && !MARKS.includes(first) && !(first >= "0" && first <= "9")) return false;
  return ITEM_START.test(line) || DELIMITER_ROW.test(line) || BLOCK_START.test(line) || ROW.test(line);
}

/** The characters an undecided line's first mark is one of (digits aside). */
const MARKS = "-+*|:`~#";

/** Emphasis, strikethrough or code delimiters that end the text: they may yet grow. */
const DELIMITERS = /[*_`~]{1,3}$/;

/**
 * Where the part of TEXT to hold back starts (TEXT's length when none is): its last line, when
 * that line is undecided and starts in TEXT (after a new line, or at its start when AT_LINE_START);
 * a link being written at the end of the line (its line's start too, when that is undecided); or
 * delimiters that end the text after a word (BEFORE is the character before TEXT): a closing "*"
 * may be the first of two, and "**a*" shows as emphasis until the second comes.
 */
export function heldFrom(text: string, atLineStart: boolean, before = ""): number {
  const newLine = lastOf(text, 10);
  const start = newLine >= 0 ? newLine + 1 : atLineStart ? 0 : -1;
  if (start >= 0 && start < text.length && text.length - start <= LONGEST && undecided(text.slice(start)))
    return start;
  const link = lastOf(text, 91);
  if (link > newLine && text.length - link <= LONGEST && LINK.test(text.slice(link)))
    return start >= 0 && undecided(text.slice(start, link)) ? start : link;
  const closing = DELIMITERS.exec(text);
  if (!closing) return text.length;
  const after = closing.index > 0 ? text[closing.index - 1] : before;
  return after === "" || /[\s*_`~]/.test(after) ? text.length : closing.index;
}

/** The characters that may start or end what is held back: new lines, links, delimiters. */
const DECISIVE = asciiSet(/[\r\n[*_`~]/);

/** Whether DELTA holds one of the `DECISIVE` characters. */
function decisive(delta: string): boolean {
  for (let i = 0; i < delta.length; i++) {
    const c = delta.charCodeAt(i);
    if (c < 128 && DECISIVE[c] === 1) return true;
  }
  return false;
}

/** The incoming text of one stream. */
export class Incoming {
  /**
   * The whole text as given (CRs and all) when it came whole (`update`): a text that grows by
   * deltas is not kept, as a string grown by `+` is a chain of pieces that every young collection
   * walks. Unset once a delta comes.
   */
  source: string | undefined = "";
  /** How long the text given so far is. */
  length = 0;
  private carriage = false;
  private held = "";
  private atLineStart = true;
  /** The last character the blocks got. */
  private before = "";

  /** Takes DELTA; answers what the blocks get now, with LF line ends. */
  add(delta: string): string {
    this.source = undefined;
    this.length += delta.length;
    // Most deltas are words in the middle of a line: nothing is held, nothing to hold.
    if (this.held === "" && !this.carriage && !this.atLineStart && !decisive(delta)) {
      if (delta !== "") this.before = delta[delta.length - 1];
      return delta;
    }
    let added = this.carriage ? "\r" + delta : delta;
    if (added.includes("\r")) {
      this.carriage = added.endsWith("\r");
      if (this.carriage) added = added.slice(0, -1);
      added = added.replace(/\r\n?/g, "\n");
    }
    const text = this.held + added;
    const from = heldFrom(text, this.atLineStart, this.before);
    this.held = text.slice(from);
    if (from === 0) return "";
    this.atLineStart = text[from - 1] === "\n";
    this.before = text[from - 1];
    return from === text.length ? text : text.slice(0, from);
  }

  /** What the blocks have not got yet, once the text has ended. */
  rest(): string {
    const rest = this.held + (this.carriage ? "\n" : "");
    this.held = "";
    this.carriage = false;
    return rest;
  }

  clear(): void {
    this.source = this.held = this.before = "";
    this.length = 0;
    this.carriage = false;
    this.atLineStart = true;
  }
}
