/**
 * The repository's own configuration that changes what an allowed command runs: a `.npmrc` whose
 * `script-shell` makes `npm test` run another shell, a git configuration whose `core.fsmonitor`
 * makes `git status` run a program — in any layout git accepts (`.git/config`, a `.git` file's
 * `gitdir:`, a bare repository's `HEAD`, `config`, `objects/`, `refs/` in a folder with no `.git`),
 * in the command's folder or any parent inside the workspace. Such a setting voids the person's
 * rule for the command: it is asked, and the question says which file and which setting.
 */
import { readFile, stat } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import { t } from "../../protocol/l10n";
import { programName } from "./command-programs";
import { within } from "./paths";
import { shownIn } from "./unreviewed";
import { visible } from "./visible";

/** Where a command runs: its folder (absolute) and the workspace folders (absolute). */
export interface Where {
  cwd: string;
  roots: readonly string[];
}

/** npm's (and pnpm's) settings that run a program, load code or read settings from elsewhere. */
const NPMRC_RISKY = new Set([
  "script-shell",
  "shell",
  "node-options",
  "onload-script",
  "node-gyp",
  "userconfig",
  "globalconfig",
  "init-module",
  "editor",
  "browser",
  "git",
  "prefix",
  "call",
  "yarn-path",
  "pnpmfile",
  "global-pnpmfile",
]);

/** Settings of yarn's `.yarnrc.yml` (and yarn 1's `.yarnrc`) that run a file, and bun's `bunfig.toml` preload. */
const YARN_RISKY = /^\s*["']?(yarnPath|yarn-path|plugins|preload)["']?\s*[:=\s]/im;

/** git settings that name a program to run (section.key, lower case), when no subsection. */
const GIT_KEYS = new Set([
  "core.fsmonitor",
  "core.pager",
  "core.sshcommand",
  "core.editor",
  "core.hookspath",
  "core.gitproxy",
  "core.askpass",
  "core.worktree",
  "core.alternaterefscommand",
  "diff.external",
  "diff.tool",
  "merge.tool",
  "sequence.editor",
  "gpg.program",
  "credential.helper",
  "interactive.difffilter",
  "web.browser",
  "uploadpack.packobjectshook",
  "include.path",
  "sendemail.smtpserver",
  "imap.tunnel",
]);

/** git settings with a subsection (section.*.key) that name a program to run or another file. */
const GIT_SUB_KEYS = new Set([
  "diff.textconv",
  "diff.command",
  "merge.driver",
  "filter.clean",
  "filter.smudge",
  "filter.process",
  "difftool.cmd",
  "mergetool.cmd",
  "browser.cmd",
  "browser.path",
  "credential.helper",
  "gpg.program",
  "includeif.path",
  "remote.uploadpack",
  "remote.receivepack",
  "remote.vcs",
]);

/** The first git setting of the config text `text` that makes git run a program, as `section.key`. */
export function riskyGitSetting(text: string): string | undefined {
  let section = "";
  let sub: string | undefined;
  for (const raw of text.split(/\r?\n/)) {
    let line = raw.trim();
    const header = /^\[\s*([A-Za-z0-9.-]+)(?:\s+"((?:[^"\\]|\\.)*)")?\s*\](.*)$/.exec(line);
    if (header) {
      // `[diff "x"]`, or the old `[diff.x]`.
      const [name, ...rest] = header[1].split(".");
      section = name.toLowerCase();
      sub = header[2] ?? (rest.length ? rest.join(".") : undefined);
      line = header[3].trim();
    }
    const entry = /^([A-Za-z][A-Za-z0-9-]*)\s*(?:=\s*(.*))?$/.exec(line);
    if (!entry || line.startsWith("#") || line.startsWith(";")) continue;
    const key = entry[1].toLowerCase();
    const value = (entry[2] ?? "").trim().replace(/^"|"$/g, "");
    const shown = sub === undefined ? `${section}.${key}` : `${section}.${sub}.${key}`;
    if (section === "alias" || section === "pager") return shown;
    if (sub === undefined && GIT_KEYS.has(`${section}.${key}`)) {
      // `core.fsmonitor=true` is git's own daemon, not a program of the repository.
      if (key === "fsmonitor" && /^(true|false|yes|no|on|off|0|1)?$/i.test(value)) continue;
      return shown;
    }
    if (sub !== undefined && GIT_SUB_KEYS.has(`${section}.${key}`)) return shown;
    if (section === "remote" && key === "url" && /^(ext|fd)::/i.test(value)) return shown;
    if (section === "submodule" && key === "update" && value.startsWith("!")) return shown;
    if (section === "protocol" && key === "allow" && /^always$/i.test(value)) return shown;
  }
  return undefined;
}

async function isFile(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isFile(),
    () => false,
  );
}

async function isDir(path: string): Promise<boolean> {
  return stat(path).then(
    (s) => s.isDirectory(),
    () => false,
  );
}

async function text(path: string): Promise<string | undefined> {
  return readFile(path, "utf8").catch(() => undefined);
}

/** The folders from `cwd` up to the workspace folder that holds it (none when no folder holds it). */
function upward(where: Where): string[] {
  const cwd = resolve(where.cwd);
  const root = where.roots.map((r) => resolve(r)).find((r) => within(r, cwd));
  if (!root) return [];
  const out: string[] = [];
  for (let dir = cwd; within(root, dir); dir = dirname(dir)) {
    out.push(dir);
    if (dir === root) break;
  }
  return out;
}

