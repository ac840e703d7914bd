/**
 * Runs a search's regular expression in a worker thread. A pattern such as `^(a|a)*$` can take
 * minutes on one short line, and a regular expression cannot be interrupted on the thread that
 * runs it: on the extension host's own thread it would freeze every view and tool. In a worker,
 * `stop()` (Worker.terminate) ends it at once, even in the middle of one line.
 */

import { Worker } from "node:worker_threads";

/** Characters of a line searched: a very long line (minified code) is searched in its first part only. */
export const LINE_SEARCHED = 10_000;

/** One matching line of a text. */
export interface Hit {
  /** 1-based. */
  line: number;
  /** Where the match starts in the line. */
  at: number;
  /** The line as searched (without its newline, at most LINE_SEARCHED characters). */
  text: string;
}

/**
 * The worker's code, plain JavaScript given with `eval: true`: it runs the same in the esbuild
 * bundles (no second file to find beside dist/core.js) and under tsx in the tests. It only
 * matches; reading files and every rule about which files stays on the caller's side.
 */
const CODE = `
const { parentPort, workerData } = require("node:worker_threads");
const expression = new RegExp(workerData.source, workerData.flags);
parentPort.on("message", ({ text, limit }) => {
  const lines = text.split("\\n");
  const hits = [];
  for (let i = 0; i < lines.length && hits.length < limit; i++) {
    const line = lines[i].length > workerData.long ? lines[i].slice(0, workerData.long) : lines[i];
    const match = expression.exec(line);
    if (match) hits.push({ line: i + 1, at: match.index, text: line });
  }
  parentPort.postMessage(hits);
});
`;

/** Why a match was not answered: the matcher was stopped (its deadline, or the caller). */
export class StoppedError extends Error {
  constructor() {
    super("The matcher was stopped.");
    this.name = "StoppedError";
  }
}

/** A regular expression running in its own worker thread, one text at a time; `stop()` ends it. */
export class Matcher {
  private readonly worker: Worker;
  private pending?: { resolve: (hits: Hit[]) => void; reject: (error: Error) => void };
  private ended?: Error;

  constructor(expression: RegExp) {
    this.worker = new Worker(CODE, {
      eval: true,
      // The code is plain JavaScript: the worker needs none of the parent's loaders (tsx in tests).
      execArgv: [],
      workerData: { source: expression.source, flags: expression.flags, long: LINE_SEARCHED },
    });
    this.worker.on("message", (hits: Hit[]) => this.settle((p) => p.resolve(hits)));
    this.worker.on("error", (error: Error) => this.end(error));
    this.worker.on("exit", () => this.end(new StoppedError()));
  }

  /** The lines of `text` that match, the first `limit` of them; rejects with StoppedError when stopped. */
  match(text: string, limit: number): Promise<Hit[]> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.pending) return Promise.reject(new Error("The matcher is busy with another text."));
    return new Promise<Hit[]>((resolve, reject) => {
      this.pending = { resolve, reject };
      this.worker.postMessage({ text, limit });
    });
  }

  /** Ends the worker, and with it any match under way. */
  async stop(): Promise<void> {
    this.end(new StoppedError());
    await this.worker.terminate();
  }

  private settle(how: (pending: { resolve: (hits: Hit[]) => void; reject: (error: Error) => void }) => void) {
    const pending = this.pending;
    this.pending = undefined;
    if (pending) how(pending);
  }

  private end(error: Error): void {
    this.ended ??= error;
    const ended = this.ended;
    this.settle((p) => p.reject(ended));
  }
}
