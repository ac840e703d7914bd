/** The `read_file` tool: a range of lines of a text file in the workspace. */

import { stat } from "node:fs/promises";
import { z } from "zod";
import { openRegular } from "../../agent/regular";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import { editorText, type Workspace } from "./editor";
import { chunksOf, lines } from "./line-range";
import { inside, shown } from "./paths";
import { count, size } from "./counts";

/** Lines shown when no end is given. */
export const LINES = 400;
/** Bytes of text one call shows at most. */
export const BYTES = 20 * 1024;

const input = z.object({
  path: z.string().min(1).describe("The file, relative to the workspace root (such as src/main.ts)."),
  startLine: z.number().int().min(1).optional().describe("The first line to read (1-based; default 1)."),
  endLine: z
    .number()
    .int()
    .min(1)
    .optional()
    .describe(`The last line to read (inclusive; default: ${LINES} lines from startLine).`),
});

/** Reads lines `startLine`–`endLine` of a workspace file (numbers are 1-based, inclusive). */
export async function readLines(
  workspace: Workspace,
  path: string,
  startLine = 1,
  endLine?: number,
  maxBytes = BYTES,
): Promise<string> {
  const absolute = await inside(workspace.root, path);
  const name = shown(workspace.root, absolute);
  if (endLine !== undefined && endLine < startLine) {
    throw new Error(`endLine ${endLine} is before startLine ${startLine}.`);
  }
  const end = endLine ?? startLine + LINES - 1;
  const held = await editorText(workspace, absolute);
  let chunks: AsyncIterable<Buffer> | Iterable<Buffer>;
  if (held !== undefined) chunks = [Buffer.from(held, "utf8")];
  else {
    const s = await stat(absolute).catch(() => undefined);
    if (!s) throw new Error(`${name} does not exist.`);
    if (s.isDirectory()) throw new Error(`${name} is a folder; list its files with list_files.`);
    // A named pipe or a device would hold a thread of the pool for ever: only regular files are read.
    chunks = chunksOf((await openRegular(absolute, name)).handle);
  }
  const range = await lines(chunks, startLine, end, maxBytes);
  if (range.binary) throw new Error(`${name} is a binary file; read_file reads only text files.`);
  if (range.total === 0) return `${name} is empty.`;
  if (startLine > range.total) {
    throw new Error(`${name} has ${count(range.total, "line")}; startLine ${startLine} is past its end.`);
  }
  const whole = range.counted && range.first === 1 && range.last === range.total && !range.cut;
  const total = range.counted ? `${range.total}` : `more than ${range.total}`;
  const head = whole
    ? `${name} (${count(range.total, "line")}):`
    : range.first === range.last
      ? `${name}, line ${range.first} of ${total}:`
      : `${name}, lines ${range.first}–${range.last} of ${total}:`;
  const notes: string[] = [];
  if (range.cut) {
    notes.push(`[Line ${range.last} is longer than ${size(maxBytes)} and was cut.]`);
  }
  const next = range.last + 1;
  const short = range.last < end;
  if ((next <= range.total || !range.counted) && (endLine === undefined || short)) {
    const why = short ? ` (one call shows at most ${size(maxBytes)})` : "";
    const rest = range.counted ? `Lines ${next}–${range.total} are` : `Lines from ${next} on are`;
    notes.push(`[${rest} not shown${why}: read on with startLine ${next}.]`);
  }
  return [head, range.text, ...notes].join("\n");
}

/** The `read_file` tool of `workspace`. */
export function readFileTool(workspace: Workspace): Tool {
  return tool(
    "read_file",
    `Reads a text file of the workspace, by line range (1-based, inclusive). Without a range it reads the first ${LINES} lines; the answer says the file's line count and how to read on.`,
    input,
    ({ path, startLine, endLine }) => readLines(workspace, path, startLine, endLine),
    { readOnly: true, timeoutMs: 20_000 },
  );
}
