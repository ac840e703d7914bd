/**
 * Protected paths: places where a written file can run code on the person's machine without
 * anyone running it on purpose — git hooks and `.git/config` (`core.fsmonitor` runs on the next
 * `git status`), the editor's workspace settings and tasks, dev containers, CI workflows, package
 * manager and shell-environment files, and what the editor's extensions load by themselves (the
 * libraries in `node_modules/`, the configs of Prettier, ESLint, Babel, Stylelint, Jest and the like,
 * JSON ones too, loaded as soon as a file is open or saved; `package.json`'s keys for them are in
 * protected-keys.ts), and the executables an allowed command runs in its stead (`node_modules/.bin/`,
 * a virtual environment's `bin/` that `pytest` runs, `.tox/`), every folder laid out as a git
 * directory (see git-layout.ts), and the files that instruct agents (`AGENTS.md`, `CLAUDE.md`,
 * `.github/copilot-instructions.md`, prompts, skills, `.tandem/`): every later conversation reads
 * them, so text written there steers the agent before the person has read it. A write there is
 * always asked, and no "Always allow" or setting covers it. Matched case-insensitively on the real
 * path, links resolved.
 */

import { realpath } from "node:fs/promises";
import { basename, dirname, isAbsolute, join, relative, resolve, sep } from "node:path";
import { place, type Folder, type Placed } from "./folders";
import { gitLayoutIn } from "./git-layout";

/** Folders whose contents can run code: any path with one of these as a part is protected. */
const FOLDERS = [".git", ".vscode", ".devcontainer", ".husky", "node_modules", ".venv", ".tox", ".nox"];

/** Usual names of a Python virtual environment made beside the code (`python -m venv venv`). */
const VENVS = ["venv", "env"];

/** What a virtual environment holds that runs: its executables, its libraries, its configuration. */
const VENV_PARTS = new Set(["bin", "scripts", "lib", "lib64", "pyvenv.cfg"]);

/**
 * Configs the editor's extensions load on their own (formatting on save, linting an open file,
 * a test explorer listing tests): a JavaScript config runs, and a JSON or YAML one names the
 * plugins, parsers and presets that are loaded from the workspace and run.
 */
const RC_CONFIGS = /^(\.prettierrc|\.eslintrc|\.babelrc|\.stylelintrc|\.postcssrc|\.mocharc)(\..+)?$/;
const NAMED_CONFIGS =
  /^(prettier|eslint|babel|stylelint|jest|vitest|vite|postcss|tailwind|svelte|playwright)\.config\.[^.]+$/;

/** Files anywhere that agents read as their instructions, by name (lower case) and as shown. */
const INSTRUCTION_FILES = new Map([
  ["agents.md", "AGENTS.md"],
  ["claude.md", "CLAUDE.md"],
  ["claude.local.md", "CLAUDE.local.md"],
  [".cursorrules", ".cursorrules"],
]);

/** Folders anywhere whose files instruct agents: assistants, skills, prompts, Claude Code's hooks. */
const INSTRUCTION_FOLDERS = [".tandem", ".claude", ".clinerules"];

/** What `.github/` holds that instructs agents (Copilot's instructions, prompts, agents; skills). */
const GITHUB_INSTRUCTIONS = ["instructions", "prompts", "skills", "agents", "chatmodes"];

/** The places `protectedPart` names for instruction files, so the question can say what they do. */
const INSTRUCTION_PLACES = new Set([
  ...INSTRUCTION_FILES.values(),
  ...INSTRUCTION_FOLDERS.map((name) => `${name}/`),
  ...GITHUB_INSTRUCTIONS.map((name) => `.github/${name}/`),
  ".github/copilot-instructions.md",
]);

/** True when the protected place `place` (as `protectedPart` names it) holds agents' instructions. */
export function instructs(place: string): boolean {
  return INSTRUCTION_PLACES.has(place);
}

/** Why a path is protected, in words for the question. */
export const RUNS_CODE = "can run code on your machine";

/**
 * One part of a path as the file system may read it: lower case, without the trailing dots and
 * spaces Windows drops, and without an NTFS stream suffix (`.git::$INDEX_ALLOCATION` is `.git`).
 */
function normalPart(part: string): string {
  const stream = part.indexOf(":");
  const bare = stream > 0 ? part.slice(0, stream) : part;
  return bare.toLowerCase().replace(/[. ]+$/, "");
}

/** True when `part` (normalized) names the folder `folder`, or is its Windows short name (`GIT~1`). */
function names(part: string, folder: string): boolean {
  if (part === folder) return true;
  const short = folder.replace(/^\./, "").slice(0, 6);
  return new RegExp(`^${short.replace(/[.]/g, "\\.")}~\\d+$`).test(part);
}

/**
 * The protected place `path` falls in (such as ".git/" or ".npmrc"), or undefined. `path` is
 * relative or absolute, with `/` or `\`; every part is looked at, so a nested `sub/.git/hooks`
 * counts too.
 */
