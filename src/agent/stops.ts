/** Stop sequences applied on a streamed answer; plain code, so the editor layer can use it without the core. */

/**
 * Stop sequences applied on streamed text, for the models that cannot be sent them (OpenAI's
 * reasoning models, a server that refused `stop`, VS Code's models) and the servers that ignore
 * them: the text ends before the first stop sequence, which is never given. A stop sequence may be
 * split across chunks anywhere: what may begin one is held back until the next chunk tells.
 */
export class Stops {
  private held = "";
  private readonly stops: string[];
  /** Whether a stop sequence was written: the turn ends, and nothing more is given. */
  ended = false;

  constructor(stops: readonly string[] = []) {
    this.stops = stops.filter(Boolean);
  }

  /** The part of `chunk` that may be given now. */
  feed(chunk: string): string {
    if (this.ended) return "";
    if (!this.stops.length) return chunk;
    const text = this.held + chunk;
    let at = -1;
    for (const stop of this.stops) {
      const i = text.indexOf(stop);
      if (i >= 0 && (at < 0 || i < at)) at = i;
    }
    if (at >= 0) {
      [this.ended, this.held] = [true, ""];
      return text.slice(0, at);
    }
    const keep = this.beginning(text);
    this.held = text.slice(text.length - keep);
    return text.slice(0, text.length - keep);
  }

  /** What was held back, at the end of the turn (it began no stop sequence after all). */
  flush(): string {
    const rest = this.held;
    this.held = "";
    return this.ended ? "" : rest;
  }

  /** How many characters at the end of `text` could begin a stop sequence. */
  private beginning(text: string): number {
    let most = 0;
    for (const stop of this.stops) {
      for (let n = Math.min(stop.length - 1, text.length); n > most; n--) {
        if (text.endsWith(stop.slice(0, n))) {
          most = n;
          break;
        }
      }
    }
    return most;
  }
}
