// What changed in an item's blocks since the last patch, kept as it happens so that a patch costs
// work in proportion to what changed, not to the blocks' size: a block known to keep its start is
// neither compared nor copied whole; only its new end is compared with the end last sent.
import type { BlockChange, Patch } from "../protocol/blocks";
import { flat } from "./html";

/** A block's change since the last patch: unknown (compared when taken), or its new end. */
type Pending = typeof UNKNOWN | { at: number; html: string };
const UNKNOWN = "unknown";
/** The longest end of a sent block kept apart to compare the next change with. */
const KEPT_END = 1024;

/** The end of a block's HTML as last sent: `html` from offset `at` on. */
interface End {
  at: number;
  html: string;
}

/** The blocks changed since the last patch, and the HTML last sent for each. */
export class Changes {
  private sent: string[] = [];
  private ends: (End | undefined)[] = [];
  /** The changed blocks' indexes, and each one's change (plain arrays: a patch allocates little). */
  private readonly changed: number[] = [];
  private readonly pending: (Pending | undefined)[] = [];

  /** Block INDEX may have changed in any way: the next patch compares it with what was sent. */
  touch(index: number): void {
    this.set(index, UNKNOWN);
  }

  /** HTML was added at the end of block INDEX. */
  append(index: number, html: string): void {
    const known = this.pending[index];
    if (known === UNKNOWN) return;
    if (known) known.html += html;
    else if (this.sent[index] === undefined) this.touch(index);
    else this.set(index, { at: this.sent[index].length, html });
  }

  /** Block INDEX keeps its first AT characters (as they stand now) and then has HTML. */
  replaceFrom(index: number, at: number, html: string): void {
    const known = this.pending[index];
    if (known === UNKNOWN) return;
    if (known && at >= known.at) known.html = known.html.slice(0, at - known.at) + html;
    else if (this.sent[index] === undefined) this.touch(index);
    else this.set(index, { at, html });
  }

  private set(index: number, change: Pending): void {
    if (this.pending[index] === undefined) this.changed.push(index);
    this.pending[index] = change;
  }

  /** Nothing was sent: the next patch gives every block. */
  forget(): void {
    for (let i = 0; i < this.sent.length; i++) this.touch(i);
    this.sent = [];
    this.ends = [];
  }

  /** The patch for the item KEY whose blocks are now HTML; what it gives counts as sent. */
  take(key: string, html: readonly string[]): Patch {
    const blocks: BlockChange[] = [];
    for (const index of this.changed) {
      const known = this.pending[index] as Pending;
      this.pending[index] = undefined;
      if (index >= html.length) continue;
      const one = known === UNKNOWN ? this.compared(index, html[index]) : this.trimmed(index, known);
      this.sent[index] = html[index];
      if (one) blocks.push(one);
    }
    if (blocks.length > 1) blocks.sort((a, b) => a.index - b.index);
    if (this.sent.length > html.length) this.sent.length = this.ends.length = html.length;
    this.changed.length = 0;
    return { key, count: html.length, blocks };
  }

  /** The change of block INDEX, now NOW, found by comparing it with what was sent. */
  private compared(index: number, now: string): BlockChange | undefined {
    const before = this.sent[index];
    this.ends[index] = now.length <= KEPT_END ? { at: 0, html: now } : undefined;
    if (before === undefined) return { index, html: now };
    return before !== flat(now) ? change(index, before, now) : undefined;
  }

  /** CHANGE of block INDEX without the start it shares with the block's end as last sent. */
  private trimmed(index: number, change: End): BlockChange | undefined {
    const end = this.ends[index];
    let { at, html } = change;
    if (end && at === end.at + end.html.length) {
      // Added at the end: nothing to compare (reading the kept end would copy it).
      end.html += html;
      if (end.html.length > KEPT_END) this.ends[index] = { at, html };
    } else if (end && at >= end.at) {
      const old = end.html.slice(at - end.at);
      const same = shared(old, html);
      if (same === html.length && same === old.length) return undefined;
      at += same;
      html = html.slice(same);
      end.html = end.html.slice(0, at - end.at) + html;
      if (end.html.length > KEPT_END) this.ends[index] = { at, html };
    } else {
      this.ends[index] = { at, html };
    }
    return { index, html, at };
  }
}

/**
 * The change that turns BEFORE into NOW: what follows the part they share at their start, or NOW
 * whole when they share only a few characters (a tag's `<`) and NOW does not just extend BEFORE.
 */
export function change(index: number, before: string, now: string): BlockChange {
  const at = shared(flat(before), flat(now));
  return at === 0 || (at < 16 && at < before.length)
    ? { index, html: now }
    : { index, html: now.slice(at), at };
}

/** How many characters A and B share at their start. */
function shared(a: string, b: string): number {
  if (b.startsWith(a)) return a.length;
  const end = Math.min(a.length, b.length);
  let at = 0;
  // Native comparisons a chunk at a time, then character by character within the chunk.
  for (let size = 256; size >= 1; size >>= 2)
    while (at + size <= end && b.startsWith(a.slice(at, at + size), at)) at += size;
  return at;
}
