/**
 * Paths the agent names, resolved inside the workspace. A path that leaves the root — by `..`,
 * as an absolute path elsewhere, or through a symbolic link whose real path is elsewhere — is
 * refused before anything reads or writes it.
 */

import { lstat, realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";

/** Why a path was refused; the message is for the model and the person. */
export class PathError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "PathError";
  }
}

/** True when `path` is `root` or below it (both absolute and normalized). */
export function within(root: string, path: string): boolean {
  const rel = relative(root, path);
  return rel === "" || (rel !== ".." && !rel.startsWith(`..${sep}`) && !isAbsolute(rel));
}

/** The path as the model should write it: relative to `root`, with `/`, "." for the root itself. */
export function shown(root: string, path: string): string {
  const rel = relative(resolve(root), resolve(path));
  return rel === "" ? "." : rel.split(sep).join("/");
}

/** The real path of `path`, or of its deepest existing ancestor joined with the rest. */
async function realOf(path: string, asked: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    try {
      const real = await realpath(at);
      return rest.length ? join(real, ...rest.reverse()) : real;
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === "ELOOP")
        throw new PathError(`The path "${asked}" leads through a loop of symbolic links.`);
      if (code !== "ENOENT" && code !== "ENOTDIR") throw error;
    }
    // A name that lstat finds but realpath does not is a link to nothing: writing through it
    // would create its target wherever it points, so it is refused rather than followed.
    const dangling = await lstat(at).then(
      (s) => s.isSymbolicLink(),
      () => false,
    );
    if (dangling)
      throw new PathError(`The path "${asked}" goes through a symbolic link to a missing target.`);
    const parent = dirname(at);
    if (parent === at) return join(at, ...rest.reverse());
    rest.push(basename(at));
    at = parent;
  }
}

/**
 * The absolute path of `path` (relative to `root`, or absolute and already under it), refusing
 * `..` escapes, absolute paths elsewhere, NUL bytes and symbolic links whose real path leaves the
 * root (for a file not yet made, the real path of its deepest existing folder counts).
 */
export async function inside(root: string, path: string): Promise<string> {
  if (path.includes("\0")) throw new PathError(`The path ${JSON.stringify(path)} contains a NUL byte.`);
  const top = resolve(root);
  const realTop = await realpath(top).catch(() => top);
  const asked = path.trim() === "" ? "." : path;
  let absolute = isAbsolute(asked) ? resolve(asked) : resolve(top, asked);
  // An absolute path may name the root by its real path (a root reached through a link).
  if (!within(top, absolute) && within(realTop, absolute)) absolute = join(top, relative(realTop, absolute));
  if (!within(top, absolute)) throw new PathError(`The path "${asked}" is outside the workspace.`);
  const real = await realOf(absolute, asked);
  if (!within(realTop, real)) {
    throw new PathError(
      `The path "${asked}" is outside the workspace: it leads through a symbolic link out of it.`,
    );
  }
  return absolute;
}
