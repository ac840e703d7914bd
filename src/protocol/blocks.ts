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
