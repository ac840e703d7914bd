/**
 * Which command lines run the workspace's own code: test runners, build tools, task runners,
 * package scripts, interpreters given a file, and any program named by a path (`./gradlew`,
 * `scripts/gen.sh`). While the agent's change to any file is unreviewed, the person's rule for
 * such a line does not hold (see unreviewed.ts): the change is what would run.
 */
import { programName } from "./command-programs";

/** Programs that run a workspace's tests (whatever their arguments, they run its code too). */
export const TEST_RUNNERS: ReadonlySet<string> = new Set([
  "make",
  "just",
  "task",
  "rake",
  "gradle",
  "gradlew",
  "mvn",
  "jest",
  "vitest",
  "mocha",
  "ava",
  "tap",
  "karma",
  "playwright",
  "cypress",
  "ctest",
  "tox",
  "nox",
  "rspec",
]);

/** Programs that run the code of the folder they run in, whatever their arguments. */
const RUNNERS = new Set([
  ...TEST_RUNNERS,
  "gmake",
  "cmake",
  "ninja",
  "meson",
  "bazel",
  "bazelisk",
  "mvnw",
  "ant",
  "sbt",
  "jasmine",
  "nyc",
  "c8",
  "webpack",
  "rollup",
  "vite",
  "esbuild",
  "tsup",
  "babel",
  "eslint",
  "prettier",
  "turbo",
  "nx",
  "lerna",
  "node",
  "npx",
  "bunx",
  "pnpx",
  "deno",
  "ts-node",
  "tsx",
  "python",
  "python3",
  "py",
  "pytest",
  "py.test",
  "pip",
  "pip3",
  "uv",
  "poetry",
  "hatch",
  "pdm",
  "ruby",
  "bundle",
  "perl",
  "php",
  "phpunit",
  "composer",
  "dotnet",
  "swift",
  "mix",
  "elixir",
  "dart",
  "flutter",
  "java",
  "kotlin",
  "lua",
  "rscript",
]);

/** Subcommands of package managers and toolchains that run no code of the workspace. */
const READ_ONLY: Record<string, ReadonlySet<string>> = {
  npm: new Set([
    "ls",
    "list",
    "ll",
    "la",
    "view",
    "info",
    "show",
    "outdated",
    "help",
    "whoami",
    "ping",
    "search",
    "docs",
    "bugs",
    "repo",
    "fund",
    "explain",
    "why",
    "prefix",
    "root",
    "-v",
    "--version",
    "config",
    "get",
    "audit",
  ]),
  cargo: new Set([
    "fmt",
    "tree",
    "search",
    "version",
    "--version",
    "-V",
    "help",
    "login",
    "owner",
    "yank",
    "locate-project",
    "pkgid",
    "metadata",
    "clean",
    "update",
    "fetch",
    "vendor",
  ]),
  go: new Set(["version", "env", "list", "fmt", "doc", "help", "mod", "clean"]),
};
READ_ONLY.pnpm = READ_ONLY.npm;
READ_ONLY.yarn = READ_ONLY.npm;
READ_ONLY.bun = READ_ONLY.npm;

/** True when the command line `line` may run the workspace's own code (a line Tandem cannot read counts). */
export function runsWorkspaceCode(line: string): boolean {
  for (const part of line.split(/&&|\|\||[|;&\n]/)) {
    const words = part.trim().split(/\s+/).filter(Boolean);
    // Only a plain line is allowed by a rule, and a plain part starts with its program.
    const bare = (words[0] ?? "").replace(/^["'(]+|["')]+$/g, "");
    const name = programName(bare);
    if (RUNNERS.has(name)) return true;
    // `./gradlew`, `scripts/gen.sh`, `bin/x`: a program of the workspace itself.
    if (/[\\/]/.test(bare) && !/^\/(usr|bin|sbin|opt)\//.test(bare)) return true;
    const quiet = READ_ONLY[name];
    const sub = words.slice(1).find((w) => !w.startsWith("-")) ?? words[1];
    if (quiet && (sub === undefined || !quiet.has(sub))) return true;
  }
  return false;
}
