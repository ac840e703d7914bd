/**
 * The same failing call made again and again: a small model that gets an error often sends the same
 * call back, and each round adds the call and its error to the window until nothing else fits. Three
 * in a row (the same tool, the same arguments, the same error) end the run instead.
 */
import { readArgs } from "../protocol/args";
import type { Call, LimitCall } from "./types";

/** How many times the same failing call ends a run. */
export const REPEATS = 3;

/** Counts failing calls as their outcomes come, round after round of one run. */
export class Repeats {
  private readonly counts = new Map<string, { call: string; count: number }>();

  /**
   * Takes one call's outcome (in the order the calls were made); the call to stop at once the same
   * failing call was seen `REPEATS` times. A success resets every count; a failure of a tool with
   * other arguments or another error resets that tool's.
   */
  add(call: Call, failed: boolean, text: string): LimitCall | undefined {
    if (!failed) {
      this.counts.clear();
      return undefined;
    }
    const key = JSON.stringify([call.name, canonical(call.arguments), text]);
    const seen = this.counts.get(key)?.count ?? 0;
    for (const [other, entry] of this.counts)
      if (entry.call === call.name && other !== key) this.counts.delete(other);
    this.counts.set(key, { call: call.name, count: seen + 1 });
    return seen + 1 >= REPEATS ? { name: call.name, error: text } : undefined;
  }
}

/** Arguments as one text whatever their spacing: the record re-written when it reads, else the text trimmed. */
function canonical(args: string): string {
  const read = readArgs(args);
  return read.ok ? JSON.stringify(read.args) : args.trim();
}
