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
parentPort.on("message", ({ texts, limit }) => {
  let found = 0;
  for (let file = 0; file < texts.length; file++) {
    const hits = [];
    const lines = texts[file].split("\\n");
    // The text after a final newline is no line (a pattern matching "" would find it).
    if (lines.length > 1 && lines[lines.length - 1] === "") lines.pop();
    for (let i = 0; i < lines.length && found < limit; i++) {
      const line = lines[i].length > workerData.long ? lines[i].slice(0, workerData.long) : lines[i];
      const match = expression.exec(line);
      if (match) {
        hits.push({ line: i + 1, at: match.index, text: line });
        found++;
      }
    }
    // Each file is answered as soon as it is searched: a later file that runs into the deadline loses only itself.
    const last = file === texts.length - 1 || found >= limit;
    parentPort.postMessage({ file, hits, last });
    if (last) break;
  }
});
`;

/** Why a match was not answered: the matcher was stopped (its deadline, or the caller). */
export class StoppedError extends Error {
  constructor() {
    super("The matcher was stopped.");
    this.name = "StoppedError";
  }
}

/** The matching lines of one text of a batch, as the worker answers them. */
interface Answer {
  file: number;
  hits: Hit[];
  last: boolean;
}

/** A batch under way: what to call for each file, and how to end. */
interface Pending {
  each: (hits: Hit[], file: number) => void;
  resolve: () => void;
  reject: (error: Error) => void;
}

/** A regular expression running in its own worker thread, one batch of texts at a time; `stop()` ends it. */
export class Matcher {
  private readonly worker: Worker;
  private pending?: Pending;
  private ended?: Error;

  constructor(expression: RegExp) {
    this.worker = new Worker(CODE, {
      eval: true,
      // The code is plain JavaScript: the worker needs none of the parent's loaders (tsx in tests).
      execArgv: [],
      workerData: { source: expression.source, flags: expression.flags, long: LINE_SEARCHED },
    });
    this.worker.on("message", (answer: Answer) => {
      const pending = this.pending;
      if (!pending) return;
      pending.each(answer.hits, answer.file);
      if (answer.last) {
        this.pending = undefined;
        pending.resolve();
      }
    });
    this.worker.on("error", (error: Error) => this.end(error));
    this.worker.on("exit", () => this.end(new StoppedError()));
  }

  /**
   * Searches `texts` in order, calling `each` with every text's matching lines as soon as it is
   * searched, until `limit` lines matched in all; rejects with StoppedError when stopped.
   */
  match(texts: string[], limit: number, each: (hits: Hit[], file: number) => void): Promise<void> {
    if (this.ended) return Promise.reject(this.ended);
    if (this.pending) return Promise.reject(new Error("The matcher is busy with another batch."));
    if (texts.length === 0) return Promise.resolve();
    return new Promise<void>((resolve, reject) => {
      this.pending = { each, resolve, reject };
      this.worker.postMessage({ texts, limit });
    });
  }

  /** Ends the worker, and with it any match under way. */
  async stop(): Promise<void> {
    this.end(new StoppedError());
    await this.worker.terminate();
  }

  private end(error: Error): void {
    this.ended ??= error;
    const pending = this.pending;
    this.pending = undefined;
    pending?.reject(this.ended);
  }
}
