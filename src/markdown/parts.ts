// The open last block when it is a tight list or a table: its finished items or rows keep the HTML
// they were given, and a delta re-lexes only the item or row still being written. A new item or
// row then costs its own length, not the whole list's or table's.
import type { Token, Tokens } from "marked";
import { flat, opening } from "./html";
import { hasDefinition, type Links, type Markdown } from "./render";

/**
 * The open block's HTML after a delta, `head` then `tail`, and the token of its unfinished part
 * (for its inline text). When `kept`, the block's HTML still starts with `head` as last shown.
 */
export interface Grown {
  head: string;
  tail: string;
  kept: boolean;
  token: Token;
}

/** An open list or table that renders its unfinished part only. */
export interface Parts {
  /** The block's open HTML when the open text is TEXT; undefined when TEXT needs a full render. */
  render(text: string): Grown | undefined;
}

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
 * A list's or table's open HTML: HEAD, then FRESH (parts finished since it was last shown), then
 * OWN (the current part and the closing tags) without its closing tags. It keeps HEAD if it was
 * last shown that way too (KEPT); `shaped` tells whether it is shown that way now.
 */
function shown(
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

/** The body of a list's HTML: its items, without the `<ul>`/`<ol>` line and the closing tag. */
function items(html: string, close: string): string | undefined {
  const head = html.indexOf(">\n") + 2;
  return head > 1 && html.endsWith(close) ? html.slice(head, html.length - close.length) : undefined;
}

/** What kind of items a list takes: its bullet, or its number's delimiter. */
function kind(list: Tokens.List): string {
  const marker = /^[ \t]*(?:([*+-])|\d{1,9}([.)]))/.exec(list.items[0]?.raw ?? "");
  return marker ? (marker[1] ?? `1${marker[2]}`) : "";
}

/**
 * LIST as the lexer makes it when loose: every item loose, its text a paragraph; undefined for a
 * task item (the lexer then moves the checkbox into the paragraph).
 */
function loosened(list: Tokens.List): Tokens.List | undefined {
  if (list.items.some((item) => item.task)) return undefined;
  const items = list.items.map((item) => ({
    ...item,
    loose: true,
    tokens: item.tokens.map((t) => (t.type === "text" ? { ...t, type: "paragraph" } : t)),
  }));
  return { ...list, loose: true, items };
}

/** A list item's marker followed by a word. */
const WORD_ITEM = / {0,3}(?:[-+*]|\d{1,9}[.)])[ \t]+\p{L}/uy;

/** The non-space tokens of TOKENS are just the first one, of type TYPE. */
function alone(tokens: Token[], type: string): boolean {
  return tokens[0]?.type === type && tokens.every((t, i) => i === 0 || t.type === "space");
}

/**
 * A list: items before the current one are finished once the next item's first line is complete
 * or has started with a word (until then the next line may still turn into a rule or lazy text).
 * While the list stays tight, or has become loose, and its items keep their bullet, an item's HTML
 * does not depend on the others.
 */
class ListItems implements Parts {
  private constructor(
    private readonly markdown: Markdown,
    private readonly links: Links,
    private readonly kind: string,
    /** `<ul>\n` or `<ol start="N">\n`, and the closing tag. */
    private readonly head: string,
    private readonly close: string,
    /** The HTML of the finished items. */
    private done: string,
    /** Where the current item starts in the open text. */
    private itemStart: number,
  ) {
    this.shown = done;
  }

  /** The finished items' HTML when the list was last shown, and what was finished since. */
  private shown: string;
  private fresh = "";
  /** Whether the list's HTML was last shown as its head, the finished items, then the current one. */
  private kept = true;
  /** Whether its items are apart (blank lines between them): each one's text is then a paragraph. */
  private loose = false;

  static of(
    markdown: Markdown,
    links: Links,
    list: Tokens.List,
    start: number,
    text: string,
    full: string,
  ): ListItems | undefined {
    if (hasDefinition(list)) return undefined;
    const close = list.ordered ? "</ol>\n" : "</ul>\n";
    const body = items(full, close);
    if (body === undefined) return undefined;
    const run = new ListItems(
      markdown,
      links,
      kind(list),
      full.slice(0, full.indexOf(">\n") + 2),
      close,
      "",
      start,
    );
    run.loose = list.loose;
    const current = run.finish(list, text);
    const own = items(markdown.render(current), close);
    if (own === undefined || !flat(body).endsWith(own)) return undefined;
    run.done = run.shown = body.slice(0, body.length - own.length);
    return run;
  }

