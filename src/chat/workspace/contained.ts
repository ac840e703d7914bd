/**
 * Files the panel may open when the person clicks a path ("go to file"): the path comes from a
 * tool's output, which a plugin controls, so only a regular file inside one of the workspace
 * folders is opened (real path, symbolic links resolved); anything else is refused with a reason.
 */

import { stat } from "node:fs/promises";
import { nameFolders, placesOf } from "./folders";
import { inside, PathError } from "./paths";

/**
 * The absolute path of `path` (relative to a workspace folder, named by its folder when there are
 * several, or absolute) when it names a regular file inside one of `folders`; throws a PathError
 * saying why not otherwise.
 */
export async function fileInFolders(
  folders: readonly (string | { root: string; name?: string })[],
  path: string,
): Promise<string> {
  if (!folders.length) throw new PathError(`Open a folder to go to ${JSON.stringify(path)}.`);
  let why = `${JSON.stringify(path)} is not a file in the workspace.`;
  const named = nameFolders(folders.map((f) => (typeof f === "string" ? { root: f } : f)));
  for (const at of placesOf(named, path)) {
    let absolute: string;
    try {
      absolute = await inside(at.folder.root, at.path);
    } catch (error) {
      if (!(error instanceof PathError)) throw error;
      why = `${error.message} Tandem opens only files in the workspace folders.`;
      continue;
    }
    const found = await stat(absolute).catch(() => undefined);
    if (found?.isFile()) return absolute;
    why = found
      ? `${JSON.stringify(path)} is not a regular file.`
      : `${JSON.stringify(path)} does not exist in the workspace.`;
  }
  throw new PathError(why);
}
