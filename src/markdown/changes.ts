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
    if (tail !== undefined) return { index, html: tail, append: true };
    if (before === undefined) return { index, html: now };
    return before !== flat(now) ? change(index, before, now) : undefined;
  }
}

/** The change that turns BEFORE into NOW: only the added part when NOW extends BEFORE. */
export function change(index: number, before: string, now: string): BlockChange {
  return flat(now).startsWith(flat(before))
    ? { index, html: now.slice(before.length), append: true }
    : { index, html: now };
}
