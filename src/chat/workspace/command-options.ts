/**
 * Words that make an allowed command run something else: `git fetch --upload-pack=./x`,
 * `git -c core.sshCommand=./x fetch`, `npm test --script-shell=./x`, `make SHELL=./x`,
 * `find -exec`, `sed e`. A rule's last `*` stands for plain arguments, never for these: a line that
 * holds one is asked, so `git fetch *` does not become "run any program". A rule that names such a
 * word itself (the person wrote it) still allows exactly that.
 *
 * An option is judged by every form its program accepts: a unique prefix (`--upl` for
 * `--upload-pack`, `--script-sh`), its short letter (`git clone -u`), bundled or glued
 * (`-qu`, `-O./x`), `--opt=value` and `--opt value`, npm's single dash (`-script-shell`). The
 * programs and their options are in command-programs.ts.
 */
import { t } from "../../protocol/l10n";
import { programName, programOf, type Program } from "./command-programs";

/** The name of an option word (before any `=`). */
function nameOf(word: string): string {
  const eq = word.indexOf("=");
  return eq < 0 ? word : word.slice(0, eq);
}

/** True when `word` is an option (not `-`, `--` or a plain word). */
export function isOption(word: string): boolean {
  return word.length > 1 && word.startsWith("-") && word !== "--";
}

/** True when the option `word` is, in some form `program` accepts, one of `long` or a letter of `short`. */
export function optionIs(program: Program, word: string, long: readonly string[], short = ""): boolean {
  if (!isOption(word)) return false;
  const name = nameOf(word);
  if (long.includes(name)) return true;
  if (program.exact?.includes(name)) return false;
  if (word.startsWith("--")) {
    // `--upl` is `--upload-pack` where only it starts so; an ambiguous prefix is refused by the program.
    return program.prefixes === true && name.length > 2 && long.some((l) => l.startsWith(name));
  }
  if (program.dashless) {
    const bare = name.replace(/^-+/, "");
    if (bare.length > 1 && long.some((l) => l.replace(/^-+/, "").startsWith(bare))) return true;
  }
  // A single dash: bundled letters (`-qu`) or a letter with its value glued on (`-O./x`).
  return short !== "" && [...word.slice(1)].some((c) => short.includes(c));
}

/** A subcommand as the program reads it: its alias resolved, a unique prefix completed (npm). */
export function canonical(program: Program | undefined, word: string): string {
  const alias = program?.aliases?.[word];
  if (alias) return alias;
  if (program?.commands && !program.commands.includes(word)) {
    const completed = program.commands.filter((c) => c.startsWith(word));
    if (completed.length === 1) return completed[0];
  }
  return word;
}

/**
 * The indexes of the words of `part` that may be its subcommand: the first word that is neither a
 * global option nor its value, and the next plain word too when the first may be the value of an
 * option Tandem does not know (`npm --loglevel silent publish`).
 */
export function subcommandAt(program: Program | undefined, part: readonly string[]): number[] {
  const globals = program?.globals ?? {};
  for (let i = 1; i < part.length; i++) {
    const word = part[i];
    if (word === "--") return [];
    if (!isOption(word)) {
      const before = part[i - 1];
      const unknownValue =
        i > 1 && isOption(before) && !before.includes("=") && !Object.hasOwn(globals, before);
      if (!unknownValue) return [i];
      const next = part.findIndex((w, j) => j > i && !isOption(w));
      return next > 0 ? [i, next] : [i];
    }
    // `git -C dir`, `git -c x=y`: the next word is the option's value.
    if (globals[word] === true) i++;
  }
  return [];
}

/**
 * Why the words `part` holds from index `from` on (those a rule's `*` would cover) make `part[0]`
 * (its file name `command`) run something else, or undefined when they do not.
 */
export function runsOther(command: string, part: readonly string[], from: number): string | undefined {
  const program = programOf(command);
  if (!program) return undefined;
  const name = programName(command);
  const subs = subcommandAt(program, part);
  const sub = subs.length ? canonical(program, part[subs[0]]) : undefined;
  const extra =
    sub !== undefined && Object.hasOwn(program.bySub ?? {}, sub) ? program.bySub?.[sub] : undefined;
  const long = [...program.long, ...(extra?.long ?? [])];
  const short = (program.short ?? "") + (extra?.short ?? "");
  for (let i = Math.max(from, 1); i < part.length; i++) {
    const word = part[i];
    if (word === "--" && program.endsAtDashes) break;
    const beforeSub = subs.length === 0 || i < subs[0];
    if (beforeSub && optionIs(program, word, program.riskyGlobals ?? [])) return because(word, name);
    if (optionIs(program, word, long, short)) return because(word, name);
    if (subs.includes(i) && program.subcommands?.includes(canonical(program, word)))
      return because(`${name} ${word}`, name);
    if (program.assignments && /^[A-Za-z_][A-Za-z0-9_]*=/.test(word)) return because(word, name);
  }
  const at = program.words?.(part);
  return at !== undefined && at >= from ? because(part[at], name) : undefined;
}

/** True when a rule's `*` may cover further words of the program `command` names: Tandem knows its options. */
export function knows(command: string): boolean {
  return programOf(command) !== undefined;
}

/** Why a rule's `*` does not cover the further words of a program Tandem does not know. */
export function unknownProgram(command: string): string {
  return t(
    "Tandem does not know the options of {0}, so a `*` in a rule does not cover its words.",
    programName(command),
  );
}

function because(word: string, command: string): string {
  return `\`${word}\` can make ${command} run another program or read other settings: a \`*\` in a rule does not cover it.`;
}
