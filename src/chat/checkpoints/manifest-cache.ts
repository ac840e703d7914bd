/**
 * Reading stored manifests back, whole: a delta is applied to the whole manifest it is told
 * against. The newest whole manifest (the base of the next checkpoint) stays in memory, and one
 * more at most, so reading a checkpoint costs one small delta, not a 20,000-line list.
 */
import type { Blobs } from "./blobs";
import { apply, decode, type Manifest } from "./manifest";

/** The whole manifests of one store, read through its blobs. */
export class ManifestCache {
  private readonly wholes = new Map<string, Manifest>();
  /** The whole manifest the next checkpoint is told against. */
  base: { hash: string; manifest: Manifest } | null = null;

  constructor(private readonly blobs: Blobs) {}

  /** The whole manifest stored as blob `hash` (whole or a delta against a whole one). */
  get(hash: string): Manifest {
    const cached = this.wholes.get(hash);
    if (cached) return cached;
    const d = decode(this.blobs.read(hash));
    if (d.base === null) return this.keep(hash, d.set);
    return apply(this.get(d.base), d);
  }

  /** The blobs manifest `hash` consists of: itself and the whole one it is told against. */
  parts(hash: string): string[] {
    if (this.wholes.has(hash)) return [hash];
    const d = decode(this.blobs.read(hash));
    return d.base ? [hash, d.base] : [hash];
  }

  /** Makes `hash` the base of the next checkpoint. */
  setBase(hash: string, manifest: Manifest): void {
    this.base = { hash, manifest };
    this.keep(hash, manifest);
  }

  /** Forgets a manifest whose blob is gone. */
  forget(hash: string): void {
    this.wholes.delete(hash);
    if (this.base?.hash === hash) this.base = null;
  }

  private keep(hash: string, manifest: Manifest): Manifest {
    // The base and the last one read; older whole manifests are read again when needed.
    for (const k of this.wholes.keys()) if (k !== this.base?.hash) this.wholes.delete(k);
    this.wholes.set(hash, manifest);
    return manifest;
  }
}
