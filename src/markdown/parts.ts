// The open last block when it is a list or a table: its finished items or rows keep the HTML they
// were given, and a delta re-renders only the item or row still being written (list-block.ts, table.ts).
// A new item or row then costs its own length, not the whole list's or table's.
import type { Token, Tokens } from "marked";
import type { Links, Markdown } from "./render";
import type { Parts } from "./grown";
import { ListItems } from "./list-block";
import { TableRows } from "./table";

export type { Grown, Parts } from "./grown";

/**
 * The parts of TOKEN, the only open block, starting at START in the open TEXT and rendered whole
 * as FULL; undefined when it is not a list or table that can grow part by part.
 */
export function parts(
  markdown: Markdown,
  links: Links,
  token: Token,
  start: number,
  text: string,
  full: string,
): Parts | undefined {
  if (token.type === "list") return ListItems.of(markdown, links, token as Tokens.List, start, text, full);
  if (token.type === "table") return TableRows.of(markdown, links, token as Tokens.Table, start, text, full);
  return undefined;
}

/**
 * The parts of the open list or table when it is the only block in TOKENS, the lexed open TEXT;
 * RENDERED gives a token's whole HTML as rendered already.
 */
export function openParts(
  markdown: Markdown,
  links: Links,
  tokens: Token[],
  text: string,
  rendered: (token: Token) => string | undefined,
): Parts | undefined {
  let start = 0;
  let found: Token | undefined;
  for (const token of tokens) {
    if (token.type !== "space") {
      if (found) return undefined;
      found = token;
    } else if (!found) start += token.raw.length;
  }
  const full = found && rendered(found);
  return found && full ? parts(markdown, links, found, start, text, full) : undefined;
}
