/**
 * list_files and search_text through ripgrep (the binary VS Code ships), with the same rules as the
 * plain-Node walk. ripgrep walks, skips and searches; every path it answers is then judged again by
 * the walk's own rules (`Admit`), so its answer can only be narrowed, never widened. ripgrep runs as
 * a separate process, with its arguments as an array (no shell), killed at the deadline or stop.
 */

import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { stat } from "node:fs/promises";
import { join } from "node:path";
import { Ignore, SKIPPED, type Exclude } from "./ignore";
import { inside } from "./paths";

/**
 * The ripgrep binary an editor ships under its application folder (`vscode.env.appRoot`): VS Code's
 * `@vscode/ripgrep`, or code-server's `@vscode/ripgrep-universal` with one binary per platform.
 */
export function ripgrepUnder(
  appRoot: string,
  platform: string = process.platform,
  arch: string = process.arch,
): string | undefined {
  const exe = platform === "win32" ? "rg.exe" : "rg";
  const places = ["node_modules", "node_modules.asar.unpacked"].flatMap((modules) => [
    join(appRoot, modules, "@vscode/ripgrep/bin", exe),
    join(appRoot, modules, "@vscode/ripgrep-universal/bin", `${platform}-${arch}`, exe),
  ]);
  return places.find((place) => existsSync(place));
}

/** One line ripgrep found, before the caller's own checks. */
export interface Line {
  /** 1-based. */
  line: number;
  /** The line without its final newline. */
  text: string;
  /** Where the first match starts, in UTF-16 characters (ripgrep counts bytes). */
  at: number;
}

/** How a ripgrep run ended. */
export interface Ran {
  /** Killed at the deadline. */
  late: boolean;
  /** Ended by the caller (cap reached). */
  ended: boolean;
}

/**
 * The flags that make ripgrep walk as `walk` does: every .gitignore at and below the start (the
 * folders above it are judged by `Admit`), hidden files, never .git nor node_modules folders below
 * the start, no links followed, no config file, no other ignore files, paths sorted and with `/`.
 */
const WALK = [
  "--no-config",
  "--hidden",
  "--no-require-git",
  "--no-ignore-parent",
  "--no-ignore-dot",
  "--no-ignore-global",
  "--no-ignore-exclude",
  "--no-follow",
  "--sort=path",
  "--path-separator=/",
  ...[...SKIPPED].map((name) => `--glob=!${name}/`),
];

/** The exclude globs ripgrep reads exactly as the editor does (`**\/name`), passed to spare it the walk. */
function excludeGlobs(exclude: Exclude): string[] {
  return Object.entries(exclude)
    .filter(([glob, value]) => value === true && /^\*\*\/[\w.-]+$/.test(glob))
    .map(([glob]) => `--glob=!${glob.slice(3)}`);
}

/** A file-name filter ripgrep can apply before `Admit` (the glob's last name, when it is a plain one). */
function nameFilter(glob: string): string[] {
  const name = glob.slice(glob.lastIndexOf("/") + 1);
  if (name.includes("**") || !/^[\w.*?{},-]+$/.test(name) || name === "*") return [];
  return [`--type-add=tandemglob:${name}`, "--type=tandemglob"];
}

/**
 * The walk's own verdict on a path ripgrep found: no .git or node_modules folder below the start,
 * nothing a .gitignore or files.exclude leaves out, at any depth (each folder's verdict kept).
 */
export class Admit {
  private readonly folders = new Map<string, Promise<boolean>>();

  private constructor(
    private readonly ignore: Ignore,
    private readonly base: string,
  ) {}

  static async of(root: string, exclude: Exclude, base: string): Promise<Admit> {
    return new Admit(await Ignore.of(root, exclude, base), base);
  }

  /** True when the walk would list the file at `path` (relative to the root, with `/`). */
  async file(path: string): Promise<boolean> {
    const slash = path.lastIndexOf("/");
    if (slash > this.base.length && !(await this.folder(path.slice(0, slash)))) return false;
    return !(await this.ignore.ignores(path, false));
  }

  private folder(path: string): Promise<boolean> {
    let verdict = this.folders.get(path);
    if (!verdict) {
      verdict = (async () => {
        const slash = path.lastIndexOf("/");
        if (slash > this.base.length && !(await this.folder(path.slice(0, slash)))) return false;
        if (SKIPPED.has(path.slice(slash + 1))) return false;
        return !(await this.ignore.ignores(path, true));
      })();
      this.folders.set(path, verdict);
    }
    return verdict;
  }
}

