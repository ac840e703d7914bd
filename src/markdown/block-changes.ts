// What changed in an item's blocks since the last patch, kept as it happens so that a patch costs
// work in proportion to what changed, not to the blocks' size: a block known to keep its start is
// neither compared nor copied whole; only its new end is compared with the end last sent.
import type { BlockChange, Patch } from "../protocol/blocks";
import { flat } from "./html";

/** A block's change since the last patch: unknown (compared when taken), or its new end (sent as it is). */
type Pending = typeof UNKNOWN | Known;
/** A known change: the block keeps its first `at` characters, then has `html`. */
type Known = Required<BlockChange>;
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
    else this.set(index, { index, html, at: this.sent[index].length });
  }

  /** Block INDEX keeps its first AT characters (as they stand now) and then has HTML. */
  replaceFrom(index: number, at: number, html: string): void {
    const known = this.pending[index];
    if (known === UNKNOWN) return;
    if (known && at >= known.at) known.html = known.html.slice(0, at - known.at) + html;
    else if (this.sent[index] === undefined) this.touch(index);
    else this.set(index, { index, html, at });
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
    const changed = this.changed;
    let blocks: BlockChange[];
    // Most patches change one block: taken without a loop or a sort, in an array of its size (a
    // grown one reserves room for sixteen).
    if (changed.length === 1) {
      const one = this.takeOne(changed.pop() as number, html);
      blocks = one ? [one] : [];
    } else {
      blocks = [];
      for (const index of changed) {
        const one = this.takeOne(index, html);
        if (one) blocks.push(one);
      }
      if (blocks.length > 1) blocks.sort((a, b) => a.index - b.index);
      changed.length = 0;
    }
    if (this.sent.length > html.length) this.sent.length = this.ends.length = html.length;
    return { key, count: html.length, blocks };
  }

  /** The change of block INDEX, now HTML[INDEX], if it changed; it counts as sent. */
  private takeOne(index: number, html: readonly string[]): BlockChange | undefined {
    const known = this.pending[index] as Pending;
    this.pending[index] = undefined;
    if (index >= html.length) return undefined;
    const one = known === UNKNOWN ? this.compared(index, html[index]) : this.trimmed(known);
    this.sent[index] = html[index];
    return one;
  }

  /** The change of block INDEX, now NOW, found by comparing it with what was sent. */
  private compared(index: number, now: string): BlockChange | undefined {
    const before = this.sent[index];
    this.ends[index] = now.length <= KEPT_END ? { at: 0, html: now } : undefined;
    if (before === undefined) return { index, html: now };
    return before !== flat(now) ? change(index, before, now) : undefined;
  }

  /** CHANGE without the start it shares with its block's end as last sent. */
  private trimmed(change: Known): BlockChange | undefined {
    const index = change.index;
    const end = this.ends[index];
    const { at, html } = change;
    if (end && at === end.at + end.html.length) {
      // Added at the end: nothing to compare (reading the kept end would copy it).
      if (end.html.length + html.length > KEPT_END) this.ends[index] = { at, html };
      else end.html += html;
      return change;
    }
    if (end && at >= end.at) {
      const old = end.html.slice(at - end.at);
      const same = shared(old, html);
      if (same === html.length && same === old.length) return undefined;
      change.at = at + same;
      change.html = html.slice(same);
      end.html = end.html.slice(0, change.at - end.at) + change.html;
      if (end.html.length > KEPT_END) this.ends[index] = { at: change.at, html: change.html };
      return change;
    }
    this.ends[index] = { at, html };
    return change;
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
