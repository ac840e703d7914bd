/**
 * The journal's upkeep while this store writes: an fsync of what was appended within a moment, a
 * compaction once the journal has grown past twice the live rows, and each failure of either said
 * to the person (a failing sync once, until one succeeds).
 */
import type { Appender } from "./appender";
import { reason } from "../../protocol/reason";

/** When the upkeep acts: how soon appended lines are fsynced, and the least size worth compacting. */
export interface UpkeepOptions {
  syncMs: number;
  compactMinBytes: number;
}

/** Syncs and compacts the writer's journal (see the top of this file). */
export class Upkeep {
  private syncTimer: ReturnType<typeof setTimeout> | null = null;
  /** Whether the last periodic sync failed (said once until one succeeds). */
  private syncFailing = false;
  private compaction: Promise<void> | null = null;

  constructor(
    private readonly options: UpkeepOptions,
    /** The writer's appender now (none once the store closed). */
    private readonly appender: () => Appender | null,
    /** Says a problem to the person. */
    private readonly report: (text: string) => void,
    /** The journal's size when it was last read or rewritten: compaction waits for growth past it. */
    public baseline: number,
  ) {}

  /** After a line went to `appender`: an fsync soon, and `compact` when the journal outgrew the `live` rows' bytes. */
  appended(appender: Appender, live: number, compact: () => Promise<void>): void {
    if (!this.syncTimer) {
      this.syncTimer = setTimeout(() => {
        this.syncTimer = null;
        this.appender()
          ?.flush()
          .then(
            () => (this.syncFailing = false),
            (error: unknown) => this.syncFailed(error),
          );
      }, this.options.syncMs);
      this.syncTimer.unref();
    }
    const { compactMinBytes } = this.options;
    const grown = Math.max(live, this.baseline);
    if (!this.compaction && appender.bytes > compactMinBytes && appender.bytes > 2 * grown) {
      compact().catch((error: unknown) =>
        this.report(
          `Tandem could not compact its conversations' journal (${reason(error)}); it keeps appending to it.`,
        ),
      );
    }
  }

  /** Rewrites the journal as `snapshot` gives it, atomically, one compaction at a time. */
  async compact(appender: Appender, snapshot: () => string): Promise<void> {
    // A second asked meanwhile runs after the first, on the rows as they are then.
    while (this.compaction) await this.compaction;
    this.compaction = appender.compact(snapshot);
    try {
      await this.compaction;
      this.baseline = appender.bytes;
    } finally {
      this.compaction = null;
    }
  }

  /** Cancels the sync to come: the closing store flushes and closes its journal itself. */
  stop(): void {
    if (this.syncTimer) clearTimeout(this.syncTimer);
  }

  /** Says a failed periodic sync once (until one succeeds): the changes may not survive a crash. */
  private syncFailed(error: unknown): void {
    if (this.syncFailing) return;
    this.syncFailing = true;
    this.report(
      `Tandem could not make its latest conversation changes safe on disk (${reason(error)}); it tries again with the next change.`,
    );
  }
}
