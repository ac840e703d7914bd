/**
 * The programs whose options Tandem knows, and which of their options and subcommands make them
 * run another program, load other code or settings, or read or write outside the workspace. A
 * rule's last `*` covers further words only of a program in this table (see command-options.ts):
 * of any other program Tandem cannot tell a plain argument from `-exec`.
 */
import { NPM_ALIASES, NPM_COMMANDS } from "./command-npm";
import { awkRuns, sedRuns, tarLetters } from "./command-scripts";

/** How Tandem reads one program's words. */
export interface Program {
  /** Long options (`--name`, or `-name` for find) that run, load, read or write elsewhere. */
  long: readonly string[];
  /** Short option letters of that kind, found bundled (`-qu`) and glued (`-O./x`) too. */
  short?: string;
  /** Long options of the program that are their own option, not a prefix of a risky one (git's `--text`). */
  exact?: readonly string[];
  /** The program accepts a unique prefix of a long option (getopt_long, git's parse-options, npm's nopt). */
  prefixes?: boolean;
  /** A single-dash word may be a long option too (npm's nopt strips the dashes: `-script-shell`). */
  dashless?: boolean;
  /** Options before the subcommand, each true when it takes the next word as its value. */
  globals?: Readonly<Record<string, boolean>>;
  /** Those of the global options that run, load or read elsewhere whatever their value. */
  riskyGlobals?: readonly string[];
  /** Subcommands (as `canonical` names them) that run a program or change settings. */
  subcommands?: readonly string[];
  /** More long options and short letters of that kind for one subcommand. */
  bySub?: Readonly<Record<string, { long?: readonly string[]; short?: string }>>;
  /** A subcommand's other names (npm's `pub`, `i`, `rm`). */
  aliases?: Readonly<Record<string, string>>;
  /** Every subcommand, when the program takes a unique prefix of one (npm's `publ`). */
  commands?: readonly string[];
  /** Short letters that mean a long option, for deny rules (`rm -r` is `rm --recursive`). */
  pairs?: Readonly<Record<string, string>>;
  /** Any `NAME=value` word overrides a variable of the tool (make's `SHELL=`). */
  assignments?: boolean;
  /** Words after `--` are the script's or paths, not the tool's. */
  endsAtDashes?: boolean;
  /** The index of a word (a sed script, an awk program) that runs something, if any. */
  words?: (part: readonly string[]) => number | undefined;
}

const GIT_GLOBALS: Record<string, boolean> = {
  "-c": true,
  "-C": true,
  "--git-dir": true,
  "--work-tree": true,
  "--namespace": true,
  "--config-env": true,
  "--super-prefix": true,
  "--attr-source": true,
  "--exec-path": false,
  "--list-cmds": false,
  "-p": false,
  "-P": false,
  "--paginate": false,
  "--no-pager": false,
  "--bare": false,
  "--no-replace-objects": false,
  "--literal-pathspecs": false,
  "--glob-pathspecs": false,
  "--noglob-pathspecs": false,
  "--icase-pathspecs": false,
  "--no-optional-locks": false,
  "--no-advice": false,
  "--no-lazy-fetch": false,
};

const GIT: Program = {
  prefixes: true,
  globals: GIT_GLOBALS,
  riskyGlobals: [
    "-c",
    "--config-env",
    "--exec-path",
    "--git-dir",
    "--work-tree",
    "-C",
    "--namespace",
    "--attr-source",
  ],
  long: [
    "--upload-pack",
    "--receive-pack",
    "--exec",
    "--extcmd",
    "--ext-diff",
    "--open-files-in-pager",
    "--template",
    "--separate-git-dir",
    "--output",
    "--output-directory",
    "--config",
    "--tool",
    "--textconv",
    // These read files outside the workspace into what the model sees.
    "--no-index",
    "--contents",
    "--ignore-revs-file",
    "--exclude-from",
    "--remote",
    "--reference",
    "--reference-if-able",
  ],
  exact: ["--text", "--remotes", "--output-indicator-new", "--output-indicator-old"],
  bySub: {
    clone: { short: "uc" },
    "ls-remote": { short: "u" },
    rebase: { short: "x" },
    grep: { short: "O" },
    archive: { short: "o" },
    "format-patch": { short: "o" },
    commit: { long: ["--file"], short: "Ft" },
    tag: { long: ["--file"], short: "F" },
    merge: { long: ["--file"], short: "F" },
    help: { long: ["--web"], short: "w" },
  },
  subcommands: [
    "config",
    "submodule",
    "bisect",
    "filter-branch",
    "filter-repo",
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
    "worktree",
    "hash-object",
    "p4",
    "svn",
    "cvsimport",
    "cvsserver",
    "shell",
  ],
  pairs: { f: "--force" },
  endsAtDashes: true,
};

/** npm's, pnpm's and yarn's options that name a program, a config, code to load or another folder. */
const NODE_PACKAGE_OPTIONS = [
  "--script-shell",
  "--shell",
  "--node-options",
  "--node-gyp",
  "--onload-script",
  "--userconfig",
  "--globalconfig",
  "--call",
  "--init-module",
  "--editor",
  "--browser",
  "--git",
  "--prefix",
  "--dir",
  "--cwd",
  "--rcfile",
  "--config",
  "--require",
  "--import",
  "--loader",
  "--yarn-path",
];

