// The whole-text render: every block closed, as a finished answer is shown.
import type { Block } from "../protocol/blocks";
import { markdownFor, normalize, type RenderOptions } from "./render";

/**
 * Markdown TEXT as sanitized HTML blocks keyed `KEY.0`, `KEY.1`, … — one per top-level block
 * that shows something (a reference definition or a blank line makes none).
 */
export function keyed(text: string, key: string, options?: RenderOptions): Block[] {
  const markdown = markdownFor(options);
  const blocks: Block[] = [];
  for (const token of markdown.lex(normalize(text))) {
    const html = markdown.render(token);
    if (html !== "") blocks.push({ key: `${key}.${blocks.length}`, html });
  }
  return blocks;
}

/** Markdown TEXT as one sanitized HTML string (the blocks of `keyed`, joined). */
export function html(text: string, options?: RenderOptions): string {
  return keyed(text, "", options)
    .map((b) => b.html)
    .join("");
}