export function protectedPart(path: string): string | undefined {
  const parts = path
    .split(/[\\/]+/)
    .filter((p) => p !== "" && p !== ".")
    .map(normalPart);
  for (const [i, part] of parts.entries()) {
    for (const folder of FOLDERS) if (names(part, folder)) return `${folder}/`;
    for (const folder of INSTRUCTION_FOLDERS) if (names(part, folder)) return `${folder}/`;
    if (part === ".github" && parts[i + 1] === "workflows") return ".github/workflows/";
    if (part === ".github" && GITHUB_INSTRUCTIONS.includes(parts[i + 1])) return `.github/${parts[i + 1]}/`;
    if (part === ".github" && parts[i + 1] === "copilot-instructions.md")
      return ".github/copilot-instructions.md";
    const inner = parts[i + 1];
    if (inner !== undefined && VENV_PARTS.has(inner) && VENVS.includes(part)) return `${part}/`;
  }
  const last = parts.at(-1) ?? "";
  if (last.endsWith(".code-workspace")) return "*.code-workspace";
  if (last === ".npmrc") return ".npmrc";
  if (last.startsWith(".yarnrc")) return ".yarnrc*";
  if (last === ".envrc") return ".envrc";
  if (RC_CONFIGS.test(last)) return /^\.[a-z]+rc$/.test(last) ? last : last.replace(/\.[^.]+$/, ".*");
  if (NAMED_CONFIGS.test(last)) return last.replace(/\.[^.]+$/, ".*");
  const instructions = INSTRUCTION_FILES.get(last);
  if (instructions) return instructions;
  return undefined;
}

/** The real path of `path`: of the file, or of its nearest existing folder joined with the rest. */
async function realOf(path: string): Promise<string> {
  const rest: string[] = [];
  let at = path;
  for (;;) {
    const real = await realpath(at).catch(() => undefined);
    if (real !== undefined) return join(real, ...rest.reverse());
    const parent = dirname(at);
    if (parent === at) return path;
    rest.push(basename(at));
    at = parent;
  }
}

/** `path` relative to `root` when it is below it, else as it is (absolute). */
function below(root: string, path: string): string {
  const rel = relative(root, path);
  return rel === "" || rel === ".." || rel.startsWith(`..${sep}`) || isAbsolute(rel) ? path : rel;
}

/**
 * The protected place a write to `path` (relative to the workspace `root`, or absolute) would
 * land in, or undefined: the path as written and its real path (symbolic links resolved, a path
 * not made yet through its nearest existing folder) are both looked at, so a link `docs` to
 * `.git/hooks` makes `docs/pre-commit` protected.
 */
export async function protectedPath(root: string, path: string): Promise<string | undefined> {
  const top = resolve(root);
  const absolute = resolve(top, path);
  const named = await protectedByName(top, absolute);
  if (named) return named;
  // A folder git takes for a repository, whatever its name: its `config` runs programs.
  const realTop = await realpath(top).catch(() => top);
  return (await gitLayoutIn(top, absolute)) ?? (await gitLayoutIn(realTop, await realOf(absolute)));
}

/**
 * The protected place the name of `path` (relative to `root`, or absolute) says, as written or on
 * its real path (links resolved): what the write's own name can be checked against right before it
 * is written (recheck.ts), where a git layout made meanwhile is no reason to refuse what was asked.
 */
export async function protectedByName(root: string, path: string): Promise<string | undefined> {
  const top = resolve(root);
  const absolute = resolve(top, path);
  const written = protectedPart(below(top, absolute));
  if (written) return written;
  const realTop = await realpath(top).catch(() => top);
  return protectedPart(below(realTop, await realOf(absolute)));
}

/**
 * The protected place a write to `path`, as the tools read it in a workspace of `folders` (named
 * as the tools name them), would land in: the path is placed in the folder it names and its links
 * are resolved from there, so `api/docs/x` with `docs` a link to `api/.git/hooks` counts. A path
 * that names no folder is looked at in every folder. `from` is a folder-relative place (a
 * command's cwd) that relative paths start at; they are looked at from the folder's top too.
 */
export async function protectedIn(
  folders: readonly Folder[],
  path: string,
  from?: Placed,
): Promise<string | undefined> {
  if (folders.length === 0) return undefined;
  const tries: Placed[] = [];
  if (from && !isAbsolute(path)) tries.push({ folder: from.folder, path: join(from.path, path) });
  try {
    tries.push(place([...folders], path));
  } catch {
    // It names no folder (the tool will refuse it): it is protected if it is so in any of them.
    tries.push(...folders.map((folder) => ({ folder, path })));
  }
  for (const at of tries) {
    const found = await protectedPath(at.folder.root, at.path);
    if (found) return found;
  }
  return undefined;
}
