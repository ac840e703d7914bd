// Plain words typed at the end of the open block: text that provably only extends the block's
// HTML with its own escaped self, so that the stream appends it without lexing anything.
import { asciiKinds, lastBlank } from "./chars";
import { escape } from "./html";
import type { InlineRun } from "./inline";

/** Characters that, appended mid-line to plain words, cannot change how anything before renders. */
const PLAIN = /^[\p{L}\p{N}\p{M} ,;?!.-]*$/u;
/**
 * Those and the ones that are plain only on a line without "[" or "]": quotes may end a reference
 * definition's title, a parenthesis a link's destination (a slash only matters in an autolink,
 * whose words are not plain).
 */
const UNBRACKETED = /^[\p{L}\p{N}\p{M} ,;?!'".()/-]*$/u;
const RUN = /[\p{L}\p{N}\p{M} ,;?!'".()/-]/u;
const QUOTE = /['"]/;
/** A line start decided by a letter, after a list marker or not. */
const LINE_START = /^(?:(?:[-+*]|\d{1,9}[.)])[ \t]+)?(?=\p{L})/u;

/** The end of the text's last line, when it ends in plain words. */
export interface PlainEnd {
  /** The spaces and tabs that end it (shown once a word follows them). */
  blanks: string;
  /** The last word before them, and whether it holds "www." or a character of an autolink or an entity. */
  word: string;
  risky: boolean;
  /** Whether the line holds a "[" or "]" (see `UNBRACKETED`); plain words add none. */
  bracket: boolean;
  /** Whether the line holds a backtick, which a backtick added could close. */
  ticks: boolean;
}

/** The kinds of plain characters (see `ASCII`). */
const WORD = 1;
const BRACKETED = 2;
const DELIMITER = 3;
const TICK = 4;

/**
 * For each ASCII character, its kind: 0 not plain, WORD, BRACKETED (plain on a line without
 * brackets), DELIMITER (an emphasis delimiter, plain where it can only open: see `opensOnly`) or
 * TICK (a backtick, plain on a line without one: it can then only open a code span).
 */
const ASCII = asciiKinds([PLAIN, WORD], [UNBRACKETED, BRACKETED], [/[*_]/, DELIMITER], [/`/, TICK]);

/**
 * Whether every run of emphasis delimiters in PENDING (the blanks that end the line, then what
 * is added) comes after a blank: such a run cannot close anything, so it shows as it is until a
 * closing run comes (which is not plain). A run of another delimiter right after it is refused.
 */
function opensOnly(pending: string, word: string): boolean {
  for (let i = 0; i < pending.length; i++) {
    const c = pending.charCodeAt(i);
    if (c >= 128 || ASCII[c] !== DELIMITER) continue;
    // At the start, the run may go on one that WORD, the last word so far, is made of alone.
    const after =
      i === 0 ? word !== "" && [...word].every((w) => w.charCodeAt(0) === c) : /[ \t]/.test(pending[i - 1]);
    if (!after) return false;
    while (pending.charCodeAt(i + 1) === c) i++;
  }
  return true;
}

/** The kinds of characters of ADDED, one bit per kind of `ASCII` (1 << kind); 0 if not plain. */
export function plainKinds(added: string): number {
  let kinds = 0;
  for (let i = 0; i < added.length; i++) {
    const c = added.charCodeAt(i);
    if (c >= 128) return UNBRACKETED.test(added) ? 1 << (PLAIN.test(added) ? WORD : BRACKETED) : 0;
    if (ASCII[c] === 0) return 0;
    kinds |= 1 << ASCII[c];
  }
  return kinds;
}

/**
 * Whether TEXT is a line of plain words from a letter on: the start of a paragraph that renders
 * as its own text (no character in it that could mean more, no "www." that could grow a link).
 */
export function wordsLine(text: string): boolean {
  return LETTER_START.test(text) && plainKinds(text) === 1 << WORD && !/www\./i.test(text);
}

const RISKY = /[&:@\\<]/;
/** A letter at the start (a constant: the bundle makes a pattern with `\p` a `new RegExp`). */
const LETTER_START = /^\p{L}/u;

/**
 * The end of TEXT's last line when it is a plain run that also ends the block's HTML (SHOWS tells
 * whether the HTML ends with the given HTML). DECIDED: TEXT is the end of a line whose start is
 * decided already; otherwise text that starts its line must start with a letter, after a list
 * marker or not, or it could still become a marker, a rule or an underline.
 */
export function plainEnd(
  text: string,
  decided: boolean,
  shows: (html: string) => boolean,
): PlainEnd | undefined {
  const lineStart = decided ? 0 : text.lastIndexOf("\n") + 1;
  let end = text.length;
  while (end > lineStart && (text[end - 1] === " " || text[end - 1] === "\t")) end--;
  let runStart = end;
  while (runStart > lineStart && RUN.test(text[runStart - 1])) runStart--;
  let core = text.slice(runStart, end).trimStart();
  if (!decided && (runStart === lineStart || text.slice(lineStart, runStart).trim() === "")) {
    const marker = LINE_START.exec(core);
    if (!marker) return undefined;
    core = core.slice(marker[0].length);
  }
  if (core === "" || !shows(escape(core))) return undefined;
  const wordStart =
    Math.max(text.lastIndexOf(" ", end - 1), text.lastIndexOf("\t", end - 1), lineStart - 1) + 1;
  const word = text.slice(wordStart, end);
  return {
    blanks: text.slice(end),
    word,
    risky: RISKY.test(word) || /www\./i.test(word),
    bracket: text.includes("[", lineStart) || text.includes("]", lineStart),
    // A code span may cross lines: any backtick in the text counts (a run's text is one line).
    ticks: text.includes("`"),
  };
}

/**
 * The HTML that ADDED (of the character KINDS `plainKinds` gives) appends to a line that ends as
 * LINE says, and LINE brought up to date; undefined, and LINE untouched, when ADDED could change
 * more than that.
 */
export function plainWords(line: PlainEnd, added: string, kinds: number): string | undefined {
  if (kinds & (1 << BRACKETED) && line.bracket) return undefined;
  // One run of backticks on a line without one opens a code span, shown as it is until it closes.
  const tick = kinds & (1 << TICK) ? added.indexOf("`") : -1;
  if (tick >= 0 && (line.ticks || /`[^`]+`/.test(added.slice(tick)))) return undefined;
  const pending = line.blanks + added;
  if (kinds & (1 << DELIMITER) && !opensOnly(pending, line.blanks === "" ? line.word : " ")) return undefined;
  // Words that can grow into an autolink or an entity change with every letter.
  if (line.risky || (pending.includes(".") && /www\./i.test(line.word + pending))) return undefined;
  let end = pending.length;
  while (end > 0 && (pending[end - 1] === " " || pending[end - 1] === "\t")) end--;
  const shown = end === pending.length ? pending : pending.slice(0, end);
  line.blanks = pending.slice(end);
  if (shown === "") return "";
  if (tick >= 0) line.ticks = true;
  const blank = lastBlank(shown);
  if (blank < 0) line.word += shown;
  else {
    line.word = shown.slice(blank + 1);
    line.risky = false;
  }
  // Quotes are among the characters plain only on a line without brackets.
  return kinds & (1 << BRACKETED) && QUOTE.test(shown) ? escape(shown) : shown;
}

/** Brackets before an inline run's cut belong to finished links: only those after it count. */
const bracketed = (run: InlineRun): boolean => /[[\]]/.test(run.source);
const ticked = (run: InlineRun): boolean => run.source.includes("`");

/** The end of RUN's line after a construct its last render closed, when ADDED or the text puts a blank after it. */
function closedEnd(run: InlineRun, added: string): { before: string; line: PlainEnd } | undefined {
  const blanks = /[ \t]*$/.exec(run.source)?.[0] ?? "";
  // Punctuation after emphasis or code keeps it closed (it stays right-flanking); after a link
  // it could still be part of an autolink.
  const punctuation = /^[,;?!.-]/.test(added) && /^(?:<\/(?:em|strong|code|del)>)+$/.test(run.closing);
  if (blanks === "" && added[0] !== " " && added[0] !== "\t" && !punctuation) return undefined;
  return {
    before: run.closing,
    line: { blanks, word: "", risky: false, bracket: bracketed(run), ticks: ticked(run) },
  };
}

/** The end of RUN's line when it is delimiters that can only open, shown as they are at the end of ENDING. */
function openerEnd(run: InlineRun, ending: string): { before: string; line: PlainEnd } | undefined {
  const opener = /(?:^|[ \t])([*_~`[]+)$/.exec(run.source)?.[1];
  if (opener === undefined || !ending.endsWith(opener)) return undefined;
  return {
    before: "",
    line: { blanks: "", word: opener, risky: false, bracket: bracketed(run), ticks: ticked(run) },
  };
}

/**
 * The HTML that ADDED, plain words, appends where the text ends with inline delimiters rather
 * than words (ENDING ends the block's HTML), and the line's end after it: after a construct such
 * as `**bold**`, once a blank follows it (a blank cannot change how it lexes), its closing tags,
 * which the open HTML left off, come back, then the words; after delimiters that can only open (a
 * blank before them, such as ` *` or `` ` ``), which show as they are until something closes
 * them, the words follow them. Undefined when neither holds.
 */
export function afterDelimiters(
  run: InlineRun,
  ending: string,
  added: string,
  kinds: number,
): { html: string; line: PlainEnd } | undefined {
  const end = run.closing !== "" ? closedEnd(run, added) : openerEnd(run, ending);
  if (!end) return undefined;
  const html = plainWords(end.line, added, kinds);
  if (html === undefined || (html === "" && end.before !== "")) return undefined;
  return { html: html === "" ? "" : end.before + html, line: end.line };
}
