// Patches between two renders of an item, applying them to a replica, and merging patches that
// wait for the same send.
import type { Block, BlockChange, Patch } from "../protocol/blocks";
import { change } from "./changes";

/** The patch that turns PREVIOUS into NEXT (the blocks of the item KEY). */
export function patch(previous: readonly Block[], next: readonly Block[], key: string): Patch {
  const blocks: BlockChange[] = [];
  next.forEach((block, index) => {
    const before = previous[index];
    if (before === undefined) blocks.push({ index, html: block.html });
    else if (before.html !== block.html) blocks.push(change(index, before.html, block.html));
  });
  return { key, count: next.length, blocks };
}

/** BLOCKS with PATCH applied, as a replica (the panel) applies it. */
export function apply(blocks: readonly Block[], patch: Patch): Block[] {
  const result = blocks.slice(0, patch.count).map((b) => ({ ...b }));
  for (const { index, html, append } of patch.blocks) {
    if (index >= patch.count) continue;
    const key = `${patch.key}.${index}`;
    if (append) {
      const block = result[index];
      if (block === undefined) throw new Error(`append to missing block ${key}`);
      block.html += html;
    } else {
      result[index] = { key, html };
    }
  }
  if (result.length !== patch.count || Array.from(result, (b) => b === undefined).includes(true)) {
    throw new Error(`patch for ${patch.key} leaves a gap`);
  }
  return result;
}

/** One patch equivalent to FIRST then SECOND (both for the same item). */
export function merge(first: Patch, second: Patch): Patch {
  const changes = new Map<number, BlockChange>();
  for (const c of first.blocks) if (c.index < second.count) changes.set(c.index, c);
  for (const c of second.blocks) {
    const earlier = changes.get(c.index);
    changes.set(c.index, c.append && earlier ? { ...earlier, html: earlier.html + c.html } : c);
  }
  const blocks = [...changes.values()].sort((a, b) => a.index - b.index);
  return { key: second.key, count: second.count, blocks };
}

/** Sends patches; `push` merges those of one item until the interval has passed since its last send. */
export interface Coalescer {
  push(patch: Patch): void;
  /** Sends what waits now. */
  flush(): void;
  /** Sends what waits and stops the timers. */
  dispose(): void;
}

/**
 * A coalescer that sends at most one patch per item every INTERVAL ms (an animation frame): the
 * first patch after a quiet spell goes out at once, later ones wait and are merged into one.
 */
export function coalesce(send: (patch: Patch) => void, interval = 16): Coalescer {
  const waiting = new Map<string, Patch>();
  const timers = new Map<string, ReturnType<typeof setTimeout>>();
  const lastSent = new Map<string, number>();

  const sendNow = (key: string): void => {
    const timer = timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(key);
    const patch = waiting.get(key);
    waiting.delete(key);
    if (patch === undefined) return;
    lastSent.set(key, performance.now());
    send(patch);
  };

  return {
    push(patch) {
      const earlier = waiting.get(patch.key);
      waiting.set(patch.key, earlier ? merge(earlier, patch) : patch);
      if (timers.has(patch.key)) return;
      const wait = (lastSent.get(patch.key) ?? -Infinity) + interval - performance.now();
      if (wait <= 0) sendNow(patch.key);
      else
        timers.set(
          patch.key,
          setTimeout(() => sendNow(patch.key), wait),
        );
    },
    flush() {
      for (const key of [...waiting.keys()]) sendNow(key);
    },
    dispose() {
      this.flush();
      for (const timer of timers.values()) clearTimeout(timer);
      timers.clear();
    },
  };
}
