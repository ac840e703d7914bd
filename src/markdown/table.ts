// The open last block when it is a table: its finished rows keep the HTML they were given, and a
// delta re-renders only the row still being written (split into cells as marked splits it).
import type { Token, Tokens } from "marked";
import { opening } from "./html";
import type { Links, Markdown } from "./render";
import { alone, final, shown, type Grown, type Parts } from "./grown";

/**
 * A table whose header and delimiter lines are complete: a row is finished with its line, and the
 * current row is lexed behind the header lines alone (they give its cells and alignment).
 */
export class TableRows implements Parts {
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
    const split = this.shape && this.lines(this.shape, rest);
    if (split?.end !== undefined) {
      // A blank line and a block after it end the table: its HTML is final.
      const head = this.head + "<tbody>" + this.shown;
      const tail = this.fresh + split.finished + split.current.html + "</tbody></table>\n";
      return final(head, tail, this.kept, split.current.table, this.rowStart + split.end);
    }
    const row = split?.current;
    const table = row?.table ?? this.lexed(rest);
    if (table === undefined) return undefined;
    let finished = 0;
    if (split) {
      this.done += split.finished;
      this.fresh += split.finished;
      this.rowStart += split.at;
    } else {
      // The rows are the lines of REST, in order: those whose line has ended are finished.
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

  /**
   * REST as rows on their own lines (a pipe starts each, so it is no other block), each split and
   * lexed cell by cell here: the HTML of the rows whose line has ended and another came after,
   * the current row (which stays current after its line ends, until the next row comes: the
   * table's HTML then only grows) and where it starts; and where the open text goes on when a
   * blank line and a block after it end the table. Undefined when REST is anything else.
   */
  private lines(
    shape: Tokens.Table,
    rest: string,
  ):
    | { finished: string; current: { table: Tokens.Table; html: string }; at: number; end?: number }
    | undefined {
    const gap = /\n(?:[ \t]*\n)+(?=[^\s])/.exec(rest);
    // Blank lines with nothing after them yet may end the table or not: the last row stays current.
    const body = gap ? rest.slice(0, gap.index) : rest.replace(/\n[ \t\n]*$/, "");
    const rows = body.split("\n");
    if (!rows.every((row) => row.startsWith("|"))) return undefined;
    let finished = "";
    for (const row of rows.slice(0, -1)) finished += this.row(shape, row).html;
    const last = rows[rows.length - 1];
    const current = this.row(shape, last);
    return {
      finished,
      current,
      at: body.length - last.length,
      end: gap ? gap.index + gap[0].length : undefined,
    };
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
  let marked = "";
  let from = 0;
  for (let at = row.indexOf("|"); at >= 0; at = row.indexOf("|", at + 1)) {
    let escaped = false;
    for (let i = at - 1; i >= 0 && row.charCodeAt(i) === 92; i--) escaped = !escaped;
    if (escaped) continue;
    marked += row.slice(from, at) + " |";
    from = at + 1;
  }
  const cells = (marked + row.slice(from)).split(" |");
  if (!cells[0].trim()) cells.shift();
  if (cells.length > 0 && !cells[cells.length - 1].trim()) cells.pop();
  if (cells.length > count) cells.length = count;
  while (cells.length < count) cells.push("");
  return cells.map((cell) => (cell.includes("\\") ? cell.trim().replace(/\\\|/g, "|") : cell.trim()));
}
