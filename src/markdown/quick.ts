// The inline tokens of the short texts a stream lexes on almost every delta — words, code spans,
// `*emphasis*` or `**strong**` around plain words, and links to http(s) URLs, finished or not (see
// quick-link.ts) — made without marked's inline lexer, which costs microseconds per call in set-up
// alone. The tokens are exactly the ones marked makes (checked against it over random texts in the
// tests); any text outside that narrow shape is left to marked.
import type { Token } from "marked";
import { asciiKinds, asciiSet, isAlnum } from "./chars";
import { bracket } from "./quick-link";

/** What each ASCII character may be here (0: the text is left to marked). */
const WORD = 1;
/** Punctuation that is plain text, and that may follow a closing delimiter run. */
const MARK = 2;
const STAR = 3;
const TICK = 4;
const BRACKET = 5;
const KIND = asciiKinds(
  [/[A-Za-z0-9 ]/, WORD],
  [/[,;?!.()/'"-]/, MARK],
  [/\*/, STAR],
  [/`/, TICK],
  [/\[/, BRACKET],
);

/** Characters a code span may hold here: printable ASCII bar those that lean on what is around. */
const CODE = asciiSet(/(?![`\\<>[\]&|])[ -~]/);

const SPACE = 32;
const WWW = /www\./i;

function text(raw: string): Token {
  return { type: "text", raw, text: raw, escaped: false };
}

/**
 * The inline tokens marked makes of SRC, when SRC is made only of words and the punctuation in
 * `KIND`, single-backtick code spans, `*` or `**` delimiters after a blank (or the start) around
 * words (a run that no closer follows is text), and the links `bracket` takes; undefined for
 * anything else.
 */
export function quickInline(src: string): Token[] | undefined {
  // Words with "www." in them are links.
  if (WWW.test(src)) return undefined;
  const tokens: Token[] = [];
  // The start of the text not yet in a token (it joins the next text token).
  let pending = 0;
  let i = 0;
  const flush = (end: number) => {
    if (end > pending) {
      const last = tokens[tokens.length - 1];
      const raw = src.slice(pending, end);
      if (last?.type === "text") {
        last.raw += raw;
        (last as { text: string }).text += raw;
      } else tokens.push(text(raw));
    }
  };
  while (i < src.length) {
    const c = src.charCodeAt(i);
    const kind = c < 128 ? KIND[c] : 0;
    if (kind === WORD || kind === MARK) {
      i++;
      continue;
    }
    if (kind === TICK) {
      if (src.charCodeAt(i + 1) === 96) return undefined;
      const close = src.indexOf("`", i + 1);
      if (close < 0) {
        // A backtick no other follows opens nothing: it is text.
        i++;
        continue;
      }
      if (close === i + 1 || src.charCodeAt(close + 1) === 96) return undefined;
      for (let j = i + 1; j < close; j++) {
        const k = src.charCodeAt(j);
        if (k >= 128 || CODE[k] === 0) return undefined;
      }
      if (src.charCodeAt(i + 1) === SPACE || src.charCodeAt(close - 1) === SPACE) return undefined;
      flush(i);
      const raw = src.slice(i, close + 1);
      tokens.push({ type: "codespan", raw, text: raw.slice(1, -1) });
      i = pending = close + 1;
      continue;
    }
    if (kind === BRACKET) {
      const b = bracket(src, i);
      if (b === undefined) return undefined;
      // A text token marked's reference rule starts at the bracket (no text pends, so the last
      // token is not text) has no `escaped` field.
      if (b.bare && pending === i) tokens.push({ type: "text", raw: "", text: "" });
      i = b.textEnd;
      if (b.link) {
        flush(i);
        tokens.push(b.link);
        i = pending = b.end;
      }
      continue;
    }
    if (kind !== STAR) return undefined;
    const end = emphasis(src, i);
    if (end === undefined) return undefined;
    if (end < 0) {
      // An opener no closer follows: the rest is words, and text.
      i = src.length;
      continue;
    }
    flush(i);
    const n = src.charCodeAt(i + 1) === 42 ? 2 : 1;
    const raw = src.slice(i, end);
    const inner = raw.slice(n, -n);
    tokens.push({ type: n === 2 ? "strong" : "em", raw, text: inner, tokens: [text(inner)] });
    i = pending = end;
  }
  flush(src.length);
  return tokens;
}

/**
 * Where the emphasis that a `*` or `**` run at START of SRC opens ends; -1 when only words follow
 * it to the end of SRC (it closes nothing: text); undefined when it is anything else.
 */
function emphasis(src: string, start: number): number | undefined {
  let n = 1;
  while (src.charCodeAt(start + n) === 42) n++;
  // Only a run after a blank (or at the start) and before a letter or digit: it can only open.
  if (n > 2 || (start > 0 && src.charCodeAt(start - 1) !== SPACE)) return undefined;
  if (!isAlnum(src.charCodeAt(start + n))) return undefined;
  let i = start + n;
  while (i < src.length) {
    const c = src.charCodeAt(i);
    if (c === 42) break;
    if (!isAlnum(c) && c !== SPACE) return undefined;
    i++;
  }
  if (i === src.length) return -1;
  // A closer of the same length after a letter or digit, before a blank, punctuation or the end.
  if (!isAlnum(src.charCodeAt(i - 1))) return undefined;
  let m = 0;
  while (src.charCodeAt(i + m) === 42) m++;
  if (m !== n) return undefined;
  const after = i + m;
  if (after < src.length) {
    const c = src.charCodeAt(after);
    if (c !== SPACE && (c >= 128 || KIND[c] !== MARK)) return undefined;
  }
  return after;
}
