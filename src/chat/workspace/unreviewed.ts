/**
 * The agent's changes the person has not reviewed, as the approval of a command sees them. A
 * command the person's rule allows (`npm test`, `make`, `pytest`, `cargo test`) runs the
 * repository's code: its scripts, its Makefile, its tests and every source file they import. When
 * the agent has just changed any file of the workspace and nobody has looked at the change, the
 * rule's yes was not given to it: a command that runs the workspace's code is asked again (and any
 * command, while a file that defines commands is changed). Unreviewed means a pending change (the editor's list) or a write of this answer that no
 * person saw (a created file; an edit the person accepted in a diff was seen).
 */
import { basename, dirname, isAbsolute, relative, sep } from "node:path";
import type { Editor } from "./editor";
import { runsWorkspaceCode, TEST_RUNNERS } from "./runs-code";

/** What the approval reads of the tool it judges: the unreviewed files (absolute paths), when the tool can tell. */
export interface Reviewing {
  unreviewed?(): Promise<readonly string[]>;
  /** Its commands never reach the network (`tandem.localOnly`): "Allow with Network" is not offered. */
  noNetwork?: boolean;
}

/** The files the agent wrote in one run that nobody reviewed, with the editor's pending changes. */
export class Unreviewed {
  private readonly written = new Set<string>();

  constructor(private readonly editor?: Pick<Editor, "unreviewed">) {}

  /** Notes that the agent wrote the file `path` (absolute) and the person has not seen the change. */
  wrote(path: string): void {
    this.written.add(path);
  }

  /** Every unreviewed file: this run's writes and the editor's pending changes. */
  async list(): Promise<string[]> {
    const pending = (await this.editor?.unreviewed?.().catch(() => [])) ?? [];
    return [...new Set([...this.written, ...pending])];
  }
}

/**
 * Files that define what a build or test command runs: package scripts and their managers' files,
 * Makefiles, Python's project and test configuration, Cargo's, task runners', and test runners'
 * configs in JavaScript. Matched on the file's name, in lower case.
 */
const DEFINING = [
  /^(package\.json|package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|pnpm-workspace\.yaml|\.pnpmfile\.cjs|\.npmrc|\.yarnrc(\.yml)?|bunfig\.toml|deno\.jsonc?|lerna\.json|nx\.json|turbo\.json)$/,
  /^(makefile|gnumakefile|.*\.mk)$/,
  /^(pyproject\.toml|setup\.cfg|setup\.py|tox\.ini|noxfile\.py|pytest\.ini|conftest\.py|sitecustomize\.py|usercustomize\.py|.*\.pth|pipfile|requirements.*\.txt)$/,
  /^(cargo\.toml|cargo\.lock|build\.rs|rust-toolchain(\.toml)?|go\.mod|go\.work)$/,
  /^(\.?justfile|taskfile(\.dist)?\.ya?ml|rakefile|gemfile|\.rspec|.*\.gemspec|composer\.json|phpunit\.xml(\.dist)?)$/,
  /^(build\.gradle(\.kts)?|settings\.gradle(\.kts)?|gradle\.properties|gradlew(\.bat)?|pom\.xml|cmakelists\.txt|.*\.cmake|meson\.build)$/,
  /^((jest|vitest|vite|karma|playwright|cypress|ava|babel|webpack|rollup|tsup|nyc)\.(config|conf|workspace)\.[cm]?[jt]sx?|\.mocharc\..*|\.babelrc.*|\.nycrc.*|tsconfig.*\.json)$/,
  // Read by most test runners (dotenv): NODE_OPTIONS there runs code.
  /^\.env(\..*)?$/,
];

/** Folders whose files a test run runs. */
const TEST_FOLDERS = new Set(["test", "tests", "__tests__", "spec", "specs", "testing", "e2e"]);

/** Test files by name: `x.test.ts`, `x.spec.js`, `test_x.py`, `x_test.go`, `x_spec.rb`, `XTest.java`. */
const TEST_NAME =
  /(\.(test|spec)\.[cm]?[jt]sx?$|^test_.*\.py$|_test\.(py|go|rb|exs?)$|_spec\.rb$|tests?\.(java|kt|cs)$)/;

/** Words of a command line that run tests (besides any word holding "test" or "spec"): the test runners, and subcommands. */
const TEST_WORDS = new Set([...TEST_RUNNERS, "t", "tst", "check", "ci"]);

/** True when the file `path` defines what a build or test command runs. */
export function definesCommands(path: string): boolean {
  const name = basename(path).toLowerCase();
  // Cargo's and Maven's own folders configure what `cargo` and `mvn` run.
  const folder = basename(dirname(path)).toLowerCase();
  if (folder === ".cargo" || folder === ".mvn") return true;
  return DEFINING.some((pattern) => pattern.test(name));
}

/** True when `path` (relative to its workspace folder) is a test file: in a test folder, or named as one. */
export function testFile(path: string): boolean {
  const parts = path.split(/[\\/]+/).map((p) => p.toLowerCase());
  return parts.slice(0, -1).some((p) => TEST_FOLDERS.has(p)) || TEST_NAME.test(parts.at(-1) ?? "");
}

/** True when the command line may run tests (`npm test`, `pytest`, `make`, `go test ./...`). */
export function runsTests(line: string): boolean {
  return line
    .toLowerCase()
    .split(/[\s;&|()'"=]+/)
    .some((word) => {
      const name = word.slice(word.lastIndexOf("/") + 1);
      return /test|spec/.test(word) || TEST_WORDS.has(name);
    });
}

/**
 * The first of the unreviewed files `paths` (relative to their workspace folder) that the command
 * line `line` may run: a file that defines commands; else, when the line runs tests, a test file;
 * else, when it runs the workspace's code, any file. Undefined when there is none.
 */
export function unreviewedFor(line: string, paths: readonly string[]): string | undefined {
  const defining = paths.find((path) => definesCommands(path));
  if (defining) return defining;
  const tests = runsTests(line) ? paths.find((path) => testFile(path)) : undefined;
  return tests ?? (runsWorkspaceCode(line) ? paths[0] : undefined);
}

/** `path` as the person reads it: relative to the first of `roots` that holds it, else as it is. */
export function shownIn(roots: readonly string[], path: string): string {
  for (const root of roots) {
    const rel = relative(root, path);
    if (rel && !rel.startsWith(`..${sep}`) && rel !== ".." && !isAbsolute(rel))
      return rel.split(sep).join("/");
  }
  return path;
}