/** Where a walk starts and what it lists. */
interface Walk {
  /** The folder to start in, as ripgrep is given it. */
  from: string;
  admit: Admit;
}

/** The walk under `base` (checked inside the root) with `exclude`; undefined when `base` is no folder. */
async function start(root: string, where: { base: string; exclude: Exclude }): Promise<Walk | undefined> {
  const { base, exclude } = where;
  const absolute = await inside(root, base);
  const s = await stat(absolute).catch(() => undefined);
  if (!s?.isDirectory()) return undefined;
  // After `--`, so a folder named like a flag is read as a path.
  return { from: base === "" ? "./" : `./${base}`, admit: await Admit.of(root, exclude, base) };
}

/** A path as ripgrep prints it, relative to the root. */
function relativePath(printed: string): string {
  return printed.startsWith("./") ? printed.slice(2) : printed;
}

/** What one ripgrep process is given and told. */
interface Run {
  rg: string;
  root: string;
  args: string[];
  deadlineMs: number;
  signal?: AbortSignal;
  /** Each chunk of standard output, in order; false ends the process. */
  out: (chunk: Buffer) => boolean;
  /** Each line of standard error. */
  err?: (line: string) => void;
}

/** Runs ripgrep to its end, its deadline, the caller's stop, or until `out` says enough. */
function run({ rg, root, args, deadlineMs, signal, out, err }: Run): Promise<Ran> {
  signal?.throwIfAborted();
  return new Promise<Ran>((resolve, reject) => {
    const child = spawn(rg, args, { cwd: root, shell: false, stdio: ["ignore", "pipe", "pipe"] });
    let late = false;
    let ended = false;
    let failure = "";
    const kill = () => child.kill("SIGKILL");
    const clock = setTimeout(() => {
      late = true;
      kill();
    }, deadlineMs);
    signal?.addEventListener("abort", kill, { once: true });
    child.stdout.on("data", (chunk: Buffer) => {
      if (ended || late) return;
      if (!out(chunk)) {
        ended = true;
        kill();
      }
    });
    let pending = "";
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", (chunk: string) => {
      const lines = (pending + chunk).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        if (err) err(line);
        if (!line.includes("DEBUG|") && failure.length < 2000) failure += `${line}\n`;
      }
    });
    child.on("error", (error) => {
      clearTimeout(clock);
      reject(error);
    });
    child.on("close", (code) => {
      clearTimeout(clock);
      signal?.removeEventListener("abort", kill);
      if (signal?.aborted) return reject(signal.reason);
      // 0: found, 1: nothing found; 2 with output means some files could not be read.
      if (!late && !ended && code !== 0 && code !== 1 && code !== 2) {
        return reject(new RipgrepError(failure.trim() || `ripgrep ended with ${code}`));
      }
      if (!late && !ended && code === 2 && /error parsing|regex parse error|PCRE2/i.test(failure)) {
        return reject(new RipgrepError(failure.trim()));
      }
      resolve({ late, ended });
    });
  });
}

/** ripgrep could not do the search (a pattern it cannot read, a broken binary): the caller falls back. */
export class RipgrepError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "RipgrepError";
  }
}

/** The files ripgrep lists under `base` (in path order), each given to `each` until it returns false. */
export async function rgFiles(
  rg: string,
  root: string,
  options: { base: string; glob: string; exclude: Exclude; deadlineMs: number; signal?: AbortSignal },
  each: (path: string) => Promise<boolean>,
): Promise<Ran> {
  const walk = await start(root, options);
  if (!walk) return { late: false, ended: false };
  const args = [
    "--files",
    "--null",
    ...WALK,
    ...excludeGlobs(options.exclude),
    ...nameFilter(options.glob),
    "--",
    walk.from,
  ];
  const paths = records(0);
  // Paths are judged one after another, in order; ripgrep's output waits meanwhile in `queue`.
  let queue = Promise.resolve(true);
  let going = true;
  const ran = await run({
    rg,
    root,
    args,
    deadlineMs: options.deadlineMs,
    signal: options.signal,
    out: (chunk) => {
      for (const named of paths(chunk)) {
        const path = relativePath(named);
        queue = queue.then(
          async (on) => on && (!(await walk.admit.file(path)) || (going = await each(path))),
        );
      }
      return going;
    },
  });
  await queue;
  return { late: ran.late, ended: ran.ended || !going };
}

