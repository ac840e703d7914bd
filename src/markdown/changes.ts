// What changed in an item's blocks since the last patch, kept as it happens so that a patch costs
// work in proportion to the changed blocks, not to the whole answer.
import type { BlockChange, Patch } from "../protocol/blocks";
import { flat } from "./html";

/** The blocks touched or appended to since the last patch, and the HTML last sent for each. */
export class Changes {
  private sent: string[] = [];
  private readonly touched = new Set<number>();
  private readonly appended = new Map<number, string>();

  /** Block INDEX may have changed in any way: the next patch compares it with what was sent. */
  touch(index: number): void {
    this.touched.add(index);
    this.appended.delete(index);
  }

  /** HTML was added at the end of block INDEX. */
  append(index: number, html: string): void {
    if (this.touched.has(index)) return;
    this.appended.set(index, (this.appended.get(index) ?? "") + html);
  }

  /** Nothing was sent: the next patch gives every block. */
  forget(): void {
    for (let i = 0; i < this.sent.length; i++) this.touch(i);
    this.sent = [];
  }

  /** The patch for the item KEY whose blocks are now HTML; what it gives counts as sent. */
  take(key: string, html: readonly string[]): Patch {
    let blocks: BlockChange[] = [];
    if (this.touched.size + this.appended.size === 1) {
      // Most patches change one block: no list of indices to build and sort, no spare room.
      const [index] = this.touched.size === 1 ? this.touched : this.appended.keys();
      const one = this.changeOf(index, html);
      if (one) blocks = [one];
    } else if (this.touched.size + this.appended.size > 1) {
      const indices = [...this.touched, ...this.appended.keys()].sort((a, b) => a - b);
      for (const index of indices) {
        const one = this.changeOf(index, html);
        if (one) blocks.push(one);
      }
    }
    if (this.sent.length > html.length) this.sent.length = html.length;
    this.touched.clear();
    this.appended.clear();
    return { key, count: html.length, blocks };
  }

  /** What to send for block INDEX, now HTML[INDEX], if anything; it then counts as sent. */
  private changeOf(index: number, html: readonly string[]): BlockChange | undefined {
    if (index >= html.length) return undefined;
    const now = html[index];
    const tail = this.appended.get(index);
    const before = this.sent[index];
    this.sent[index] = now;
    if (tail !== undefined) return { index, html: tail, at: now.length - tail.length };
    if (before === undefined) return { index, html: now };
    return before !== flat(now) ? change(index, before, now) : undefined;
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
