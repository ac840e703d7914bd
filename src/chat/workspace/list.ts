/** The `list_files` tool: the workspace's files that match a glob, without ignored ones. */

import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import type { Exclude } from "./ignore";
import { count } from "./words";
import { RipgrepError, rgFiles } from "./ripgrep";
import { scope, walk } from "./walk";

/** Files one call lists at most. */
export const MAX_FILES = 500;
/** How long ripgrep may list before the answer is what it found. */
const LIST_MS = 10_000;

const input = z.object({
  glob: z
    .string()
    .default("**/*")
    .describe(
      "A glob relative to the workspace root, such as src/**/*.ts or *.{js,json} (a name without / matches in every folder; ./*.ts only in the root). Default: every file.",
    ),
  limit: z.number().int().min(1).max(2000).default(MAX_FILES).describe("The most files to list."),
});

/** The workspace files matching `glob`, one path a line, capped at `limit` with a note when capped. */
export async function listFiles(
  workspace: Workspace,
  exclude: Exclude,
  glob = "**/*",
  limit = MAX_FILES,
  signal?: AbortSignal,
  ripgrep?: string,
): Promise<string> {
  const pattern = await scope(workspace.root, glob);
  const test = globTest(pattern);
  const found: string[] = [];
  let more = false;
  const each = (path: string): boolean => {
    if (!test(path)) return true;
    if (found.length === limit) {
      more = true;
      return false;
    }
    found.push(path);
    return true;
  };
  const base = baseOf(pattern);
  let walked = { stopped: false };
  const listed = ripgrep
    ? await rgFiles(
        ripgrep,
        workspace.root,
        { base, glob: pattern, exclude, deadlineMs: LIST_MS, signal },
        async (path) => each(path),
      ).catch((error: NodeJS.ErrnoException) => {
        // A ripgrep that is not there (or does not run) leaves the walk below to list.
        if (error instanceof RipgrepError || error.code === "ENOENT") return undefined;
        throw error;
      })
    : undefined;
  if (listed) walked = { stopped: listed.late };
  else walked = await walk(workspace.root, { base, exclude, signal }, (file) => each(file.path));
  if (found.length === 0) {
    const note = walked.stopped ? " among the files looked at before the walk stopped" : "";
    return `No file matches ${pattern}${note} (files ignored by .gitignore or files.exclude, and node_modules and .git, are not listed).`;
  }
  const lines = [
    `${count(found.length, "file")} matching ${pattern}${more ? " (the first ones)" : ""}:`,
    ...found,
  ];
  if (more) lines.push(`[Only the first ${limit} files are listed; give a narrower glob to see the others.]`);
  else if (walked.stopped)
    lines.push("[The workspace is large: the walk stopped early; give a narrower glob.]");
  return lines.join("\n");
}

/** The `list_files` tool of `workspace`, leaving out what `exclude` (the editor's files.exclude) and .gitignore do. */
export function listFilesTool(workspace: Workspace, exclude: Exclude, ripgrep?: string): Tool {
  return tool(
    "list_files",
    "Lists the workspace's files matching a glob (paths relative to the root). Files ignored by .gitignore or files.exclude, node_modules and .git are left out unless the glob starts inside them.",
    input,
    ({ glob, limit }, signal) => listFiles(workspace, exclude, glob, limit, signal, ripgrep),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
