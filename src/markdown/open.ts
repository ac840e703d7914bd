// Which blocks at the end of a growing text are still open: a block is closed once no text
// appended later can change how it lexes, and a fenced code block is open until its fence closes.
import type { Token } from "marked";

const LETTER = /^\p{L}$/u;
const FENCE = /^(`{3,}|~{3,})([^\n]*)$/;
const CLOSING_FENCE = /^ {0,3}(`{3,}|~{3,})[ \t]*$/;
/** The start of a block that ends a paragraph whatever the line after it holds. */
const INTERRUPTS = /^ {0,3}(?:#{1,6}(?:[ \t]|$)|`{3,}|~{3,}|>)/;
/** A list item's marker and the first character of its text. */
const ITEM_START = / {0,3}(?:([-+*])|(\d{1,9})[.)])[ \t]+(\S)/y;

/** An open fenced code block at the end of the text, streamed as escaped text. */
export interface Fence {
  char: string;
  size: number;
}

/** An open fence, and the start of its code's open line. */
export type OpenFence = Fence & { line: string };

/**
 * The start of the open line of FENCE's code once ADDED is appended, or undefined when one of the
 * lines closes the fence (a line that only may close it later, such as two backticks, is code
 * until it does). Only the line's start is kept: a closing fence has at most three spaces before
 * it, and a longer line that starts like one is taken for one.
 */
export function fenceLine(fence: OpenFence, added: string): string | undefined {
  const lines = (fence.line + added).split("\n");
  for (const line of lines) {
    const closing = CLOSING_FENCE.exec(line)?.[1];
    if (closing && closing[0] === fence.char && closing.length >= fence.size) return undefined;
  }
  const last = lines[lines.length - 1];
  return last.length > 8 ? last.slice(0, 8) : last;
}

/** Whether TOKEN is a code block made by indenting, not fenced. */
function indentedCode(token: Token): boolean {
  return token.type === "code" && !/^ {0,3}(`{3}|~{3})/.test(token.raw);
}

/** How many leading tokens are final: text appended later cannot change how they lex. */
export function closable(tokens: Token[], starts: number[], tail: string): number {
  let closing = 0;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token.type === "space") continue;
    // A fenced code block is over once the line of its closing fence has ended.
    const fenced = token.type === "code" && !indentedCode(token);
    if (fenced && openFence(token) === undefined && tail[starts[i] + token.raw.trimEnd().length] === "\n") {
      closing = i + 1;
      continue;
    }
    let next = i + 1;
    while (next < tokens.length && tokens[next].type === "space") next++;
    const end = starts[i] + token.raw.trimEnd().length;
    const gap = tail.slice(end, next < tokens.length ? starts[next] : tail.length);
    const indented = indentedCode(token);
    // After a blank line and more text most blocks are over; a list or indented code may go on
    // (without the more text, the block may only have stopped at the end of the input), but not
    // past a line that starts with a letter at the margin: neither indented nor an item marker.
    const goesOn = (token.type === "list" || indented) && !LETTER.test(tail[starts[next]] ?? "");
    // A paragraph or heading is over at a blank line: nothing after it can join it.
    const ends = next < tokens.length ? !goesOn : token.type === "paragraph" || token.type === "heading";
    const blankAfter = ends && /\n[ \t]*\n/.test(gap);
    // Otherwise the next block's first lines must be complete: a half line such as "#" or "```"
    // can still turn back into text that continues this block.
    let lines = next < tokens.length ? settling(token, tokens[next], tail, starts[next]) : Infinity;
    let at = next < tokens.length ? starts[next] : tail.length;
    while (lines > 0 && at >= 0 && at < tail.length) {
      at = tail.indexOf("\n", at);
      if (at < 0) break;
      at++;
      lines--;
    }
    if (!blankAfter && lines > 0) break;
    closing = next < tokens.length ? next : i + 1;
  }
  return closing;
}

/** How many lines of NEXT, at AT in TEXT, must be complete before the block BEFORE it is final. */
function settling(before: Token, next: Token, text: string, at: number): number {
  // A list item whose marker is followed by text (not a rule's next mark) ends a list before it
  // whatever the rest of its line holds, and a paragraph too when its marker may interrupt one.
  if (next.type === "list" && (before.type === "list" || before.type === "paragraph")) {
    ITEM_START.lastIndex = at;
    const [, bullet, number, first] = ITEM_START.exec(text) ?? [];
    if (first !== undefined && first !== bullet && (before.type === "list" || bullet || number === "1"))
      return 0;
  }
  if (next.type === "table") return 2;
  // A paragraph also ends before a line that, with the line after it, looks like a table's first
  // two (marked looks that far ahead), unless the line starts a block that ends it anyway.
  const lazy = before.type === "paragraph" || before.type === "blockquote";
  const interrupts =
    next.type === "hr" || (/^(?:heading|code|blockquote)$/.test(next.type) && INTERRUPTS.test(next.raw));
  return lazy && !interrupts ? 2 : 1;
}

/** The fence of TOKEN when it is a fenced code block at the margin whose closing fence has not come. */
export function openFence(token: Token): (Fence & { info: string }) | undefined {
  if (token.type !== "code") return undefined;
  const raw = token.raw;
  const lineEnd = raw.indexOf("\n");
  const first = FENCE.exec(lineEnd < 0 ? raw : raw.slice(0, lineEnd));
  if (!first) return undefined;
  const fence = { char: first[1][0], size: first[1].length, info: first[2] };
  if (lineEnd < 0) return fence;
  const lines = raw
    .slice(lineEnd + 1)
    .replace(/\n$/, "")
    .split("\n");
  const closing = /^ {0,3}(`{3,}|~{3,})[ \t]*$/.exec(lines[lines.length - 1]);
  const closed =
    lines.length > 0 && closing && closing[1][0] === fence.char && closing[1].length >= fence.size;
  return closed && raw.slice(lineEnd + 1) !== "" ? undefined : fence;
}
