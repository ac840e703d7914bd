// The open blocks of a growing text rendered in their open form, with the whole HTML of each kept
// by its source, so that a block that did not change (a code block's colours above all) is not
// rendered again by the next render or when it closes.
import type { Token } from "marked";
import { openCodeBlock } from "./code";
import { escape, opening } from "./html";
import { openFence, type OpenFence } from "./open";
import { sourceOf, type Markdown } from "./render";

/** The open blocks' HTML after a render. */
export interface OpenBlocks {
  /** Each block's open HTML (whole when the text is final); a code block still open as streamed text. */
  html: string[];
  /** The last token made the last block: the end of the text is in it. */
  tail: boolean;
  /** That block holds a code block whose colours words added to it could change. */
  tailHasCode: boolean;
  /** The last block is a fenced code block whose first line is complete and whose fence is open. */
  fence: OpenFence | undefined;
}

/** The whole HTML of the blocks last rendered, by source. */
export class Renders {
  private last = new Map<string, string>();

  constructor(private readonly markdown: Markdown) {}

  /** TOKEN's whole HTML: the one rendered last when its source has not changed, if it was. */
  known(token: Token): string | undefined {
    return this.last.get(sourceOf(token));
  }

  /** TOKEN's whole HTML, kept or rendered now. */
  whole(token: Token): string {
    return this.known(token) ?? this.markdown.render(token);
  }

  /** Forgets them all (a definition came: a block's HTML may now differ from what was kept). */
  clear(): void {
    this.last.clear();
  }

  /** TOKENS, the open TAIL of the text, as open blocks (whole ones when FINAL); keeps theirs only. */
  open(tokens: Token[], tail: string, final: boolean): OpenBlocks {
    const previous = this.last;
    this.last = new Map();
    const open: OpenBlocks = { html: [], tail: false, tailHasCode: false, fence: undefined };
    let offset = 0;
    tokens.forEach((token, i) => {
      const start = offset;
      offset += token.raw.length;
      const last = i === tokens.length - 1;
      const fence = last && !final ? openFence(token) : undefined;
      let html: string;
      if (fence) {
        const contentStart = tail.indexOf("\n", start) + 1;
        html = openCodeBlock(fence.info) + (contentStart > 0 ? escape(tail.slice(contentStart)) : "");
        if (contentStart > 0) open.fence = { ...fence, line: tail.slice(tail.lastIndexOf("\n") + 1) };
      } else {
        const full = previous.get(sourceOf(token)) ?? this.markdown.render(token);
        if (full === "") return;
        this.last.set(sourceOf(token), full);
        html = final ? full : opening(full);
      }
      open.html.push(html);
      if (last) {
        open.tail = true;
        open.tailHasCode = !fence && html.includes("<pre");
      }
    });
    return open;
  }
}
