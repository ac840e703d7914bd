/**
 * The protected places inside a workspace folder that a sandboxed command gets read-only, though
 * the folder around them is writable: every path protected.ts names (`.git`, `.vscode`, hooks,
 * instruction files, package-manager files, `node_modules`…), every git-dir layout git would
 * accept (a folder with `HEAD`, `objects/` and `refs/`, bare or not), and what a `.git` file or a
 * protected link points to inside the folder. Found by walking the folder (links not followed; a
 * protected folder is taken whole, not walked).
 */

import { rmdirSync, type Dirent } from "node:fs";
import { lstat, mkdir, readdir, readFile, realpath } from "node:fs/promises";
import { join, relative, resolve } from "node:path";
import { protectedPart } from "./protected";
import { within } from "./sandbox-home";

/** Folders walked at most per workspace folder: past it the walk stops and says so. */
export const MAX_FOLDERS = 50_000;

/** What the walk found in one workspace folder. */
export interface Protected {
  /** Real paths to mount read-only, parents before what is inside them. */
  paths: string[];
  /** The walk stopped at `MAX_FOLDERS` folders: paths deeper than that were not looked at. */
  partial: boolean;
}

/** What git reads of a git directory: its configuration, hooks, refs and objects. */
const GIT_PARTS = new Set(["HEAD", "config", "hooks", "objects", "refs", "info", "packed-refs", "commondir"]);

/** True when a folder's entries make it a git directory: `HEAD`, `objects/` and `refs/`, as git itself checks. */
function gitLayout(entries: Dirent[]): boolean {
  const has = (name: string, folder: boolean) =>
    entries.some((e) => e.name === name && (folder ? e.isDirectory() : e.isFile() || e.isSymbolicLink()));
  return has("HEAD", false) && has("objects", true) && has("refs", true);
}

/** The folder a `.git` file points to (`gitdir: …`, a worktree's or a submodule's), if it says. */
async function gitdirOf(file: string, folder: string): Promise<string | undefined> {
  const text = await readFile(file, "utf8").catch(() => "");
  const found = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return found ? resolve(folder, found[1]) : undefined;
}

/**
 * The protected places in the workspace folder `root` (its real path): read-only in the sandbox.
 * A protected link is answered by the real path it points to when that is inside `root` (outside
 * it, the whole file system is read-only already).
 */
export async function protectedWithin(root: string, max = MAX_FOLDERS): Promise<Protected> {
  const top = await realpath(root).catch(() => resolve(root));
  const found = new Set<string>();
  const add = async (path: string) => {
    const real = await realpath(path).catch(() => undefined);
    if (real && within(top, real) && real !== top) found.add(real);
  };
  let queue = [top];
  let walked = 0;
  let partial = false;
  while (queue.length) {
    if (walked + queue.length > max) {
      partial = true;
      queue = queue.slice(0, Math.max(0, max - walked));
    }
    walked += queue.length;
    const next: string[] = [];
    await Promise.all(
      queue.map(async (folder) => {
        const entries = await readdir(folder, { withFileTypes: true }).catch(() => [] as Dirent[]);
        if (gitLayout(entries)) {
          if (folder !== top) return void found.add(folder);
          // The folder itself is a git directory: what git reads of it is kept, the rest stays writable.
          for (const e of entries) if (GIT_PARTS.has(e.name)) await add(join(folder, e.name));
        }
        for (const entry of entries) {
          const path = join(folder, entry.name);
          if (protectedPart(relative(top, path))) {
            await add(path);
            if (entry.name === ".git" && entry.isFile()) {
              const gitdir = await gitdirOf(path, folder);
              if (gitdir) await add(gitdir);
            }
          } else if (entry.isDirectory()) next.push(path);
        }
      }),
    );
    if (partial) break;
    queue = next;
  }
  // Parents first: a folder's read-only mount must not cover one made inside it later.
  return { paths: [...found].sort((a, b) => a.length - b.length || a.localeCompare(b)), partial };
}

/**
 * The protected folders a workspace folder may lack whose making would act outside the sandbox: a `.git`
 * made at the root (with `core.fsmonitor` or hooks in its config) is opened by VS Code's git, which then runs
 * them; a `.vscode` made there brings settings and tasks the editor reads. (A `.vscode` in a subfolder is
 * read by nobody; a `.git` in one is not covered here: see the README's known limits.)
 */
export const HELD_WHEN_MISSING = [".git", ".vscode"];

/** Placeholders held now, by path, with how many commands hold each. */
const holders = new Map<string, number>();

/**
 * Holds the places of `HELD_WHEN_MISSING` that the folder `root` (a real path) lacks with an empty folder,
 * which `protectedWithin` then finds and the sandbox mounts read-only, so a command can neither fill nor
 * remove it. `release` takes each one away again once no command holds it and it is still empty (an empty
 * `.git` or `.vscode` left by a crash means nothing to git or the editor).
 */
export async function holdMissing(root: string): Promise<{ release(): void }> {
  const held: string[] = [];
  for (const name of HELD_WHEN_MISSING) {
    const path = join(root, name);
    const count = holders.get(path);
    if (count !== undefined) {
      holders.set(path, count + 1);
      held.push(path);
      continue;
    }
    if (
      await lstat(path).then(
        () => true,
        () => false,
      )
    )
      continue;
    if (
      !(await mkdir(path).then(
        () => true,
        () => false,
      ))
    )
      continue;
    holders.set(path, 1);
    held.push(path);
  }
  let released = false;
  return {
    release() {
      if (released) return;
      released = true;
      for (const path of held) {
        const left = (holders.get(path) ?? 1) - 1;
        if (left > 0) holders.set(path, left);
        else {
          holders.delete(path);
          // At once, before the command's end is told: what it leaves is then the workspace as it was.
          try {
            rmdirSync(path);
          } catch {
            // Not empty (someone wrote in it outside the sandbox) or gone already: it stays as it is.
          }
        }
      }
    },
  };
}
