/**
 * The tools that act in the editor without changing files themselves: `open_file` (reveal a
 * file at a line), `run_command` (a command line in a terminal the person sees, waited for or
 * started in the background), and `read_output` / `stop_command` for background commands.
 */

import { stat } from "node:fs/promises";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import { Jobs, MAX_READ_LINES, READ_LINES, readLines, stateOf } from "./background";
import type { Editor, Ran, Workspace } from "./editor";
import { inside, shown } from "./paths";
import { jailFor, sandboxing, takeNetwork, type Sandboxing } from "./sandbox";

/** Characters of a command's output given back: its tail, where errors and summaries are. */
export const OUTPUT_CHARS = 8 * 1024;
/** Seconds a command runs when the call does not say, and at most. */
export const COMMAND_SECONDS = 120;
export const MAX_COMMAND_SECONDS = 600;

const openInput = z.object({
  path: z.string().min(1).describe("The file to show, relative to the workspace root."),
  line: z.number().int().min(1).optional().describe("The line to bring into view (1-based)."),
});

const runInput = z.object({
  command: z.string().min(1).describe("The shell command line, such as npm test."),
  cwd: z
    .string()
    .default(".")
    .describe("The folder to run it in, relative to the workspace root (default: the root)."),
  timeoutSeconds: z
    .number()
    .int()
    .min(1)
    .max(MAX_COMMAND_SECONDS)
    .default(COMMAND_SECONDS)
    .describe(`How long it may run before it is ended (default ${COMMAND_SECONDS}; not for background).`),
  background: z
    .boolean()
    .default(false)
    .describe(
      "Start it without waiting (a dev server, a watcher): answers an id for read_output and stop_command. It ends when this answer ends.",
    ),
});

const readInput = z.object({
  id: z.number().int().min(1).describe("The background command's id, as run_command answered it."),
  fromLine: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe("The first line to read (1-based, from the command's start); default: the last lines."),
  lines: z
    .number()
    .int()
    .min(1)
    .max(MAX_READ_LINES)
    .default(READ_LINES)
    .describe(`How many lines to read (default ${READ_LINES}).`),
});

const stopInput = z.object({
  id: z.number().int().min(1).describe("The background command's id, as run_command answered it."),
});

/** Terminal colour and cursor sequences (CSI and OSC) that mean nothing as text. */
// eslint-disable-next-line no-control-regex -- terminal escapes are control characters
const ESCAPES = /\u001b\[[0-?]*[ -/]*[@-~]|\u001b\][^\u0007\u001b]*(?:\u0007|\u001b\\)|\u001b[@-_]/g;

/** Output as text: escape sequences gone, carriage-return redraws kept at their last state. */
export function plainOutput(output: string): string {
  return output
    .replace(ESCAPES, "")
    .replace(/\r\n/g, "\n")
    .split("\n")
    .map((line) => line.slice(line.lastIndexOf("\r") + 1))
    .join("\n");
}

/** The last `max` characters of `text`, with a note of how much came before. */
export function tail(text: string, max = OUTPUT_CHARS): string {
  if (text.length <= max) return text;
  return `[… ${text.length - max} earlier characters not shown]\n${text.slice(text.length - max)}`;
}

/** What a command did, as the model reads it; `how` says whether and how it was sandboxed. */
export function ranText(ran: Ran, where: string, seconds: number, how?: string, sandboxed = false): string {
  const place = where === "." ? "" : ` (in ./${where})`;
  const head = ran.timedOut
    ? `The command ran out of time after ${seconds} s and was ended${place}.`
    : ran.exitCode === null
      ? `The command was ended before it finished${place}.`
      : `Exit code ${ran.exitCode}${place}.`;
  const output = tail(plainOutput(ran.output).trimEnd());
  const said = how ? `${head}\n${how[0].toUpperCase()}${how.slice(1)}.` : head;
  const text = output ? `${said}\nOutput:\n${output}` : `${said}\nNo output.`;
  // An install or a commit fails in the sandbox, where they are read-only: the model is told why, and who can run it.
  return sandboxed && ran.exitCode !== 0 && READ_ONLY.test(ran.output) ? `${text}\n${READ_ONLY_NOTE}` : text;
}

