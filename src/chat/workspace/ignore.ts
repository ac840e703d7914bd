/**
 * What listing and searching leave out: the workspace's `.gitignore` files (the root's and every
 * folder's own, as git reads them), the editor's `files.exclude` map, and the folders no one means
 * to search (`.git`, `node_modules`). The .gitignore rules are the `ignore` package's.
 */

import { access } from "node:fs/promises";
import { join } from "node:path";
import ignore, { type Ignore as Rules } from "ignore";
import { readRegular } from "../../agent/regular";
import { globTest } from "./glob";

/** The editor's `files.exclude`: a glob to true (left out), false (kept) or a sibling condition. */
export type Exclude = Record<string, boolean | { when: string }>;

/** Folders left out unless the glob asked starts inside them. */
export const SKIPPED = new Set([".git", "node_modules"]);

export type { Rules };

/** The rules of a .gitignore's text. */
export function gitignore(text: string): Rules {
  return ignore({ allowRelativePaths: true }).add(text);
}

/**
 * What one .gitignore says of `path` (relative to the file's folder): ignored, kept by a negation,
 * or nothing (a folder is written with a trailing `/` so folder-only rules see it).
 */
function said(rules: Rules, path: string, folder: boolean): boolean | undefined {
  const r = rules.test(folder ? `${path}/` : path);
  return r.ignored ? true : r.unignored ? false : undefined;
}

/** The decision of one .gitignore's `rules` on `path`: the last rule that matches wins. */
export function ignoredBy(rules: Rules, path: string, folder: boolean): boolean {
  return said(rules, path, folder) === true;
}

interface ExcludeRule {
  test: (path: string) => boolean;
  /** `$(basename).ts`: left out only when that sibling exists. */
  when?: string;
}

/** The rules of a `files.exclude` map (false entries are dropped). */
function excludeRules(exclude: Exclude): ExcludeRule[] {
  const out: ExcludeRule[] = [];
  for (const [glob, value] of Object.entries(exclude)) {
    if (value === false) continue;
    out.push({ test: globTest(glob), when: typeof value === "object" ? value.when : undefined });
  }
  return out;
}

/** What a walk leaves out of one workspace. */
export class Ignore {
  /** Each folder's .gitignore (null: it has none), read once per walk, by folder ("" the root). */
  private readonly files = new Map<string, Promise<Rules | null>>();

  /** The ignored folder the walk was asked to start in, if any: inside it only name patterns apply. */
  private entered: string | undefined;

  private constructor(
    private readonly root: string,
    private readonly excluded: ExcludeRule[],
  ) {}

  /**
   * The ignore of `root` with `exclude` for a walk from `base`; each folder's .gitignore is read
   * when the walk reaches it. A walk the person started inside an ignored folder lists it.
   */
  static async of(root: string, exclude: Exclude = {}, base = ""): Promise<Ignore> {
    const made = new Ignore(root, excludeRules(exclude));
    if (base && (await made.gitIgnores(base, true))) made.entered = `${base}/`;
    return made;
  }

  /** True when the file or folder at `path` (relative, with `/`) is left out. */
  async ignores(path: string, folder: boolean): Promise<boolean> {
    if (await this.gitIgnores(path, folder)) return true;
    for (const rule of this.excluded) {
      if (!rule.test(path)) continue;
      if (rule.when === undefined) return true;
      if (await this.siblingExists(path, rule.when)) return true;
    }
    return false;
  }

  /** The deepest .gitignore that speaks of `path` decides, as in git (the walk never enters an ignored folder). */
  private async gitIgnores(path: string, folder: boolean): Promise<boolean> {
    const names = path.split("/");
    // Inside an entered folder, a path's own name is judged (its ignored parents would hide it all).
    const nameOnly = this.entered !== undefined && path.startsWith(this.entered);
    for (let depth = names.length - 1; depth >= 0; depth--) {
      const rules = await this.rulesOf(names.slice(0, depth).join("/"));
      const asked = nameOnly ? names[names.length - 1] : names.slice(depth).join("/");
      const verdict = rules && said(rules, asked, folder);
      if (verdict !== undefined && verdict !== null) return verdict;
    }
    return false;
  }

  private rulesOf(folder: string): Promise<Rules | null> {
    let rules = this.files.get(folder);
    if (!rules) {
      // Read only when it is a regular file: a .gitignore that is a named pipe would block the walk.
      rules = readRegular(join(this.root, folder, ".gitignore")).then(
        (data) => gitignore(data.toString("utf8")),
        () => null,
      );
      this.files.set(folder, rules);
    }
    return rules;
  }

  private async siblingExists(path: string, when: string): Promise<boolean> {
    const slash = path.lastIndexOf("/");
    const folder = path.slice(0, slash + 1);
    const name = path.slice(slash + 1);
    const dot = name.lastIndexOf(".");
    const base = dot > 0 ? name.slice(0, dot) : name;
    const sibling = folder + when.split("$(basename)").join(base);
    return access(join(this.root, sibling)).then(
      () => true,
      () => false,
    );
  }
}
