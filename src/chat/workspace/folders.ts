/**
 * A workspace of several folders (VS Code's multi-root workspace). With one folder, paths are
 * relative to it as always; with more, a path starts with its folder's name (`api/src/a.ts`), and
 * every guard (inside the folder, links, protected paths) applies within the folder it names.
 */

import { isAbsolute, relative, resolve } from "node:path";
import type { Tool } from "../../agent/types";
import { argsOf } from "../../protocol/args";
import { PathError, within } from "./paths";

/** One folder of the workspace: the name its paths start with, and where it is. */
export interface Folder {
  name: string;
  root: string;
}

/**
 * The folders of `roots` named as paths name them: each by its given name (or its folder's own
 * name), a name two folders share made unique with `-2`, `-3`; names with `/` or `\` lose them.
 */
export function nameFolders(roots: { root: string; name?: string }[]): Folder[] {
  const taken = new Set<string>();
  return roots.map(({ root, name }) => {
    const plain = (name ?? (resolve(root).split(/[\\/]/).pop() || "folder")).replace(/[\\/]+/g, "-");
    let unique = plain;
    for (let n = 2; taken.has(unique.toLowerCase()); n++) unique = `${plain}-${n}`;
    taken.add(unique.toLowerCase());
    return { name: unique, root };
  });
}

/** A path the model wrote, placed in its folder: the folder and the path relative to it. */
export interface Placed {
  folder: Folder;
  path: string;
}

/**
 * The folder `path` names and the rest of it. One folder: the path as it is. Several: the path's
 * first name is a folder's (or it is absolute inside one); `fallback` takes a path that names none.
 */
export function place(folders: Folder[], path: string, fallback?: Folder): Placed {
  if (folders.length === 1) return { folder: folders[0], path };
  if (isAbsolute(path)) {
    const folder = folders.find((f) => within(resolve(f.root), resolve(path)));
    if (folder) return { folder, path: relative(resolve(folder.root), resolve(path)) || "." };
  }
  const plain = path
    .trim()
    .replace(/\\/g, "/")
    .replace(/^(\.\/)+/, "");
  const slash = plain.indexOf("/");
  const first = slash < 0 ? plain : plain.slice(0, slash);
  const folder = folders.find((f) => f.name === first);
  if (folder) return { folder, path: slash < 0 ? "." : plain.slice(slash + 1) || "." };
  if (fallback) return { folder: fallback, path };
  throw new PathError(
    `The path "${path}" names no folder of the workspace: start it with a folder's name (${folders.map((f) => f.name).join(", ")}).`,
  );
}

/**
 * Where `path` may lie in a workspace of `folders` (named as the tools name them): in the folder
 * its first name names (or that holds it, absolute), then as written in each folder in order.
 */
export function placesOf(folders: readonly Folder[], path: string): Placed[] {
  const out: Placed[] = [];
  if (folders.length > 1) {
    try {
      out.push(place([...folders], path));
    } catch {
      // It names no folder: it is looked for in each.
    }
  }
  out.push(...folders.map((folder) => ({ folder, path })));
  return out;
}

/** The folder a glob starts with, with the rest of the glob; undefined when it names none (or there is one folder). */
export function folderOf(folders: Folder[], glob: string): Placed | undefined {
  if (folders.length === 1) return undefined;
  try {
    const placed = place(folders, glob);
    // `web/*.md` is web's own top: a name without `/` alone would match at any depth.
    const path = placed.path === "." ? "**/*" : placed.path.includes("/") ? placed.path : `./${placed.path}`;
    return { folder: placed.folder, path };
  } catch {
    return undefined;
  }
}

/** A path of `folder` as the model writes it: with the folder's name when there are several. */
export function named(folders: Folder[], folder: Folder, path: string): string {
  return folders.length === 1 ? path : path === "." || path === "" ? folder.name : `${folder.name}/${path}`;
}

/**
 * One tool over every folder: a call goes to the tool of the folder its `key` argument names
 * (`path`, or `cwd` for run_command), with that argument made relative to the folder.
 */
export function routed(folders: Folder[], tools: Map<Folder, Tool>, key: string, fallback?: Folder): Tool {
  const first = tools.get(folders[0]) as Tool;
  const names = folders.map((f) => f.name).join(", ");
  return {
    ...first,
    description: `${first.description} The workspace has several folders (${names}): a path starts with its folder's name.`,
    async run(args: string, signal: AbortSignal) {
      const input = argsOf(args);
      const asked = input[key];
      const where =
        typeof asked === "string"
          ? place(folders, asked, fallback)
          : { folder: fallback ?? folders[0], path: asked };
      const tool = tools.get(where.folder) as Tool;
      const answer = await tool.run(JSON.stringify({ ...input, [key]: where.path }), signal);
      return folders.length === 1 ? answer : `[In the folder ${where.folder.name}.]\n${answer}`;
    },
  };
}
