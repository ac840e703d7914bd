/**
 * What the person wrote themselves in a message, without what it quotes. A message made by a
 * command carries text from the repository — the lines around a problem, a selection, a linter's
 * message — in a fenced code block or a `>` quote; an address written there is the repository's,
 * so it must not count as the person naming a host to fetch from.
 */

/** A line that opens or closes a fenced code block: its fence (``` or ~~~, three or more). */
const FENCE = /^ {0,3}(`{3,}|~{3,})/;

/**
 * `text` without its fenced code blocks (an unclosed one runs to the end, as Markdown reads it)
 * and without its `>` quoted lines.
 */
export function ownText(text: string): string {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of text.split(/\r?\n/)) {
    const fence = FENCE.exec(line)?.[1];
    if (open) {
      // Closed only by a bare fence of the same character, at least as long.
      if (fence && fence[0] === open[0] && fence.length >= open.length && /^ {0,3}[`~]+\s*$/.test(line))
        open = undefined;
      continue;
    }
    if (fence) open = fence;
    else if (!/^ {0,3}>/.test(line)) out.push(line);
  }
  return out.join("\n");
}
