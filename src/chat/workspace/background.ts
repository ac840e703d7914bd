/**
 * Background commands: a dev server or a watcher the agent starts without waiting for it, reads
 * the output of later by line range, and stops. All output is kept up to `KEPT_CHARS` (beyond it
 * the oldest lines go, with a note); every command still running ends when the run that started
 * it ends (`Jobs.close`) or the extension deactivates.
 */

import { spawn } from "node:child_process";
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { commandEnv } from "./command-env";
import type { Jail } from "./sandbox";

/** Characters of a background command's output kept; beyond it, its oldest lines are dropped. */
export const KEPT_CHARS = 5 * 1024 * 1024;
/** Lines a read gives when it does not say, and at most. */
export const READ_LINES = 200;
export const MAX_READ_LINES = 2000;
/** Characters a read gives at most (the rest is read with a later line). */
export const READ_CHARS = 16 * 1024;

/** What a started process tells: what it writes, and its end. */
export interface Listener {
  output(text: string): void;
  /** Its exit code; null when it was ended by a signal. */
  exit(code: number | null): void;
}

/** A process started in the background. */
export interface Running {
  /** Its process id (undefined when it could not start). */
  pid: number | undefined;
  /** Ends it and everything it started. */
  stop(): void;
}

/** A command line to start in the background. */
export interface Background {
  command: string;
  /** The folder it runs in (absolute, inside the workspace). */
  cwd: string;
  /** That folder relative to the workspace ("." for the root). */
  shown: string;
  /** How it is started: in the sandbox, or plainly and why (see sandbox.ts); without it, plainly and unsaid. */
  jail?: Jail;
}

/** The terminal's dim line saying whether and how a command is sandboxed. */
export function jailLine(jail: Jail): string {
  return `\x1b[2m${jail.how}\x1b[0m\n`;
}

/** Ends the process group of `pid` (the shell and what it started); nothing when it already ended. */
export function endGroup(pid: number, signal: NodeJS.Signals = "SIGTERM"): void {
  try {
    if (process.platform === "win32") {
      spawn("taskkill", ["/pid", String(pid), "/T", "/F"], { stdio: "ignore" }).on("error", () => undefined);
    } else process.kill(-pid, signal);
  } catch {
    // It has already ended.
  }
}

/**
 * The process groups of `pid`'s descendants besides its own (read from /proc; none without it). A
 * sandbox's command runs in a session of its own (bubblewrap's --new-session), under bubblewrap's
 * init in a PID namespace: bubblewrap's group does not reach it, and the init ignores SIGTERM.
 */
