/**
 * Git directories by their layout, whatever their name. Git takes a folder holding `HEAD`,
 * `objects/` and `refs/` (or `HEAD` and a `commondir` naming where those are) for a repository:
 * `git --git-dir`, `GIT_DIR`, a `.git` file's `gitdir:` line or a bare clone lead git there, and its
 * `config` (`core.fsmonitor`, `core.pager`…) runs programs on an allowed `git status`. So a folder
 * laid out so is protected like `.git/`, and so is the write that would complete one: any two of
 * its markers, the written file counted, are enough, which asks before the layout is whole in
 * whatever order its files are written.
 */
import { stat } from "node:fs/promises";
import { dirname, isAbsolute, join, relative, sep } from "node:path";

/** What marks a git directory: the name in it, and whether it is a folder (else a file). */
const MARKERS: [name: string, folder: boolean][] = [
  ["head", false],
  ["objects", true],
  ["refs", true],
  ["commondir", false],
];

/** How many markers make a folder a git directory here (see the file's comment). */
const ENOUGH = 2;

/** The kind of what is at `path`: a folder, a file, or nothing (links followed, as git follows them). */
async function kindAt(path: string): Promise<"folder" | "file" | undefined> {
  const info = await stat(path).catch(() => undefined);
  if (!info) return undefined;
  return info.isDirectory() ? "folder" : "file";
}

/** The real name on disk of a marker, in the case git writes it. */
function onDisk(name: string): string {
  return name === "head" ? "HEAD" : name;
}

/**
 * The git directory `absolute` (a path inside the folder `root`, made or not) lies in, or that a
 * write of it would make, as a protected place ("lib/store/ (a git directory)"); undefined when
 * there is none. Each folder from the path's own up to `root` is looked at.
 */
export async function gitLayoutIn(root: string, absolute: string): Promise<string | undefined> {
  const rel = relative(root, absolute);
  if (rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel)) return undefined;
  for (let folder = dirname(absolute); ; folder = dirname(folder)) {
    const below = relative(folder, absolute)
      .split(/[\\/]+/)
      .map((part) => part.toLowerCase());
    let found = 0;
    for (const [name, isFolder] of MARKERS) {
      // The write itself counts: HEAD written here, or a file written under objects/ or refs/.
      const writes = isFolder
        ? below.length > 1 && below[0] === name
        : below.length === 1 && below[0] === name;
      const kind = writes ? undefined : await kindAt(join(folder, onDisk(name)));
      if (writes || kind === (isFolder ? "folder" : "file")) found++;
    }
    if (found >= ENOUGH) {
      const shown = relative(root, folder).split(sep).join("/");
      return `${shown === "" ? "." : shown}/ (a git directory)`;
    }
    if (folder === root || dirname(folder) === folder) return undefined;
  }
}
