// Patches between two renders of an item, applying them to a replica, and merging patches that
// wait for the same send.
import { applyPatch, type Block, type BlockChange, type Patch } from "../protocol/blocks";
import { change } from "./block-changes";

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

/** BLOCKS with PATCH applied, as the panel applies it (`applyPatch`, which throws on a patch that does not fit). */
export function apply(blocks: readonly Block[], patch: Patch): Block[] {
  const { html } = applyPatch(
    blocks.map((b) => b.html),
    patch,
  );
  return html.map((h, index) => ({ key: `${patch.key}.${index}`, html: h }));
}

/** One patch equivalent to FIRST then SECOND (both for the same item). */
export function merge(first: Patch, second: Patch): Patch {
  const changes = new Map<number, BlockChange>();
  for (const c of first.blocks) if (c.index < second.count) changes.set(c.index, c);
  for (const c of second.blocks) changes.set(c.index, combine(changes.get(c.index), c));
  const blocks = [...changes.values()].sort((a, b) => a.index - b.index);
  return { key: second.key, count: second.count, blocks };
}

/** One change of a block equivalent to FIRST then SECOND. */
function combine(first: BlockChange | undefined, second: BlockChange): BlockChange {
  if (first === undefined || second.at === undefined) return second;
  const from = first.at ?? 0;
  // SECOND keeps what FIRST left up to `second.at`: FIRST's start of the block, then its HTML.
  if (second.at < from) return second;
  const html = first.html.slice(0, second.at - from) + second.html;
  return first.at === undefined ? { index: second.index, html } : { index: second.index, html, at: from };
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
  /** How many blocks each item had in the last patch sent. */
  const lastCount = new Map<string, number>();

  const sendNow = (key: string): void => {
    const timer = timers.get(key);
    if (timer !== undefined) clearTimeout(timer);
    timers.delete(key);
    const patch = waiting.get(key);
    waiting.delete(key);
    if (patch === undefined) return;
    lastSent.set(key, performance.now());
    lastCount.set(key, patch.count);
    send(patch);
  };

  return {
    push(patch) {
      const earlier = waiting.get(patch.key);
      // A patch that changes nothing (a stream holding back half-typed Markdown) is not sent.
      if (!earlier && patch.blocks.length === 0 && lastCount.get(patch.key) === patch.count) return;
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
