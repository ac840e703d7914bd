/** The `list_files` tool: the workspace's files that match a glob, without ignored ones. */

import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import type { Exclude } from "./ignore";
import { count } from "./words";
import { scope, walk } from "./walk";

/** Files one call lists at most. */
export const MAX_FILES = 500;

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
): Promise<string> {
  const pattern = await scope(workspace.root, glob);
  const test = globTest(pattern);
  const found: string[] = [];
  let more = false;
  const walked = await walk(workspace.root, { base: baseOf(pattern), exclude, signal }, (file) => {
    if (!test(file.path)) return true;
    if (found.length === limit) {
      more = true;
      return false;
    }
    found.push(file.path);
    return true;
  });
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
export function listFilesTool(workspace: Workspace, exclude: Exclude): Tool {
  return tool(
    "list_files",
    "Lists the workspace's files matching a glob (paths relative to the root). Files ignored by .gitignore or files.exclude, node_modules and .git are left out unless the glob starts inside them.",
    input,
    ({ glob, limit }, signal) => listFiles(workspace, exclude, glob, limit, signal),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