/** What a program says when it writes where the sandbox lets it only read. */
const READ_ONLY = /read-only file system|EROFS/i;

/** Said after a sandboxed command that failed on a read-only path. */
const READ_ONLY_NOTE =
  "It wrote where the sandbox lets commands only read: outside the workspace, its .git, dependency folders (node_modules, virtual environments), caches and other protected places. If the command must write there (an install, a commit), ask the person to run it in their own terminal; do not try to get around the sandbox.";

/** The `open_file` tool: the editor shows a file at a line. */
export function openFileTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "open_file",
    "Opens a workspace file in the editor for the person, at a line if given. It changes nothing.",
    openInput,
    async ({ path, line }) => {
      const absolute = await inside(workspace.root, path);
      const name = shown(workspace.root, absolute);
      const s = await stat(absolute).catch(() => undefined);
      if (!s) throw new Error(`${name} does not exist.`);
      if (!s.isFile()) throw new Error(`${name} is not a file.`);
      await editor.open(absolute, line);
      return line ? `Opened ${name} at line ${line}.` : `Opened ${name}.`;
    },
    { readOnly: true, timeoutMs: 15_000 },
  );
}

/**
 * The `run_command` tool: a command line in a terminal the person sees, inside the sandbox where
 * `sandbox` has one (network only when the person's approval permitted it for this line, never when they
 * set Tandem to work locally only); answers
 * its exit code and output's tail, or, with `background`, starts it in `jobs` and answers its id.
 */
export function runCommandTool(
  workspace: Workspace,
  editor: Editor,
  jobs?: Jobs,
  sandbox: () => Promise<Sandboxing> = sandboxing,
  localOnly = false,
): Tool {
  const made = tool(
    "run_command",
    "Runs a shell command line in a terminal the person sees, in a folder of the workspace, and answers its exit code and the end of its output. With background it starts a long-running command (a dev server, a watcher) without waiting: read its output with read_output and end it with stop_command. Each call is approved by the person unless their own rules allow the command line.",
    runInput,
    async ({ command, cwd, timeoutSeconds, background }, signal) => {
      const folder = await inside(workspace.root, cwd);
      const where = shown(workspace.root, folder);
      const s = await stat(folder).catch(() => undefined);
      if (!s?.isDirectory()) throw new Error(`The folder ${where} does not exist.`);
      if (background && !jobs) {
        throw new Error("Background commands cannot be started here: run it without background.");
      }
      const network = takeNetwork(command) && !localOnly;
      const jail = await jailFor(await sandbox(), { root: workspace.root, cwd: folder, network });
      if (background && jobs) {
        const job = jobs.start({ command, cwd: folder, shown: where, jail });
        return `${stateOf(job)}\n${jail.how[0].toUpperCase()}${jail.how.slice(1)}.\nIts id is ${job.id}: read its output with read_output and end it with stop_command. It ends when this answer ends.`;
      }
      const ran = await editor.run({
        command,
        cwd: folder,
        shown: where,
        timeoutMs: timeoutSeconds * 1000,
        signal,
        jail,
      });
      return ranText(ran, where, timeoutSeconds, jail.how, jail.sandboxed);
    },
    { timeoutMs: (MAX_COMMAND_SECONDS + 30) * 1000 },
  );
  return jobs ? { ...made, close: () => void jobs.close() } : made;
}

/** The `read_output` tool: lines of a background command's output, by line range. */
export function readOutputTool(jobs: Jobs): Tool {
  return tool(
    "read_output",
    "Reads lines of a background command's output (from run_command with background) and says whether it still runs. Without fromLine it gives the last lines.",
    readInput,
    ({ id, fromLine, lines }) => readLines(jobs.get(id), fromLine, lines, plainOutput),
    { readOnly: true, timeoutMs: 15_000 },
  );
}

/** The `stop_command` tool: ends a background command (and what it started), and answers its last lines. */
export function stopCommandTool(jobs: Jobs): Tool {
  return tool(
    "stop_command",
    "Stops a background command started by run_command, and answers the last lines of its output.",
    stopInput,
    async ({ id }) => readLines(await jobs.stop(id), undefined, 20, plainOutput),
    { readOnly: true, timeoutMs: 15_000 },
  );
}