const NODE_PACKAGES: Program = {
  prefixes: true,
  dashless: true,
  long: NODE_PACKAGE_OPTIONS,
  short: "cCr",
  subcommands: ["exec", "explore", "init", "dlx", "edit", "config", "set", "node", "pkg"],
  endsAtDashes: true,
};

const NPM: Program = { ...NODE_PACKAGES, aliases: NPM_ALIASES, commands: NPM_COMMANDS };

/** Bun also evaluates code given on its command line. */
const BUN: Program = {
  ...NODE_PACKAGES,
  long: [...NODE_PACKAGE_OPTIONS, "--eval", "--print", "--preload"],
  short: "cCrep",
};

const MAKE: Program = {
  prefixes: true,
  long: ["--file", "--makefile", "--eval", "--directory", "--include-dir"],
  short: "fECI",
  assignments: true,
};

const CARGO: Program = {
  prefixes: true,
  long: ["--config", "--manifest-path", "--target-dir"],
  short: "ZC",
  endsAtDashes: true,
};

const GO: Program = {
  long: ["-exec", "-toolexec", "-modfile", "-overlay", "-C", "-pgo"],
  subcommands: ["generate", "tool", "env", "run"],
};

const NODE: Program = {
  long: ["--eval", "--print", "--require", "--import", "--loader", "--experimental-loader", "--env-file"],
  short: "eprC",
  prefixes: false,
};

const PYTHON: Program = { long: [], short: "cm" };
const PYTEST: Program = { prefixes: true, long: ["--rootdir", "--confcutdir", "--pyargs"], short: "pc" };

/** Programs with no option that runs a program or reaches elsewhere (GNU coreutils and the like). */
const PLAIN: Program = { long: [] };

const FIND: Program = {
  long: ["-exec", "-execdir", "-ok", "-okdir", "-delete", "-fprint", "-fprint0", "-fprintf", "-fls"],
};

const SED: Program = {
  prefixes: true,
  long: ["--in-place", "--file", "--follow-symlinks"],
  short: "if",
  words: sedRuns,
};

const AWK: Program = {
  prefixes: true,
  long: ["--file", "--exec", "--include", "--load", "--source"],
  short: "fEilD",
  words: awkRuns,
};

const SORT: Program = {
  prefixes: true,
  long: ["--compress-program", "--output", "--temporary-directory", "--files0-from"],
  short: "oT",
};

const TAR: Program = {
  prefixes: true,
  long: [
    "--checkpoint-action",
    "--use-compress-program",
    "--to-command",
    "--info-script",
    "--new-volume-script",
    "--rsh-command",
    "--rmt-command",
    "--directory",
    "--absolute-names",
    "--files-from",
    "--index-file",
  ],
  short: "IFCPT",
  words: tarLetters,
};

const ZIP: Program = { prefixes: true, long: ["--unzip-command", "--temp-path"], short: "Tb" };

const RG: Program = { prefixes: true, long: ["--pre", "--search-zip"], short: "z" };

/** jq reads files named by these into its output (`--rawfile k /etc/passwd`). */
const JQ: Program = { prefixes: false, long: ["--rawfile", "--slurpfile", "--from-file"], short: "fL" };

const GREP: Program = { prefixes: true, long: [] };

const RM: Program = { long: [], pairs: { r: "--recursive", R: "--recursive", f: "--force" } };

/** The programs Tandem knows, by file name (without `.exe`, `.cmd`). */
export const PROGRAMS: Readonly<Record<string, Program>> = {
  git: GIT,
  npm: NPM,
  pnpm: NODE_PACKAGES,
  yarn: NODE_PACKAGES,
  bun: BUN,
  make: MAKE,
  gmake: MAKE,
  cargo: CARGO,
  go: GO,
  node: NODE,
  python: PYTHON,
  python3: PYTHON,
  pytest: PYTEST,
  find: FIND,
  sed: SED,
  awk: AWK,
  gawk: AWK,
  mawk: AWK,
  sort: SORT,
  tar: TAR,
  zip: ZIP,
  rg: RG,
  grep: GREP,
  egrep: GREP,
  fgrep: GREP,
  rm: RM,
  jq: JQ,
  ...Object.fromEntries(
    [
      "ls",
      "cat",
      "head",
      "tail",
      "wc",
      "echo",
      "pwd",
      "true",
      "false",
      "date",
      "uname",
      "whoami",
      "id",
      "basename",
      "dirname",
      "realpath",
      "readlink",
      "stat",
      "du",
      "df",
      "cut",
      "tr",
      "nl",
      "od",
      "cmp",
      "comm",
      "diff",
      "which",
      "tsc",
      "touch",
      "mkdir",
    ].map((name) => [name, PLAIN]),
  ),
};

/** The program a command word names, by file name (`/usr/bin/git`, `git.exe`, `npm.cmd` are git and npm). */
export function programName(word: string): string {
  const name = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1).toLowerCase();
  return name.replace(/\.(exe|cmd|bat|com)$/, "");
}

/** What Tandem knows of the program `word` names, if anything. */
export function programOf(word: string): Program | undefined {
  return Object.hasOwn(PROGRAMS, programName(word)) ? PROGRAMS[programName(word)] : undefined;
}