export function groupsUnder(pid: number): number[] {
  if (!existsSync("/proc/self/stat")) return [];
  const children = new Map<number, { pid: number; group: number }[]>();
  for (const name of readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${name}/stat`, "utf8");
    } catch {
      continue; // It ended while the list was read.
    }
    // The fields after the command's name (in parentheses): state, ppid, pgrp.
    const [, parent, group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    const list = children.get(Number(parent)) ?? [];
    list.push({ pid: Number(name), group: Number(group) });
    children.set(Number(parent), list);
  }
  const groups = new Set<number>();
  const next = [pid];
  for (let at = next.pop(); at !== undefined; at = next.pop()) {
    for (const child of children.get(at) ?? []) {
      if (child.group !== pid) groups.add(child.group);
      next.push(child.pid);
    }
  }
  return [...groups];
}

/**
 * Ends the sandboxed command of bubblewrap `pid`: the session it started inside (bubblewrap ends
 * when it does), with SIGKILL 3 s later (which ends the whole PID namespace). Bubblewrap itself is
 * not signalled first: what it started would outlive it. Until that session exists (a command
 * stopped as it starts), it is looked for again every 50 ms; `gone` says it ended meanwhile.
 */
function endSandboxed(pid: number, gone: () => boolean): void {
  const deadline = Date.now() + 3000;
  const attempt = (): void => {
    if (gone()) return;
    const groups = groupsUnder(pid);
    if (!groups.length) {
      if (Date.now() < deadline) setTimeout(attempt, 50).unref();
      else endGroup(pid, "SIGKILL");
      return;
    }
    for (const group of groups) endGroup(group);
    const hard = setTimeout(() => {
      if (!gone()) for (const group of [...groups, pid]) endGroup(group, "SIGKILL");
    }, 3000);
    hard.unref();
  };
  attempt();
}

/**
 * Starts `c.command` in a shell, in its own process group, with `env` (default: the extension
 * host's without its secrets, see command-env.ts), inside `c.jail` when it says a sandbox, and
 * tells `each` what it writes and when it ends. `stop` ends the whole group (for a sandbox:
 * bubblewrap's and the session it started inside), with SIGKILL if it is still there 3 s later.
 */
export function spawnLine(c: Background, each: Listener, env: NodeJS.ProcessEnv = commandEnv().env): Running {
  const jail = c.jail;
  const child = jail?.sandboxed
    ? spawn(jail.program, [...jail.args, "/bin/sh", "-c", c.command], {
        cwd: c.cwd,
        env: { ...env, ...jail.env },
        detached: true,
      })
    : spawn(c.command, { cwd: c.cwd, shell: true, env, detached: true });
  let ended = false;
  const take = (data: Buffer) => each.output(data.toString("utf8"));
  child.stdout.on("data", take);
  child.stderr.on("data", take);
  child.on("error", (e) => {
    each.output(`${e.message}\n`);
    if (child.pid === undefined && !ended) {
      ended = true;
      each.exit(null);
    }
  });
  child.on("close", (code) => {
    if (jail?.sandboxed) jail.cleanup?.();
    if (ended) return;
    ended = true;
    each.exit(code);
  });
  return {
    pid: child.pid,
    stop() {
      if (ended || child.pid === undefined) return;
      if (jail?.sandboxed) return endSandboxed(child.pid, () => ended);
      const pid = child.pid;
      endGroup(pid);
      const hard = setTimeout(() => endGroup(pid, "SIGKILL"), 3000);
      hard.unref();
      child.once("close", () => clearTimeout(hard));
    },
  };
}

/** One background command and what it has written so far. */
export class Job {
  /** The output kept: everything since `dropped` lines were let go. */
  text = "";
  /** Lines let go from the start (the output passed the cap). */
  dropped = 0;
  /** Its exit code once it ended (null: ended by a signal); undefined while it runs. */
  exit?: number | null;
  stopped = false;
  /** The process, once started. */
  running: Running = { pid: undefined, stop: () => undefined };
  /** Resolves when it has ended. */
  readonly ended: Promise<void>;
  private done = (): void => undefined;

  constructor(
    readonly id: number,
    readonly command: string,
  ) {
    this.ended = new Promise<void>((resolve) => (this.done = resolve));
  }

  /** Marks it ended with `code`. */
  end(code: number | null): void {
    this.exit = code;
    this.done();
  }
}

/** How a Jobs starts a process (the editor's terminal, or a plain process in tests). */
export type Starter = (c: Background, each: Listener) => Running;

/** The background commands of one run. */
export class Jobs {
  private readonly jobs = new Map<number, Job>();
  private next = 1;

  constructor(
    private readonly starter: Starter,
    private readonly kept = KEPT_CHARS,
  ) {}

  /** Starts `c` and answers its job. */
  start(c: Background): Job {
    const job = new Job(this.next++, c.command);
    const id = job.id;
    job.running = this.starter(c, {
      output: (text) => this.keep(job, text),
      exit: (code) => job.end(code),
    });
    this.jobs.set(id, job);
    return job;
  }

  /** Adds `text` to the job's output, letting its oldest lines go past the cap. */
  private keep(job: Job, text: string): void {
    job.text += text;
    if (job.text.length <= this.kept) return;
    const over = job.text.length - this.kept;
    const cut = job.text.indexOf("\n", over);
    const at = cut < 0 ? over : cut + 1;
    job.dropped += countLines(job.text.slice(0, at));
    job.text = job.text.slice(at);
  }

  /** The job `id`, or an error naming the ids there are. */
  get(id: number): Job {
    const job = this.jobs.get(id);
    if (job) return job;
    const ids = [...this.jobs.keys()].join(", ") || "none";
    throw new Error(`There is no background command ${id} in this run (ids: ${ids}).`);
  }

  /** Stops the job `id` and resolves once it has ended. */
  async stop(id: number): Promise<Job> {
    const job = this.get(id);
    if (job.exit === undefined) {
      job.stopped = true;
      job.running.stop();
      await job.ended;
    }
    return job;
  }

  /** Stops every job still running (the run ended); resolves once they have ended. */
  async close(): Promise<void> {
    await Promise.all([...this.jobs.keys()].map((id) => this.stop(id)));
  }

  /** The ids of the jobs still running. */
  running(): number[] {
    return [...this.jobs.values()].filter((j) => j.exit === undefined).map((j) => j.id);
  }
}

/** The number of line ends in `text`. */
function countLines(text: string): number {
  let n = 0;
  for (let i = text.indexOf("\n"); i >= 0; i = text.indexOf("\n", i + 1)) n++;
  return n;
}

/** The job's state in words: running, or how it ended. */
export function stateOf(job: Job): string {
  const pid = job.running.pid === undefined ? "" : ` (pid ${job.running.pid})`;
  if (job.exit === undefined) return `Background command ${job.id}${pid} is running: ${job.command}`;
  if (job.stopped) return `Background command ${job.id}${pid} was stopped: ${job.command}`;
  if (job.exit === null) return `Background command ${job.id}${pid} was ended: ${job.command}`;
  return `Background command ${job.id}${pid} ended with exit code ${job.exit}: ${job.command}`;
}

/**
 * Lines of the job's output: `count` lines from line `from` (1-based, counted from the command's
 * start), or the last `count` when `from` is not given; at most `READ_CHARS` characters, with notes
 * saying which lines these are, what was let go, and where to read on.
 */
export function readLines(
  job: Job,
  from: number | undefined,
  count = READ_LINES,
  clean = (t: string) => t,
): string {
  const lines = job.text.split("\n");
  // A last line without its line end is still being written: it counts as a line.
  if (lines.at(-1) === "") lines.pop();
  const first = job.dropped + 1;
  const total = job.dropped + lines.length;
  const notes: string[] = [stateOf(job)];
  if (job.dropped > 0) {
    notes.push(`Lines 1–${job.dropped} were let go: only the last ${job.text.length} characters are kept.`);
  }
  if (total === 0) return [...notes, "No output yet."].join("\n");
  let start = from === undefined ? Math.max(first, total - count + 1) : Math.max(from, first);
  if (start > total)
    return [...notes, `There are ${total} lines; line ${from} is not written yet.`].join("\n");
  start = Math.max(start, first);
  const picked: string[] = [];
  let chars = 0;
  let end = start - 1;
  for (let n = start; n <= total && n < start + count; n++) {
    const line = clean(lines[n - first]);
    if (picked.length > 0 && chars + line.length + 1 > READ_CHARS) break;
    picked.push(line.length > READ_CHARS ? `${line.slice(0, READ_CHARS)} [… line cut]` : line);
    chars += line.length + 1;
    end = n;
  }
  notes.push(`Lines ${start}–${end} of ${total}:`);
  const more = end < total ? [`[… ${total - end} more lines: read on from line ${end + 1}]`] : [];
  return [...notes, ...picked, ...more].join("\n");
}
