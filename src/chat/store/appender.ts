/**
 * The one writer's appends to a journal: batched, in order, fsynced on demand, and compacted
 * atomically without losing a line appended meanwhile.
 */
import { open, unlink, type FileHandle } from "node:fs/promises";
import { writeAtomic } from "./file";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/**
 * The one writer's appends to a journal. Lines are written in the order given, batched, one
 * write at a time; `flush` resolves once every line given before it is on disk (fsync).
 * `compact` swaps the journal for a snapshot without losing a line appended meanwhile. The file
 * is opened at the first write and may be closed and written again (a conversation closed and
 * opened again); every step runs in order on one chain.
 */
export class Appender {
  private fh: FileHandle | null = null;
  private queue: string[] = [];
  private chain: Promise<void> = Promise.resolve();
  private writeScheduled = false;
  private given = 0;
  private synced = 0;
  /** Bytes of the journal on disk and queued. */
  bytes: number;

  constructor(
    readonly path: string,
    size: number,
    private readonly onError: (text: string) => void,
  ) {
    this.bytes = size;
  }

  /** Opens the journal for appending. */
  async open(): Promise<void> {
    await this.step(async () => void (await this.handle()));
  }

  private async handle(): Promise<FileHandle> {
    if (!this.fh) this.fh = await open(this.path, "a");
    return this.fh;
  }

  /** Runs `work` after every step before it and before every step after it (a repair before the first append). */
  step(work: () => Promise<void>): Promise<void> {
    const step = this.chain.then(work);
    this.chain = step.catch(() => undefined);
    return step;
  }

  /** True when every line given is written (none queued, no write to come). */
  get idle(): boolean {
    return this.queue.length === 0 && !this.writeScheduled;
  }

  /** Queues `line` (ending in a newline) to be written soon. */
  append(line: string): void {
    this.queue.push(line);
    this.given++;
    this.bytes += Buffer.byteLength(line);
    if (this.writeScheduled) return;
    this.writeScheduled = true;
    this.chain = this.chain
      .then(() => {
        this.writeScheduled = false;
        return this.write();
      })
      .catch((e) => this.onError(t("Tandem could not save a change to its conversations: {0}", reason(e))));
  }

  private async write(): Promise<void> {
    if (!this.queue.length) return;
    const lines = this.queue;
    this.queue = [];
    try {
      await (await this.handle()).write(lines.join(""));
    } catch (e) {
      // The lines stay queued for the next write; a partial write is cut off at the next load.
      this.queue = lines.concat(this.queue);
      throw e;
    }
  }

  /** Resolves once every line appended so far is written and synced to disk. */
  flush(): Promise<void> {
    const target = this.given;
    const step = this.chain.then(async () => {
      if (this.synced >= target) return;
      await this.write();
      const seen = this.given - this.queue.length;
      await this.fh?.datasync();
      this.synced = Math.max(this.synced, seen);
    });
    this.chain = step.catch(() => undefined);
    return step;
  }

  /**
   * Replaces the journal by `snapshot()` (called once the writes before it are done; the lines
   * queued then are in it). Lines appended while the snapshot is written go to the new journal.
   */
  compact(snapshot: () => string): Promise<void> {
    const step = this.chain.then(async () => {
      const text = snapshot();
      const taken = this.queue;
      const covered = this.given;
      this.queue = [];
      try {
        await writeAtomic(this.path, text);
      } catch (e) {
        this.queue = taken.concat(this.queue);
        throw e;
      }
      const old = this.fh;
      this.fh = await open(this.path, "a");
      await old?.close();
      this.synced = Math.max(this.synced, covered);
      this.bytes = Buffer.byteLength(text) + this.queue.reduce((n, l) => n + Buffer.byteLength(l), 0);
      if (this.queue.length) await this.write();
    });
    this.chain = step.catch((e) =>
      this.onError(t("Tandem could not compact its conversation journal: {0}", reason(e))),
    );
    return step;
  }

  /** Drops what is queued, closes the journal and removes its file (a conversation deleted). */
  remove(): Promise<void> {
    this.queue = [];
    this.synced = this.given;
    return this.step(async () => {
      await this.fh?.close();
      this.fh = null;
      this.bytes = 0;
      await unlink(this.path).catch((e: NodeJS.ErrnoException) => {
        if (e.code !== "ENOENT") throw e;
      });
    });
  }

  /** Writes and syncs what is queued, then closes the journal (a later append opens it again). */
  async close(): Promise<void> {
    await this.flush();
    await this.step(async () => {
      if (this.queue.length) return;
      await this.fh?.close();
      this.fh = null;
    });
  }
}