  render(text: string): Grown | undefined {
    const tokens = this.markdown.lex(text.slice(this.itemStart), this.links);
    if (!alone(tokens, "list")) return undefined;
    const lexed = tokens[0] as Tokens.List;
    if ((lexed.loose && !this.loose) || kind(lexed) !== this.kind || hasDefinition(lexed)) return undefined;
    // Once loose, a list stays loose whatever comes: its items are lexed without the blank lines
    // that made it so, and shown as it shows them.
    const list = this.loose ? loosened(lexed) : lexed;
    if (list === undefined) return undefined;
    const current = this.finish(list, text);
    for (const item of list.items.slice(0, list.items.length - current.items.length)) {
      const html = items(this.markdown.render({ ...list, items: [item] }), this.close);
      if (html === undefined) return undefined;
      this.done += html;
      this.fresh += html;
    }
    const own = items(this.markdown.render(current), this.close);
    if (own === undefined) return undefined;
    const grown = shown(this.head + this.shown, this.fresh, own + this.close, current, this.kept);
    this.kept = grown.shaped;
    this.shown = this.done;
    this.fresh = "";
    return grown;
  }

  /** Moves the current item past the items of LIST (lexed from it) that are finished; the rest. */
  private finish(list: Tokens.List, text: string): Tokens.List {
    let first = 0;
    let at = this.itemStart;
    while (first + 1 < list.items.length) {
      const next = at + list.items[first].raw.length;
      // The next item's first line is complete, or its text has started with a letter: it can
      // no longer turn into a rule or lazy text, and the item before it is over.
      WORD_ITEM.lastIndex = next;
      if (text.indexOf("\n", next) < 0 && !WORD_ITEM.test(text)) break;
      at = next;
      first++;
    }
    this.itemStart = at;
    return first === 0 ? list : { ...list, items: list.items.slice(first) };
  }
}

/**
 * A table whose header and delimiter lines are complete: a row is finished with its line, and the
 * current row is lexed behind the header lines alone (they give its cells and alignment).
 */
class TableRows implements Parts {
  private constructor(
    private readonly markdown: Markdown,
    private readonly links: Links,
    /** The header and delimiter lines. */
    private readonly header: string,
    /** The HTML up to the body: `<table>`, the header row. */
    private readonly head: string,
    private done: string,
    /** Where the current row starts in the open text. */
    private rowStart: number,
  ) {}

  /** The finished rows' HTML when the table was last shown, and what was finished since. */
  private shown = "";
  private fresh = "";
  /** Whether the table's HTML was last shown as its head, the finished rows, then the current one. */
  private kept = false;
  /** The table without rows: its header cells and their alignment. */
  private shape: Tokens.Table | undefined;
  /** The inline tokens and HTML of the current row's cells, by text. */
  private cells = new Map<string, { tokens: Token[]; html: string }>();

  static of(
    markdown: Markdown,
    links: Links,
    table: Tokens.Table,
    start: number,
    text: string,
    full: string,
  ): TableRows | undefined {
    const headerEnd = text.indexOf("\n", text.indexOf("\n", start) + 1) + 1;
    const head = full.indexOf("</thead>\n") + "</thead>\n".length;
    if (headerEnd <= 0 || head < "</thead>\n".length) return undefined;
    // Rows lex behind a header of one-letter cells (as many as the real one's) and the real
    // delimiter line: they take their cell count and alignment from those alone.
    const delimiter = text.slice(text.indexOf("\n", start) + 1, headerEnd);
    const rows = new TableRows(
      markdown,
      links,
      `|${"a|".repeat(table.header.length)}\n${delimiter}`,
      full.slice(0, head),
      "",
      headerEnd,
    );
    const grown = rows.render(text);
    if (grown === undefined || grown.head + grown.tail !== opening(full)) return undefined;
    return rows;
  }

