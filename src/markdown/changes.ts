// What changed in an item's blocks since the last patch, kept as it happens so that a patch costs
// work in proportion to the changed blocks, not to the whole answer.
import type { BlockChange, Patch } from "../protocol/blocks";

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
    const blocks: BlockChange[] = [];
    const indices = [...this.touched, ...this.appended.keys()].sort((a, b) => a - b);
    for (const index of indices) {
      if (index >= html.length) continue;
      const now = html[index];
      const tail = this.appended.get(index);
      const before = this.sent[index];
      if (tail !== undefined) blocks.push({ index, html: tail, append: true });
      else if (before === undefined) blocks.push({ index, html: now });
      else if (before !== now) blocks.push(change(index, before, now));
      this.sent[index] = now;
    }
    this.sent.length = html.length;
    this.touched.clear();
    this.appended.clear();
    return { key, count: html.length, blocks };
  }
}

/** The change that turns BEFORE into NOW: only the added part when NOW extends BEFORE. */
export function change(index: number, before: string, now: string): BlockChange {
  return now.startsWith(before)
    ? { index, html: now.slice(before.length), append: true }
    : { index, html: now };
}
