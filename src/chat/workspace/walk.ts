/**
 * The files of a workspace folder, in path order, without what the ignore leaves out. Only
 * regular files and folders count: a symbolic link is never followed (no loops, no way out).
 */

import { lstat, readdir, stat } from "node:fs/promises";
import { join } from "node:path";
import { normalize, searchGlob } from "./glob";
import { Ignore, SKIPPED, type Exclude } from "./ignore";
import { inside } from "./paths";

/** A file found by `walk`. */
export interface Found {
  /** Relative to the root, with `/`. */
  path: string;
  absolute: string;
  size: number;
}

/** What to walk and how far. */
export interface WalkOptions {
  /** The folder to start in, relative to the root ("" for the root). */
  base: string;
  exclude?: Exclude;
  /** Entries (files and folders) looked at before the walk stops. */
  budget?: number;
  signal?: AbortSignal;
}

/** How a walk ended. */
export interface Walked {
  /** The walk looked at its whole budget and stopped early. */
  stopped: boolean;
}

/** Calls `each` on every file under `base` in path order until it returns false; says if the budget ran out. */
export async function walk(
  root: string,
  options: WalkOptions,
  each: (file: Found) => boolean | Promise<boolean>,
): Promise<Walked> {
  const ignore = await Ignore.of(root, options.exclude, options.base);
  const start = await inside(root, options.base);
  const startStat = await stat(start).catch(() => undefined);
  if (!startStat?.isDirectory()) return { stopped: false };
  let budget = options.budget ?? 50_000;
  type Folder = { absolute: string; path: string };
  /** Walks one folder, entering each subfolder where its name falls; "stop", "budget" or "on". */
  const visit = async (folder: Folder): Promise<"stop" | "budget" | "on"> => {
    options.signal?.throwIfAborted();
    const entries = await readdir(folder.absolute, { withFileTypes: true }).catch(() => []);
    // Files and folders together by name, as ripgrep's `--sort path` walks, so both paths list alike.
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    for (const entry of entries) {
      if (--budget < 0) return "budget";
      const absolute = join(folder.absolute, entry.name);
      const path = folder.path ? `${folder.path}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIPPED.has(entry.name) || (await ignore.ignores(path, true))) continue;
        const ended = await visit({ absolute, path });
        if (ended !== "on") return ended;
        continue;
      }
      // Only regular files: a link is not followed (in or out of the workspace), as ripgrep without --follow.
      if (!entry.isFile()) continue;
      if (await ignore.ignores(path, false)) continue;
      const size = (await lstat(absolute)).size;
      if (!(await each({ path, absolute, size }))) return "stop";
    }
    return "on";
  };
  return { stopped: (await visit({ absolute: start, path: options.base })) === "budget" };
}

/** The glob to walk for what the model wrote: a folder's name means its files; see `searchGlob`. */
export async function scope(root: string, glob: string): Promise<string> {
  const plain = normalize(glob);
  if (plain === ".") return "**/*";
  if (!/[*?[\]{}]/.test(plain)) {
    const s = await stat(await inside(root, plain)).catch((error: Error) => {
      if (error.name === "PathError") throw error;
      return undefined;
    });
    if (s?.isDirectory()) return `${plain}/**`;
  }
  return searchGlob(glob);
}
