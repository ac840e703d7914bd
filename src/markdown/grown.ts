// What an open list or table gives after a delta: its HTML as kept head and new tail, and the
// token of its unfinished part; shared by the list and the table that render part by part.
import type { Token } from "marked";
import { opening } from "./html";

/**
 * The open block's HTML after a delta, `head` then `tail`, and the token of its unfinished part
 * (for its inline text). When `kept`, the block's HTML still starts with `head` as last shown.
 */
export interface Grown {
  head: string;
  tail: string;
  kept: boolean;
  token: Token;
  /** Set when the block is over: its HTML is final, and the open text goes on at this offset. */
  end?: number;
}

/** An open list or table that renders its unfinished part only. */
export interface Parts {
  /** The block's open HTML when the open text is TEXT; undefined when TEXT needs a full render. */
  render(text: string): Grown | undefined;
}

/**
 * A list's or table's open HTML: HEAD, then FRESH (parts finished since it was last shown), then
 * OWN (the current part and the closing tags) without its closing tags. It keeps HEAD if it was
 * last shown that way too (KEPT); `shaped` tells whether it is shown that way now.
 */
export function shown(
  head: string,
  fresh: string,
  own: string,
  token: Token,
  kept: boolean,
): Grown & { shaped: boolean } {
  const opened = opening(own);
  // Closing tags end the open HTML only while the current part shows nothing after them.
  if (opened === "")
    return { head: "", tail: opening(head + fresh + own), kept: false, token, shaped: false };
  if (!kept) return { head: "", tail: head + fresh + opened, kept, token, shaped: true };
  return { head, tail: fresh + opened, kept, token, shaped: true };
}

/**
 * The final HTML of a list or table that is over, HEAD then TAIL (HEAD kept as last shown when
 * KEPT), its last part TOKEN, the open text going on at END.
 */
export function final(head: string, tail: string, kept: boolean, token: Token, end: number): Grown {
  return kept ? { head, tail, kept, token, end } : { head: "", tail: head + tail, kept, token, end };
}

/** The non-space tokens of TOKENS are just the first one, of type TYPE. */
export function alone(tokens: Token[], type: string): boolean {
  return tokens[0]?.type === type && tokens.every((t, i) => i === 0 || t.type === "space");
}