  render(text: string): Grown | undefined {
    const rest = text.slice(this.rowStart);
    // A row typed on its own line (a pipe starts it, so it is no other block) is split and lexed
    // cell by cell here; rows that end a line go through the lexer with the table's first lines.
    const row =
      this.shape && rest.startsWith("|") && !rest.includes("\n") ? this.row(this.shape, rest) : undefined;
    const table = row?.table ?? this.lexed(rest);
    if (table === undefined) return undefined;
    // The rows are the lines of REST, in order: those whose line has ended are finished.
    let finished = 0;
    let end = 0;
    while (finished < table.rows.length) {
      const lineEnd = rest.indexOf("\n", end);
      if (lineEnd < 0) break;
      end = lineEnd + 1;
      finished++;
    }
    if (finished > 0) {
      const html = this.body({ ...table, rows: table.rows.slice(0, finished) });
      if (html === undefined) return undefined;
      this.done += html;
      this.fresh += html;
      this.rowStart += end;
    }
    const current = finished > 0 ? { ...table, rows: table.rows.slice(finished) } : table;
    const own = row ? row.html : this.body(current);
    if (own === undefined) return undefined;
    const grown =
      this.done + own === ""
        ? { head: "", tail: opening(this.head + "</table>\n"), kept: false, token: current, shaped: false }
        : shown(
            this.head + "<tbody>" + this.shown,
            this.fresh,
            own + "</tbody></table>\n",
            current,
            this.kept,
          );
    this.kept = grown.shaped;
    this.shown = this.done;
    this.fresh = "";
    return grown;
  }

  /** The table the lexer makes of REST behind the header lines, if it is one. */
  private lexed(rest: string): Tokens.Table | undefined {
    const tokens = this.markdown.lex(this.header + rest, this.links);
    if (!alone(tokens, "table")) return undefined;
    const table = tokens[0] as Tokens.Table;
    this.shape = { ...table, rows: [] };
    return table;
  }

  /**
   * SHAPE (a table's header and alignment) with ROW, one line, as its only row, and the row's HTML
   * (as marked's renderer writes a row and its cells).
   */
  private row(shape: Tokens.Table, row: string): { table: Tokens.Table; html: string } {
    // The cells before the one being typed come again and again: they are lexed and rendered once.
    const kept = new Map<string, { tokens: Token[]; html: string }>();
    let html = "<tr>\n";
    const cells = splitCells(row, shape.header.length).map((text, i) => {
      let cell = this.cells.get(text);
      if (!cell) {
        const tokens = this.markdown.inlineTokens(text, this.links);
        cell = { tokens, html: this.markdown.renderInline(tokens) };
      }
      kept.set(text, cell);
      const align = shape.align[i];
      html += `${align ? `<td align="${align}">` : "<td>"}${cell.html}</td>\n`;
      return { text, tokens: cell.tokens, header: false, align };
    });
    this.cells = kept;
    return { table: { ...shape, rows: [cells] }, html: html + "</tr>\n" };
  }

  /** The rows of TABLE as HTML, without the header and the body's tags. */
  private body(table: Tokens.Table): string | undefined {
    if (table.rows.length === 0) return "";
    const html = this.markdown.render(table);
    const start = html.indexOf("</thead>\n<tbody>");
    if (start < 0 || !html.endsWith("</tbody></table>\n")) return undefined;
    return html.slice(start + "</thead>\n<tbody>".length, html.length - "</tbody></table>\n".length);
  }
}

/**
 * The cells of a table ROW as marked splits them: at pipes not escaped by a backslash, without
 * the empty cells a leading and a trailing pipe make, cut or padded to COUNT, trimmed, and with
 * their escaped pipes unescaped.
 */
function splitCells(row: string, count: number): string[] {
  const cells = row
    .replace(/\|/g, (_pipe: string, at: number) => {
      let escaped = false;
      for (let i = at - 1; i >= 0 && row[i] === "\\"; i--) escaped = !escaped;
      return escaped ? "|" : " |";
    })
    .split(" |");
  if (!cells[0].trim()) cells.shift();
  if (cells.length > 0 && !cells[cells.length - 1].trim()) cells.pop();
  if (cells.length > count) cells.length = count;
  while (cells.length < count) cells.push("");
  return cells.map((cell) => cell.trim().replace(/\\\|/g, "|"));
}
