/** A probe report's Markdown as a person reads it once rendered, for the probe's tests. */
import assert from "node:assert/strict";
import { marked, type Tokens } from "marked";

/** The table of a Markdown report: each row's cells as a person reads them once rendered. */
export function table(md: string): string[][] {
  const found = marked.lexer(md).find((t): t is Tokens.Table => t.type === "table");
  assert.ok(found, "the report has a table");
  return found.rows.map((row) => row.map((cell) => shown(marked.parseInline(cell.text) as string)));
}

/** Rendered HTML as the text a person sees. */
function shown(html: string): string {
  const entities: Record<string, string> = { lt: "<", gt: ">", amp: "&", quot: '"', "#39": "'" };
  return html.replace(/<[^>]*>/g, "").replace(/&(lt|gt|amp|quot|#39);/g, (_, e: string) => entities[e]);
}
