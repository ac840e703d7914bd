/** The `list_files` tool: the workspace's files that match a glob, without ignored ones. */

import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import type { Workspace } from "./editor";
import { baseOf, globTest } from "./glob";
import type { Exclude } from "./ignore";
import { count } from "./counts";
import { folderOf, named, type Folder } from "./folders";
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

/** What a listing found: the glob it listed, the files, whether more matched, and whether the walk stopped early. */
interface Listed {
  pattern: string;
  found: string[];
  more: boolean;
  stopped: boolean;
}

/** The workspace files matching `glob`, one path a line, capped at `limit` with a note when capped. */
export async function listFiles(
  workspace: Workspace,
  exclude: Exclude,
  glob = "**/*",
  limit = MAX_FILES,
  signal?: AbortSignal,
  ripgrep?: string,
): Promise<string> {
  return listedText(await filesOf(workspace, exclude, glob, limit, signal, ripgrep), limit);
}

/**
 * The files of every folder matching `glob`, named by folder (`api/src/a.ts`): a glob that starts
 * with a folder's name lists that folder only. Capped at `limit` in all.
 */
export async function listFilesIn(
  folders: Folder[],
  exclude: Exclude,
  glob = "**/*",
  limit = MAX_FILES,
  signal?: AbortSignal,
  ripgrep?: string,
): Promise<string> {
  const one = folderOf(folders, glob);
  const asked = one ? [one] : folders.map((folder) => ({ folder, path: glob }));
  const all: Listed = {
    pattern: named(folders, asked[0].folder, ""),
    found: [],
    more: false,
    stopped: false,
  };
  for (const { folder, path } of asked) {
    if (all.found.length === limit) {
      all.more = true;
      break;
    }
    const listed = await filesOf(
      { root: folder.root },
      exclude,
      path,
      limit - all.found.length,
      signal,
      ripgrep,
    );
    all.pattern = one ? named(folders, folder, listed.pattern) : listed.pattern;
    all.found.push(...listed.found.map((file) => named(folders, folder, file)));
    all.more ||= listed.more;
    all.stopped ||= listed.stopped;
  }
  return listedText(all, limit);
}

/** A listing as the tool answers it. */
function listedText({ pattern, found, more, stopped }: Listed, limit: number): string {
  if (found.length === 0) {
    const note = stopped ? " among the files looked at before the walk stopped" : "";
    return `No file matches ${pattern}${note} (files ignored by .gitignore or files.exclude, and node_modules and .git, are not listed).`;
  }
  const lines = [
    `${count(found.length, "file")} matching ${pattern}${more ? " (the first ones)" : ""}:`,
    ...found,
  ];
  if (more) lines.push(`[Only the first ${limit} files are listed; give a narrower glob to see the others.]`);
  else if (stopped) lines.push("[The workspace is large: the walk stopped early; give a narrower glob.]");
  return lines.join("\n");
}

/** The files of one folder matching `glob`, in path order, up to `limit`. */
async function filesOf(
  workspace: Workspace,
  exclude: Exclude,
  glob: string,
  limit: number,
  signal?: AbortSignal,
  ripgrep?: string,
): Promise<Listed> {
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
  return { pattern, found, more, stopped: walked.stopped };
}

/** The `list_files` tool of the workspace's folders, leaving out what `exclude` (the editor's files.exclude) and .gitignore do. */
export function listFilesTool(folders: Folder[], exclude: Exclude, ripgrep?: string): Tool {
  const several =
    folders.length > 1
      ? ` The workspace has several folders (${folders.map((f) => f.name).join(", ")}): paths start with the folder's name, and a glob that does lists that folder only.`
      : "";
  return tool(
    "list_files",
    `Lists the workspace's files matching a glob (paths relative to the root). Files ignored by .gitignore or files.exclude, node_modules and .git are left out unless the glob starts inside them.${several}`,
    input,
    ({ glob, limit }, signal) => listFilesIn(folders, exclude, glob, limit, signal, ripgrep),
    { readOnly: true, timeoutMs: 30_000 },
  );
}
