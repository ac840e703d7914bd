/**
 * The tools that act in the editor without changing files themselves: `open_file` (reveal a
 * file at a line) and `run_command` (a command line in a terminal the person sees).
 */

import { stat } from "node:fs/promises";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Editor, Ran, Workspace } from "./editor";
import { inside, shown } from "./paths";

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
    .describe(`How long it may run before it is ended (default ${COMMAND_SECONDS}).`),
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

/** What a command did, as the model reads it. */
export function ranText(ran: Ran, where: string, seconds: number): string {
  const place = where === "." ? "" : ` (in ./${where})`;
  const head = ran.timedOut
    ? `The command ran out of time after ${seconds} s and was ended${place}.`
    : ran.exitCode === null
      ? `The command was ended before it finished${place}.`
      : `Exit code ${ran.exitCode}${place}.`;
  const output = tail(plainOutput(ran.output).trimEnd());
  return output ? `${head}\nOutput:\n${output}` : `${head}\nNo output.`;
}

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

/** The `run_command` tool: a command line in a terminal the person sees; answers its exit code and output's tail. */
export function runCommandTool(workspace: Workspace, editor: Editor): Tool {
  return tool(
    "run_command",
    "Runs a shell command line in a terminal the person sees, in a folder of the workspace, and answers its exit code and the end of its output. Each call is approved by the person.",
    runInput,
    async ({ command, cwd, timeoutSeconds }, signal) => {
      const folder = await inside(workspace.root, cwd);
      const where = shown(workspace.root, folder);
      const s = await stat(folder).catch(() => undefined);
      if (!s?.isDirectory()) throw new Error(`The folder ${where} does not exist.`);
      const ran = await editor.run({
        command,
        cwd: folder,
        shown: where,
        timeoutMs: timeoutSeconds * 1000,
        signal,
      });
      return ranText(ran, where, timeoutSeconds);
    },
    { timeoutMs: (MAX_COMMAND_SECONDS + 30) * 1000 },
  );
}
