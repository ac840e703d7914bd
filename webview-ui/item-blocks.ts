/**
 * An item's HTML blocks in the panel: the host's HTML kept by index, and the view that shows them.
 * A patch touches only the blocks it lists; the rest of the transcript is never rendered again.
 */
import { applyPatch, type Block, type Patch } from "../src/protocol/blocks";
import { h } from "./dom";
import { restoreImages } from "./images";
import { purified } from "./sanitize";

/** The host's HTML of one item's blocks, as patches left it. */
export class BlockText {
  html: string[] = [];

  constructor(blocks: readonly Block[] = []) {
    this.html = blocks.map((block) => block.html);
  }

  /**
   * Applies a patch; answers the indexes whose HTML changed. A patch that does not fit (a gap, a
   * change past a block's end) leaves the blocks as they were and throws a PatchError: the panel
   * then asks the host for a new snapshot.
   */
  apply(patch: Patch): number[] {
    const { html, changed } = applyPatch(this.html, patch);
    this.html = html;
    return changed;
  }
}

/** The DOM of one item's blocks: one element per block, each purified before it enters the page. */
export class BlockView {
  readonly element: HTMLElement;

  constructor(
    private readonly key: string,
    text: BlockText,
  ) {
    this.element = h("div", { class: "markdown" });
    for (let index = 0; index < text.html.length; index++)
      this.element.appendChild(this.block(index, text.html[index]));
  }

  /** Shows the blocks `changed` as `text` has them now, and drops those past its end. */
  update(text: BlockText, changed: number[]): void {
    const children = this.element.children;
    for (const index of [...changed].sort((a, b) => a - b)) {
      if (index >= text.html.length) continue;
      const block = this.block(index, text.html[index]);
      const old = children[index];
      if (old) old.replaceWith(block);
      else this.element.appendChild(block);
    }
    while (children.length > text.html.length) children[children.length - 1].remove();
  }

  private block(index: number, html: string): HTMLElement {
    const element = h("div", { class: "block", "data-block": `${this.key}.${index}` });
    element.appendChild(purified(html));
    // An image the person already loaded shows again when its block is rendered anew.
    restoreImages(element);
    return element;
  }
}
