/**
 * Words that make an allowed command run something else: `git fetch --upload-pack=./x`,
 * `git -c core.sshCommand=./x fetch`, `npm test --script-shell=./x`, `make SHELL=./x`. A rule's
 * last `*` stands for plain arguments, never for these: a line that holds one is asked, so
 * `git fetch *` does not become "run any program". A rule that names such a word itself (the
 * person wrote it) still allows exactly that.
 */

/** How one command's arguments can run another program or load other configuration. */
interface Risky {
  /** Options (as written before any `=`) that name a program, a config or another folder to run from. */
  options: readonly string[];
  /** Short options that take their value glued on (`-O./x`), matched as a prefix. */
  glued?: readonly string[];
  /** Options that count only before the subcommand (git's own, such as `-c`). */
  global?: readonly string[];
  /** Subcommands that run a program or change configuration (`git config`, `npm exec`). */
  subcommands?: readonly string[];
  /** Any `NAME=value` word overrides a variable of the tool (make's `SHELL=`). */
  assignments?: boolean;
  /** Words after `--` are the script's, not the tool's. */
  endsAtDashes?: boolean;
}

const GIT: Risky = {
  global: ["-c", "--config-env", "--exec-path", "--git-dir", "--work-tree", "-C", "--namespace"],
  options: [
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "-x",
    "--extcmd",
    "--ext-diff",
    "--open-files-in-pager",
    "--template",
    "--separate-git-dir",
    "--output",
    "--config",
    "--tool",
    "--textconv",
  ],
  glued: ["-O", "-x"],
  subcommands: [
    "config",
    "submodule",
    "bisect",
    "filter-branch",
    "difftool",
    "mergetool",
    "hook",
    "daemon",
    "instaweb",
    "web--browse",
    "credential",
    "remote-ext",
    "archimport",
    "send-email",
    "alias",
  ],
  endsAtDashes: true,
};

const NODE_PACKAGES: Risky = {
  options: [
    "--script-shell",
    "--shell",
    "--node-options",
    "--userconfig",
    "--globalconfig",
    "--call",
    "-c",
    "--init-module",
    "--editor",
    "--browser",
    "--git",
    "--prefix",
    "-C",
    "--dir",
    "--cwd",
    "--rcfile",
    "--config",
    "--require",
    "-r",
    "--import",
    "--loader",
  ],
  subcommands: ["exec", "x", "explore", "init", "create", "dlx", "edit", "config", "set", "c", "node"],
  endsAtDashes: true,
};

/** Bun also evaluates code given on its command line. */
const BUN: Risky = { ...NODE_PACKAGES, options: [...NODE_PACKAGES.options, "-e", "--eval", "-p", "--print"] };

const MAKE: Risky = {
  options: ["-f", "--file", "--makefile", "-E", "--eval", "-C", "--directory", "-I", "--include-dir"],
  glued: ["-f", "-E", "-C", "-I"],
  assignments: true,
};

const CARGO: Risky = { options: ["--config", "-Z"], glued: ["-Z"], endsAtDashes: true };

/** The commands whose arguments are looked at, by file name. */
const RISKY: Record<string, Risky> = {
  git: GIT,
  "git.exe": GIT,
  npm: NODE_PACKAGES,
  "npm.cmd": NODE_PACKAGES,
  pnpm: NODE_PACKAGES,
  yarn: NODE_PACKAGES,
  bun: BUN,
  make: MAKE,
  gmake: MAKE,
  cargo: CARGO,
};

/**
 * Why the words `part` holds from index `from` on (those a rule's `*` would cover) make `part[0]`
 * (its file name `command`) run something else, or undefined when they do not.
 */
export function runsOther(command: string, part: readonly string[], from: number): string | undefined {
  const risky = RISKY[command];
  if (!risky) return undefined;
  // The subcommand is the first word that is no option (git's global options come before it).
  let sub = part.findIndex((word, i) => i > 0 && !word.startsWith("-"));
  if (sub > 0 && risky.global?.some((o) => part[sub - 1] === o)) {
    // `git -c x=y status`: the word after -c is its value, not the subcommand.
    sub = part.findIndex((word, i) => i > sub && !word.startsWith("-"));
  }
  for (let i = Math.max(from, 1); i < part.length; i++) {
    const word = part[i];
    if (word === "--" && risky.endsAtDashes) return undefined;
    const name = word.split("=")[0];
    const beforeSub = sub < 0 || i < sub;
    if (beforeSub && risky.global?.includes(name)) return because(word, command);
    if (risky.options.includes(name)) return because(word, command);
    if (risky.glued?.some((o) => word.startsWith(o) && word.length > o.length && !word.startsWith("--")))
      return because(word, command);
    if (i === sub && risky.subcommands?.includes(word)) return because(`${command} ${word}`, command);
    if (risky.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return because(word, command);
  }
  return undefined;
}

function because(word: string, command: string): string {
  return `\`${word}\` can make ${command} run another program or read other settings: a \`*\` in a rule does not cover it.`;
}
