/**
 * What changed in the workspace since the last checkpoint, as the operating system reports it:
 * one watcher per walked folder (inotify on Linux; elsewhere one recursive watcher), giving the
 * paths that changed, so a checkpoint looks at those instead of walking 20,000 files.
 *
 * A watcher is only a hint that can be wrong (Linux drops events silently when its queue
 * overflows, network file systems send none): it says `broken` when it knows it failed, and the
 * checkpoint store walks the whole tree regularly and stops trusting it when the walk finds a
 * change it did not report.
 */
import { watch, type FSWatcher } from "node:fs";
import { reason } from "../../agent/perform";

// More folders than this and watching costs more than walking (and may exhaust inotify watches).
const MAX_FOLDERS = 20_000;
// More changes than this at once and a walk is as cheap and surer.
const MAX_CHANGED = 5_000;

/** The watchers of one workspace. */
export class Watch {
  /** Why the watcher cannot be trusted now (then the next checkpoint walks the whole tree). */
  broken: string | null = null;
  private readonly folders = new Map<string, FSWatcher>();
  private changed = new Set<string>();
  private readonly recursive = process.platform !== "linux";

  /** Starts watching folder `path` (relative; "" is the root) at `absolute`, if not watched yet. */
  add(path: string, absolute: string): void {
    if (this.broken || this.folders.has(path)) return;
    if (this.recursive && path !== "") return;
    if (this.folders.size >= MAX_FOLDERS) return this.fail("the workspace has too many folders to watch");
    try {
      const w = watch(absolute, { persistent: false, recursive: this.recursive }, (_event, name) => {
        if (name === null) return this.fail(`a change in "${path}" came without a name`);
        const rel = path ? `${path}/${name.split("\\").join("/")}` : name.split("\\").join("/");
        this.changed.add(rel);
        if (this.changed.size > MAX_CHANGED) this.fail("too many changes at once");
      });
      w.on("error", (e) => this.fail(`watching "${path}" failed: ${e.message}`));
      this.folders.set(path, w);
    } catch (e) {
      this.fail(`"${path}" cannot be watched: ${reason(e)}`);
    }
  }

  /** Stops watching `path` (a folder that is gone). */
  remove(path: string): void {
    const w = this.folders.get(path);
    if (!w) return;
    w.close();
    this.folders.delete(path);
  }

  /** The paths reported since the last `take`, and a fresh start. */
  take(): Set<string> {
    const changed = this.changed;
    this.changed = new Set();
    return changed;
  }

  /** The paths reported since the last `take`, left in place. */
  peek(): Set<string> {
    return new Set(this.changed);
  }

  /** Starts over: no watchers, nothing reported, trusted again (before a whole walk sets it up). */
  reset(): void {
    this.close();
    this.broken = null;
  }

  /** Stops every watcher. */
  close(): void {
    for (const w of this.folders.values()) w.close();
    this.folders.clear();
    this.changed.clear();
  }

  private fail(why: string): void {
    if (this.broken) return;
    this.broken = why;
    this.close();
  }
}
