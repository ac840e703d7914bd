/**
 * The files of a workspace folder, in name order, without what the ignore leaves out. Linked
 * folders are not entered (no loops, no way out); a linked file counts only when its real path
 * is inside the workspace.
 */

import { lstat, readdir, realpath, stat } from "node:fs/promises";
import { join } from "node:path";
import { normalize, searchGlob } from "./glob";
import { Ignore, SKIPPED, type Exclude } from "./ignore";
import { inside, within } from "./paths";

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

/** Calls `each` on every file under `base` in name order until it returns false; says if the budget ran out. */
export async function walk(
  root: string,
  options: WalkOptions,
  each: (file: Found) => boolean | Promise<boolean>,
): Promise<Walked> {
  const ignore = await Ignore.of(root, options.exclude, options.base);
  const realRoot = await realpath(root);
  const start = await inside(root, options.base);
  const startStat = await stat(start).catch(() => undefined);
  if (!startStat?.isDirectory()) return { stopped: false };
  let budget = options.budget ?? 50_000;
  // A stack of folders still to read, the next one last, so files come out in name order.
  const stack: { absolute: string; path: string }[] = [{ absolute: start, path: options.base }];
  while (stack.length) {
    options.signal?.throwIfAborted();
    const folder = stack.pop() as { absolute: string; path: string };
    const entries = await readdir(folder.absolute, { withFileTypes: true }).catch(() => []);
    entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    const folders: { absolute: string; path: string }[] = [];
    for (const entry of entries) {
      if (--budget < 0) return { stopped: true };
      const absolute = join(folder.absolute, entry.name);
      const path = folder.path ? `${folder.path}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (SKIPPED.has(entry.name) || (await ignore.ignores(path, true))) continue;
        folders.push({ absolute, path });
        continue;
      }
      let size: number;
      if (entry.isSymbolicLink()) {
        const target = await realpath(absolute).catch(() => undefined);
        if (!target || !within(realRoot, target)) continue;
        const s = await stat(target);
        if (!s.isFile()) continue;
        size = s.size;
      } else if (entry.isFile()) {
        size = (await lstat(absolute)).size;
      } else continue;
      if (await ignore.ignores(path, false)) continue;
      if (!(await each({ path, absolute, size }))) return { stopped: false };
    }
    for (const next of folders.reverse()) stack.push(next);
  }
  return { stopped: false };
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
