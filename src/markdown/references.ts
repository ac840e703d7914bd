// Closed blocks that name a reference label: a definition that comes later in the answer makes
// their label a link, so they are rendered again when it comes.
import type { Links, Markdown } from "./render";

/** The source of each closed block that may name a reference label, by block index. */
export class References {
  private readonly sources = new Map<number, string>();

  /** Block INDEX was closed with SOURCE. */
  closed(index: number, source: string): void {
    if (source.includes("[")) this.sources.set(index, source);
  }

  clear(): void {
    this.sources.clear();
  }

  /**
   * Renders again, in HTML (the blocks' HTML by index), the blocks before BEFORE that name one of
   * TAGS, labels defined just now, with LINKS; answers the indexes whose HTML changed.
   */
  rerender(tags: string[], before: number, markdown: Markdown, links: Links, html: string[]): number[] {
    const changed: number[] = [];
    if (tags.length === 0) return changed;
    for (const [index, source] of this.sources) {
      if (index >= before) continue;
      const labels = source.toLowerCase().replace(/\s+/g, " ");
      if (!tags.some((tag) => labels.includes(`[${tag}]`))) continue;
      const now = markdown
        .lex(source, links)
        .map((t) => markdown.render(t))
        .join("");
      if (now === html[index]) continue;
      html[index] = now;
      changed.push(index);
    }
    return changed;
  }
}