/** What a search asks ripgrep. */
export interface RgQuery {
  query: string;
  regex: boolean;
  caseSensitive: boolean;
  base: string;
  glob: string;
  exclude: Exclude;
  maxFileBytes: number;
  deadlineMs: number;
  signal?: AbortSignal;
}

/** A message of ripgrep's --json output (the parts read here). */
interface JsonMessage {
  type: "begin" | "match" | "end" | "context" | "summary";
  data: {
    path?: { text?: string; bytes?: string };
    lines?: { text?: string; bytes?: string };
    line_number?: number;
    submatches?: { start: number }[];
    binary_offset?: number | null;
  };
}

/** Text ripgrep gives as UTF-8 text or, when it is not valid UTF-8, as base64 bytes. */
function textOf(value: { text?: string; bytes?: string } | undefined): string {
  if (!value) return "";
  return value.text ?? Buffer.from(value.bytes ?? "", "base64").toString("utf8");
}

/**
 * The matching lines of every file ripgrep searches under `base`, a file at a time in path order:
 * `each` gets the file's path and lines (a file with a NUL byte anywhere is left out, as binary)
 * and returns false to end the search. `large` is told each file skipped for its size.
 */
export async function rgSearch(
  rg: string,
  root: string,
  query: RgQuery,
  each: (path: string, lines: Line[]) => Promise<boolean>,
  large: (path: string) => void,
): Promise<Ran> {
  const walk = await start(root, query);
  if (!walk) return { late: false, ended: false };
  const args = [
    "--json",
    // --debug names the files skipped for their size, which the answer's note counts.
    "--debug",
    "--engine=auto",
    "--encoding=none",
    query.caseSensitive ? "--case-sensitive" : "--ignore-case",
    ...(query.regex ? [] : ["--fixed-strings"]),
    `--max-filesize=${query.maxFileBytes}`,
    ...WALK,
    ...excludeGlobs(query.exclude),
    ...nameFilter(query.glob),
    // The pattern is the value of --regexp=, so no query is ever read as a flag.
    `--regexp=${query.query}`,
    "--",
    walk.from,
  ];
  const messages = records(0x0a);
  let lines: Line[] = [];
  let queue = Promise.resolve(true);
  let going = true;
  const ran = await run({
    rg,
    root,
    args,
    deadlineMs: query.deadlineMs,
    signal: query.signal,
    out: (chunk) => {
      for (const part of messages(chunk)) {
        if (!part) continue;
        const message = JSON.parse(part) as JsonMessage;
        if (message.type === "begin") lines = [];
        else if (message.type === "match") {
          const text = textOf(message.data.lines).replace(/\n$/, "");
          const byte = message.data.submatches?.[0]?.start ?? 0;
          const at = Buffer.from(text, "utf8").subarray(0, byte).toString("utf8").length;
          lines.push({ line: message.data.line_number ?? 0, text, at });
        } else if (message.type === "end") {
          const found = lines;
          lines = [];
          if (message.data.binary_offset !== null && message.data.binary_offset !== undefined) continue;
          const path = relativePath(textOf(message.data.path));
          queue = queue.then(
            async (on) => on && (!(await walk.admit.file(path)) || (going = await each(path, found))),
          );
        }
      }
      return going;
    },
    err: (line) => {
      const skipped = /\bignoring (.+): (\d+) bytes$/.exec(line);
      if (!skipped) return;
      const path = relativePath(skipped[1]);
      queue = queue.then(async (on) => {
        if (on && (await walk.admit.file(path))) large(path);
        return on;
      });
    },
  });
  await queue;
  return { late: ran.late, ended: ran.ended || !going };
}

/**
 * Cuts ripgrep's output into records ended by the byte `end` (NUL after a path, a newline after a
 * JSON message), each decoded whole: a character split between two chunks of output stays whole.
 */
export function records(end: number): (chunk: Buffer) => string[] {
  let rest: Buffer = Buffer.alloc(0);
  return (chunk) => {
    const data = rest.length ? Buffer.concat([rest, chunk]) : chunk;
    const out: string[] = [];
    let from = 0;
    for (let at = data.indexOf(end); at >= 0; at = data.indexOf(end, from)) {
      out.push(data.subarray(from, at).toString("utf8"));
      from = at + 1;
    }
    rest = data.subarray(from);
    return out;
  };
}
