/**
 * Which stored copies the checkpoints still need, which copies can go, and which checkpoints go
 * first when the store passes its size limit (the oldest, counting each shared copy once).
 */
import type { ManifestCache } from "./manifest-cache";
import type { Checkpoint } from "./records";
import { reason } from "../../protocol/reason";

/** Every blob checkpoint `r` needs: its manifest, the whole one it is told against, its files. */
export function needs(manifests: ManifestCache, r: Checkpoint): string[] {
  const out = manifests.parts(r.manifest);
  for (const e of manifests.get(r.manifest).values()) if (e.t === "f") out.push(e.h);
  return out;
}

/**
 * The checkpoints to drop so that what the rest need fits `max` bytes: counting from the newest,
 * every one past the limit (none of those in `keep`).
 */
export function overLimit(
  oldestFirst: Checkpoint[],
  manifests: ManifestCache,
  sizeOf: (hash: string) => number,
  max: number,
  keep: Set<string>,
): string[] {
  const counted = new Set<string>();
  let bytes = 0;
  const drop: string[] = [];
  for (const r of [...oldestFirst].reverse()) {
    for (const h of needs(manifests, r)) {
      if (counted.has(h)) continue;
      counted.add(h);
      bytes += sizeOf(h);
    }
    if (bytes > max && !keep.has(r.id)) drop.push(r.id);
  }
  return drop;
}

/** What collecting found: the blobs nothing needs, and the checkpoints that could not be read. */
export interface Unneeded {
  gone: Set<string>;
  unreadable: { record: Checkpoint; error: string }[];
}

/** The blobs among `names` that no readable checkpoint of `records` needs. */
export function unneeded(records: Checkpoint[], manifests: ManifestCache, names: Iterable<string>): Unneeded {
  const live = new Set<string>();
  const unreadable: Unneeded["unreadable"] = [];
  for (const record of records) {
    try {
      for (const h of needs(manifests, record)) live.add(h);
    } catch (e) {
      unreadable.push({ record, error: reason(e) });
    }
  }
  const gone = new Set<string>();
  for (const h of names) if (!live.has(h)) gone.add(h);
  return { gone, unreadable };
}