/** True when `dir` is laid out as a git folder (what git looks for before it uses one: HEAD, objects, refs). */
async function gitFolder(dir: string): Promise<boolean> {
  if (!(await isFile(join(dir, "HEAD")))) return false;
  if (await isFile(join(dir, "commondir"))) return true;
  return (await isDir(join(dir, "objects"))) && (await isDir(join(dir, "refs")));
}

/** Every git folder git could use from the folders `dirs`: `.git` folders, `.git` files' `gitdir:`, bare layouts. */
async function gitFolders(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const dir of dirs) {
    const dotGit = join(dir, ".git");
    if (await isDir(dotGit)) out.push(dotGit);
    else {
      const pointer = /^gitdir:\s*(.+?)\s*$/m.exec((await text(dotGit)) ?? "");
      if (pointer) out.push(resolve(dir, pointer[1]));
    }
    if (await gitFolder(dir)) out.push(dir);
  }
  // A linked worktree's folder names the repository's own (its `commondir`), whose config git reads too.
  for (const folder of [...out]) {
    const common = (await text(join(folder, "commondir")))?.trim();
    if (common) out.push(resolve(folder, common));
  }
  return [...new Set(out)];
}

/** The file and setting of the git configuration git would read from `where` that runs a program, if any. */
async function gitReason(where: Where): Promise<string | undefined> {
  for (const folder of await gitFolders(upward(where))) {
    if (!where.roots.some((r) => within(resolve(r), folder)))
      return t(
        "The repository's git folder is outside the workspace ({0}): git reads its settings there, so your rule does not cover this command.",
        visible(folder),
      );
    for (const name of ["config", "config.worktree"]) {
      const file = join(folder, name);
      const setting = riskyGitSetting((await text(file)) ?? "");
      if (setting)
        return t(
          "The repository's git settings ({0}) set {1}, which makes git run a program: your rule does not cover this command.",
          visible(shownIn(where.roots, file)),
          visible(setting),
        );
    }
  }
  return undefined;
}

/** npm's and yarn's files that set what a package script runs, by program. */
const PACKAGE_FILES: Record<string, readonly string[]> = {
  npm: [".npmrc"],
  pnpm: [".npmrc"],
  yarn: [".npmrc", ".yarnrc", ".yarnrc.yml"],
  bun: [".npmrc", "bunfig.toml"],
};

/** The first risky key of an `.npmrc` text (`script-shell=./x`, `node_options`), if any. */
export function riskyNpmrcSetting(text: string): string | undefined {
  for (const raw of text.split(/\r?\n/)) {
    const line = raw.trim();
    if (!line || line.startsWith("#") || line.startsWith(";")) continue;
    const key = line
      .split("=")[0]
      .trim()
      .replace(/\[\]$/, "")
      .replace(/^["']|["']$/g, "")
      .toLowerCase()
      .replace(/_/g, "-");
    if (NPMRC_RISKY.has(key)) return key;
  }
  return undefined;
}

/** The package manager's setting that changes what it runs, as a reason, if any. */
async function packageReason(program: string, where: Where): Promise<string | undefined> {
  for (const dir of upward(where)) {
    for (const name of PACKAGE_FILES[program] ?? []) {
      const file = join(dir, name);
      const content = await text(file);
      if (content === undefined) continue;
      const setting = name === ".npmrc" ? riskyNpmrcSetting(content) : YARN_RISKY.exec(content)?.[1];
      if (setting)
        return t(
          "The repository's {0} sets {1}, which changes what {2} runs: your rule does not cover this command.",
          visible(shownIn(where.roots, file)),
          visible(setting),
          program,
        );
    }
  }
  return undefined;
}

/** What cmd.exe runs for a bare command name, tried in the command's folder before the PATH. */
const WINDOWS_RUNS = [".com", ".exe", ".bat", ".cmd"];

/** The file in `cwd` that cmd.exe runs instead of the program the part names, as a reason, if any. */
async function windowsReason(
  parts: readonly (readonly string[])[],
  where: Where,
): Promise<string | undefined> {
  for (const part of parts) {
    const word = part[0] ?? "";
    if (/[\\/:]/.test(word)) continue;
    // A name with an extension (`git.exe`) is tried as it is too.
    for (const ext of word.includes(".") ? ["", ...WINDOWS_RUNS] : WINDOWS_RUNS) {
      const file = join(where.cwd, word + ext);
      if (await isFile(file))
        return t(
          "On Windows, {0} in the command's folder runs instead of the program: your rule does not cover this command.",
          visible(shownIn(where.roots, file)),
        );
    }
  }
  return undefined;
}

/**
 * Why the repository's configuration voids a rule for the command parts `parts` run in `where` on
 * `platform` (the first reason found), or undefined when nothing in it changes what they run.
 */
export async function configVoids(
  parts: readonly (readonly string[])[],
  where: Where,
  platform: string = process.platform,
): Promise<string | undefined> {
  if (platform === "win32") {
    const why = await windowsReason(parts, where);
    if (why) return why;
  }
  const programs = new Set(parts.map((part) => programName(part[0] ?? "")));
  if (programs.has("git")) {
    const why = await gitReason(where);
    if (why) return why;
  }
  for (const program of programs) {
    if (!Object.hasOwn(PACKAGE_FILES, program)) continue;
    const why = await packageReason(program, where);
    if (why) return why;
  }
  return undefined;
}
