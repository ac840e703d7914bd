/**
 * What listing and searching leave out: the workspace's root `.gitignore`, the editor's
 * `files.exclude` map, and the folders no one means to search (`.git`, `node_modules`).
 */

import { access } from "node:fs/promises";
import { join } from "node:path";
import { readRegular } from "../../agent/regular";
import { globSource, normalize } from "./glob";

/** The editor's `files.exclude`: a glob to true (left out), false (kept) or a sibling condition. */
export type Exclude = Record<string, boolean | { when: string }>;

/** Folders left out unless the glob asked starts inside them. */
export const SKIPPED = new Set([".git", "node_modules"]);

/** One line of a .gitignore. */
export interface Rule {
  pattern: RegExp;
  negated: boolean;
  /** The line ended with `/`: it matches folders only. */
  folders: boolean;
}

/** The trailing spaces of a .gitignore line go unless escaped with `\`. */
function trimLine(line: string): string {
  let end = line.length;
  while (end > 0 && line[end - 1] === " " && line[end - 2] !== "\\") end--;
  return line.slice(0, end).replace(/\\ $/, " ");
}

/** The rules of a .gitignore's text (comments, negation, folder-only, anchored patterns, `**`). */
export function gitignore(text: string): Rule[] {
  const rules: Rule[] = [];
  for (const raw of text.split(/\r?\n/)) {
    let line = trimLine(raw);
    if (line === "" || line.startsWith("#")) continue;
    const negated = line.startsWith("!");
    if (negated) line = line.slice(1);
    else if (line.startsWith("\\!") || line.startsWith("\\#")) line = line.slice(1);
    const folders = line.endsWith("/");
    if (folders) line = line.replace(/\/+$/, "");
    if (line === "") continue;
    // A slash at the start or in the middle ties the pattern to the root; otherwise it matches
    // a name at any depth.
    const anchored = line.includes("/");
    if (line.startsWith("/")) line = line.slice(1);
    const body = globSource(line, { braces: false, trailingSelf: false });
    rules.push({ pattern: new RegExp(anchored ? `^${body}$` : `^(?:.*\\/)?${body}$`), negated, folders });
  }
  return rules;
}

/** The decision of `rules` on `path`: the last rule that matches wins. */
export function ignoredBy(rules: Rule[], path: string, folder: boolean): boolean {
  let ignored = false;
  for (const rule of rules) {
    if (rule.folders && !folder) continue;
    if (rule.negated === ignored && rule.pattern.test(path)) ignored = !rule.negated;
  }
  return ignored;
}

interface ExcludeRule {
  pattern: RegExp;
  /** `$(basename).ts`: left out only when that sibling exists. */
  when?: string;
}

/** The rules of a `files.exclude` map (false entries are dropped). */
function excludeRules(exclude: Exclude): ExcludeRule[] {
  const out: ExcludeRule[] = [];
  for (const [glob, value] of Object.entries(exclude)) {
    if (value === false) continue;
    const source = globSource(normalize(glob), { braces: true, trailingSelf: true });
    out.push({
      pattern: new RegExp(`^${source}$`),
      when: typeof value === "object" ? value.when : undefined,
    });
  }
  return out;
}

/** What a walk leaves out of one workspace. */
export class Ignore {
  private constructor(
    private readonly root: string,
    private readonly rules: Rule[],
    private readonly excluded: ExcludeRule[],
  ) {}

  /** The ignore of `root`: its .gitignore as it is now, and `exclude`. */
  static async of(root: string, exclude: Exclude = {}): Promise<Ignore> {
    // Read only when it is a regular file: a .gitignore that is a named pipe would block the walk.
    const text = await readRegular(join(root, ".gitignore")).then(
      (data) => data.toString("utf8"),
      () => "",
    );
    return new Ignore(root, gitignore(text), excludeRules(exclude));
  }

  /** True when the file or folder at `path` (relative, with `/`) is left out. */
  async ignores(path: string, folder: boolean): Promise<boolean> {
    if (ignoredBy(this.rules, path, folder)) return true;
    for (const rule of this.excluded) {
      if (!rule.pattern.test(path)) continue;
      if (rule.when === undefined) return true;
      if (await this.siblingExists(path, rule.when)) return true;
    }
    return false;
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
