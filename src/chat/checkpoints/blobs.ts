/**
 * The content-addressed blobs of the checkpoint store: each file's bytes kept once, named by the
 * SHA-256 of the content, under `blobs/ab/cdef…`. New blobs are written to temporary files first;
 * `commit` syncs them all at once (one fsync each, run together, as one per blob in turn costs
 * milliseconds each) and only then renames them into place, so a blob that is visible is whole.
 * Text is kept deflated when that saves a tenth or more.
 */
import { createHash } from "node:crypto";
import {
  closeSync,
  constants,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  readSync,
  renameSync,
  statSync,
  unlinkSync,
} from "node:fs";
import { open as openAsync } from "node:fs/promises";
import { join } from "node:path";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import { code, removeQuietly, temporary, writeAll } from "./whole-writes";

/** What putting bytes in the store did. */
export interface Put {
  hash: string;
  /** Bytes the store grew by (0 when the blob was already there). */
  added: number;
}

const RAW = 0;
const DEFLATED = 1;
// Above this a file is copied in chunks, never held whole in memory (and kept as it is).
const IN_MEMORY = 8 * 1024 * 1024;
const CHUNK = 1024 * 1024;
const HASH = /^[0-9a-f]{64}$/;

/** The SHA-256 of `data`, in hex. */
export function sha256(data: Uint8Array): string {
  return createHash("sha256").update(data).digest("hex");
}

/** A blob that is missing or whose bytes no longer match its name. */
export class BlobError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BlobError";
  }
}

/** The blobs folder of one checkpoint store. */
export class Blobs {
  private readonly sizes = new Map<string, number>();
  private readonly staged = new Map<string, { tmp: string; size: number }>();
  private bytes = 0;

  private constructor(
    private readonly folder: string,
    private readonly tmp: string,
    private readonly compress: boolean,
  ) {}

  /** Opens (or makes) the blobs under `folder`, counting what is there; `tmp` is a scratch folder on the same disk. */
  static open(folder: string, tmp: string, compress: boolean): Blobs {
    mkdirSync(folder, { recursive: true });
    const blobs = new Blobs(folder, tmp, compress);
    for (const prefix of readdirSync(folder)) {
      if (!/^[0-9a-f]{2}$/.test(prefix)) continue;
      for (const rest of readdirSync(join(folder, prefix))) {
        const hash = prefix + rest;
        const path = join(folder, prefix, rest);
        // A temporary file left by a crash is not a blob.
        if (!HASH.test(hash)) {
          removeQuietly(path);
          continue;
        }
        blobs.count(hash, statSync(path).size);
      }
    }
    return blobs;
  }

  /** Bytes all blobs take on disk. */
  get total(): number {
    return this.bytes;
  }

  /** True when the blob named `hash` is kept (or written and waiting for `commit`). */
  has(hash: string): boolean {
    return this.sizes.has(hash) || this.staged.has(hash);
  }

  /** Bytes the blob takes on disk (0 if absent). */
  sizeOf(hash: string): number {
    return this.sizes.get(hash) ?? 0;
  }

  /** Every kept blob's name. */
  names(): IterableIterator<string> {
    return this.sizes.keys();
  }

  /** Keeps `data` (once), returning its name. */
  put(data: Uint8Array): Put {
    const hash = sha256(data);
    if (this.has(hash)) return { hash, added: 0 };
    let body: Uint8Array = data;
    let kind = RAW;
    if (this.compress && data.length >= 64 && data.length <= IN_MEMORY) {
      const deflated = deflateRawSync(data);
      if (deflated.length < data.length * 0.9) {
        body = deflated;
        kind = DEFLATED;
      }
    }
    const tmp = temporary(this.tmp, "blob");
    const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    try {
      writeAll(fd, Uint8Array.of(kind));
      writeAll(fd, body);
    } finally {
      closeSync(fd);
    }
    return { hash, added: this.stage(tmp, hash, body.length + 1) };
  }

