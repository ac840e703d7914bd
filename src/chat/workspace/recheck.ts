/**
 * The last check before a write: the person approved a path as it was when they were asked, and a
 * symbolic link swapped in since (by a watcher, a background command, another program) could make
 * the same path land outside the workspace or in a place that runs code (`.git/hooks`, `.vscode/`).
 * So containment and protection are looked at again right before the file is written.
 */
import { resolve } from "node:path";
import { inside, PathError } from "./paths";
import { protectedByName, protectedPart } from "./protected";

/**
 * Throws a PathError when writing `path` (absolute, shown as `shown`) inside the workspace `root`
 * is no longer what was approved: it leaves the workspace now, or a link leads it into a protected
 * place its own name does not say (a write there is asked about under its own name).
 */
export async function recheckWrite(root: string, path: string, shown: string): Promise<void> {
  let now: string;
  try {
    now = await inside(root, path);
  } catch (error) {
    if (!(error instanceof PathError)) throw error;
    throw new PathError(`${shown} was not written: it changed since it was approved. ${error.message}`);
  }
  if (resolve(now) !== resolve(path)) {
    throw new PathError(`${shown} was not written: it changed since it was approved.`);
  }
  const place = await protectedByName(root, path);
  if (place && !protectedPart(shown)) {
    throw new PathError(
      `${shown} was not written: a symbolic link leads it into a protected place (${place}), where a file can run code. ` +
        `A write there is asked about under its own name; it may have changed since the person approved this one.`,
    );
  }
}
