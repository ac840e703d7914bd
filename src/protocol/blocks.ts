// The keyed HTML blocks of a Markdown item and the patch that brings a replica up to date.
// Both sides import these: the host (src/markdown) makes them, the panel applies them.

/** One rendered block of an item's Markdown: key `ITEM.N`, sanitized HTML. */
export interface Block {
  key: string;
  html: string;
}

/**
 * One changed block: its index in the item and its new HTML — whole, or, when `at` is set, what
 * follows the first `at` characters of the HTML it had (which stay). A block whose HTML grew at
 * the end gets `at` = its old length: only the added HTML travels.
 */
export interface BlockChange {
  index: number;
  html: string;
  at?: number;
}

/**
 * The blocks of one item that changed since the last send: a replica keeps `count` blocks and
 * replaces (or adds) each listed block, or the part of it from `at` on.
 */
export interface Patch {
  /** The item's key: blocks are keyed `${key}.${index}`. */
  key: string;
  /** How many blocks the item has now (blocks past it are removed). */
  count: number;
  blocks: BlockChange[];
}

/** A patch that does not fit the blocks it was applied to (a lost or reordered message). */
export class PatchError extends Error {
  override name = "PatchError";
}

/**
 * The HTML of an item's blocks after `patch`, and the indexes it changed. Both sides apply patches
 * with this one function; a patch that would leave a gap or change a block past its end throws a
 * PatchError (the panel then asks the host for a new snapshot).
 */
export function applyPatch(html: readonly string[], patch: Patch): { html: string[]; changed: number[] } {
  const result = html.slice(0, patch.count);
  const changed: number[] = [];
  for (const { index, html: added, at } of patch.blocks) {
    if (index >= patch.count) continue;
    if (at !== undefined) {
      const old = result[index];
      if (old === undefined || old.length < at)
        throw new PatchError(`change past the end of block ${patch.key}.${index}`);
      result[index] = old.slice(0, at) + added;
    } else {
      if (index > result.length) throw new PatchError(`patch for ${patch.key} leaves a gap`);
      result[index] = added;
    }
    changed.push(index);
  }
  if (result.length !== patch.count) throw new PatchError(`patch for ${patch.key} leaves a gap`);
  return { html: result, changed };
}
