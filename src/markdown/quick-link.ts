// The links of the quick path (see quick.ts): `[label](https://url)` and the unfinished prefixes a
// stream shows on its way there, each as marked makes it. Only labels of words and a URL of
// letters, digits and `./-` after `http://` or `https://` are taken; the rest is left to marked.
import type { Token } from "marked";
import { asciiSet, isAlnum } from "./chars";

/** What a `[` makes: text up to `textEnd`, then (if any) `link` up to `end`. */
export interface Bracket {
  textEnd: number;
  link?: Token;
  end: number;
  /**
   * Whether marked's reference rule, not its text rule, makes the text at the `[` (it does for a
   * closed label with a non-blank in it): a text token it starts has no `escaped` field.
   */
  bare: boolean;
}

/** The characters a label may hold here (any more would need marked's inline lexer inside it). */
const LABEL = asciiSet(/[A-Za-z0-9 .-]/);
/** The characters a URL may hold here; of them, only `.` is cut off the end of a bare URL. */
const HREF = asciiSet(/[A-Za-z0-9./-]/);

const DOT = 46;

/** Whether SRC from START to its end is a start of "https://" or "http://" (a URL to be). */
function schemeToBe(src: string, start: number): boolean {
  const rest = src.length - start;
  if (rest > 8) return false;
  return (
    src.startsWith("https://".slice(0, rest), start) ||
    (rest < 8 && src.startsWith("http://".slice(0, rest), start))
  );
}

/**
 * What the `[` at START of SRC makes as marked lexes it: a finished link, a bracket that is text
 * (unfinished, or closed but not followed by `(`), or text up to `(` and a URL being written,
 * which marked makes an autolink; undefined for anything else.
 */
export function bracket(src: string, start: number): Bracket | undefined {
  // `![` is an image.
  if (src.charCodeAt(start - 1) === 33) return undefined;
  let i = start + 1;
  let blank = true;
  for (; i < src.length && src.charCodeAt(i) !== 93; i++) {
    const c = src.charCodeAt(i);
    if (c >= 128 || LABEL[c] === 0) return undefined;
    if (c !== 32) blank = false;
  }
  // An unclosed label is text, made by marked's text rule.
  if (i === src.length) return { textEnd: i, end: i, bare: false };
  const label = src.slice(start + 1, i);
  const bare = !blank;
  const open = i + 1;
  // `[a][b]` is a reference; `[a]` alone is text.
  if (src.charCodeAt(open) === 91) return undefined;
  if (src.charCodeAt(open) !== 40) return { textEnd: open, end: open, bare };
  const dest = open + 1;
  if (schemeToBe(src, dest)) return { textEnd: src.length, end: src.length, bare };
  const host = src.startsWith("https://", dest) ? dest + 8 : src.startsWith("http://", dest) ? dest + 7 : -1;
  if (host < 0) return undefined;
  let j = host;
  while (j < src.length && src.charCodeAt(j) < 128 && HREF[src.charCodeAt(j)] === 1) j++;
  if (j === src.length) {
    // A URL being written is a bare URL to marked once it has a host, less the dots it ends with
    // (its backpedal); before, it is text.
    const c = src.charCodeAt(host);
    if (!isAlnum(c) && c !== 45) return { textEnd: j, end: j, bare };
    let end = j;
    while (src.charCodeAt(end - 1) === DOT) end--;
    const raw = src.slice(dest, end);
    const tokens = [{ type: "text", raw, text: raw }] as Token[];
    return {
      textEnd: dest,
      end,
      bare,
      link: { type: "link", raw, text: raw, href: raw, autolink: true, tokens },
    };
  }
  // A link with no title; an empty label makes no text token in it.
  if (src.charCodeAt(j) !== 41 || label.length === 0) return undefined;
  const raw = src.slice(start, j + 1);
  const tokens: Token[] = [{ type: "text", raw: label, text: label, escaped: false }];
  return {
    textEnd: start,
    end: j + 1,
    bare: false,
    link: { type: "link", raw, href: src.slice(dest, j), title: null, text: label, tokens },
  };
}
