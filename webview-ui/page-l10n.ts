/**
 * Sets the panel's translations from the bundle the host wrote into the page (`data-l10n` on the body:
 * no inline script under the CSP). main.ts imports this first, so it runs before any text is made.
 */
import { setBundle, type Bundle } from "../src/protocol/l10n";

/** The page's bundle, keeping only text values; a missing or broken one leaves the panel in English. */
function pageBundle(): Bundle {
  const bundle: Bundle = {};
  try {
    const parsed: unknown = JSON.parse(document.body.dataset.l10n ?? "{}");
    if (parsed && typeof parsed === "object") {
      for (const [key, value] of Object.entries(parsed)) if (typeof value === "string") bundle[key] = value;
    }
  } catch {
    // English it is: a page without a bundle is still a working panel.
  }
  return bundle;
}

setBundle(pageBundle());

/**
 * A translated sentence whose `{0}`, `{1}`… stand for `nodes` (a link, a button, emphasis), as its
 * text and those nodes in the translation's order. A node the translation lacks is added at the end.
 */
export function around(sentence: string, ...nodes: Node[]): (string | Node)[] {
  const parts: (string | Node)[] = [];
  const placed = new Set<number>();
  for (const [index, piece] of sentence.split(/\{(\d+)\}/).entries()) {
    // split() with a group puts the text at even places and the placeholder's number at odd ones.
    const node = index % 2 === 1 ? nodes[Number(piece)] : undefined;
    if (node && !placed.has(Number(piece))) {
      parts.push(node);
      placed.add(Number(piece));
    } else if (index % 2 === 0 && piece !== "") parts.push(piece);
    else if (index % 2 === 1) parts.push(`{${piece}}`);
  }
  nodes.forEach((node, i) => placed.has(i) || parts.push(node));
  return parts;
}