  /**
   * Keeps the content read from the open file `fd` (of `size` bytes): small files through `put`,
   * large ones copied in chunks while hashed. Throws if the file did not hold `size` bytes.
   */
  putFile(fd: number, size: number): Put {
    if (size <= IN_MEMORY) {
      const data = readFileSync(fd);
      if (data.length !== size) throw new BlobError("the file changed while it was read");
      return this.put(data);
    }
    const tmp = temporary(this.tmp, "blob");
    const out = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
    const hash = createHash("sha256");
    const chunk = Buffer.allocUnsafe(CHUNK);
    let read = 0;
    try {
      writeAll(out, Uint8Array.of(RAW));
      for (;;) {
        const n = readSync(fd, chunk, 0, CHUNK, null);
        if (n === 0) break;
        read += n;
        hash.update(chunk.subarray(0, n));
        writeAll(out, chunk.subarray(0, n));
      }
    } catch (e) {
      closeSync(out);
      removeQuietly(tmp);
      throw e;
    }
    closeSync(out);
    if (read !== size) {
      removeQuietly(tmp);
      throw new BlobError("the file changed while it was read");
    }
    const name = hash.digest("hex");
    if (this.has(name)) {
      removeQuietly(tmp);
      return { hash: name, added: 0 };
    }
    return { hash: name, added: this.stage(tmp, name, read + 1) };
  }

  /** The bytes of blob `hash`, checked against its name. */
  read(hash: string): Buffer {
    let stored: Buffer;
    try {
      stored = readFileSync(this.path(hash));
    } catch (e) {
      if (code(e) === "ENOENT") throw new BlobError(`The stored copy ${hash.slice(0, 12)} is missing.`);
      throw e;
    }
    const body = stored.subarray(1);
    const data = stored[0] === DEFLATED ? inflateRawSync(body) : body;
    if (sha256(data) !== hash) throw new BlobError(`The stored copy ${hash.slice(0, 12)} is damaged.`);
    return data;
  }

  /** Writes blob `hash` to the open file `fd`, in chunks for large raw blobs; checks it on the way. */
  copyTo(hash: string, fd: number): void {
    if (this.sizeOf(hash) <= IN_MEMORY + 1) {
      writeAll(fd, this.read(hash));
      return;
    }
    const from = openSync(this.path(hash), constants.O_RDONLY);
    const check = createHash("sha256");
    const chunk = Buffer.allocUnsafe(CHUNK);
    try {
      let first = true;
      for (;;) {
        const n = readSync(from, chunk, 0, CHUNK, null);
        if (n === 0) break;
        const part = first ? chunk.subarray(1, n) : chunk.subarray(0, n);
        first = false;
        check.update(part);
        writeAll(fd, part);
      }
    } finally {
      closeSync(from);
    }
    if (check.digest("hex") !== hash) throw new BlobError(`The stored copy ${hash.slice(0, 12)} is damaged.`);
  }

  /** Deletes blob `hash`. */
  remove(hash: string): void {
    if (!this.sizes.has(hash)) return;
    try {
      unlinkSync(this.path(hash));
    } catch (e) {
      if (code(e) !== "ENOENT") throw e;
    }
    this.bytes -= this.sizes.get(hash) ?? 0;
    this.sizes.delete(hash);
  }

  /** Syncs every blob written since the last commit, then renames them into place and syncs their folders. */
  async commit(): Promise<void> {
    const staged = [...this.staged];
    await together(
      staged.map(([, s]) => s.tmp),
      16,
    );
    const folders = new Set<string>();
    // A first checkpoint renames thousands of blobs: the event loop is given back every few ms.
    let slice = performance.now();
    for (const [hash, s] of staged) {
      if (performance.now() - slice > 8) {
        await new Promise<void>((resolve) => setImmediate(resolve));
        slice = performance.now();
      }
      const folder = join(this.folder, hash.slice(0, 2));
      if (!folders.has(folder)) mkdirSync(folder, { recursive: true });
      folders.add(folder);
      renameSync(s.tmp, this.path(hash));
      this.staged.delete(hash);
      this.count(hash, s.size);
    }
    await together([...folders], 16);
  }

  /** Forgets the blobs written since the last commit (a save that failed). */
  abandon(): void {
    for (const s of this.staged.values()) removeQuietly(s.tmp);
    this.staged.clear();
  }

  private path(hash: string): string {
    if (!HASH.test(hash)) throw new BlobError(`"${hash}" is not the name of a stored copy.`);
    return join(this.folder, hash.slice(0, 2), hash.slice(2));
  }

  private stage(tmp: string, hash: string, size: number): number {
    this.staged.set(hash, { tmp, size });
    return size;
  }

  private count(hash: string, size: number): void {
    this.sizes.set(hash, size);
    this.bytes += size;
  }
}

/** Fsyncs the files or folders at `paths`, `width` at a time (the file system commits them together). */
async function together(paths: string[], width: number): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < paths.length) {
      const fh = await openAsync(paths[next++], "r");
      try {
        await fh.sync();
      } catch {
        // Some file systems refuse fsync on a folder; the rename is still atomic there.
      } finally {
        await fh.close();
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, paths.length) }, worker));
}
