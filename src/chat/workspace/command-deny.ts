/**
 * How a deny rule matches a part of a command line, as the program reads it: after the program's
 * global options and their values (`git --no-pager push`, `git -P push`, `git -c x=y push`,
 * `git -C dir push`, `npm --silent publish`), under its own aliases and abbreviations (`npm pub`,
 * `npm rm`), with each option of the rule in any form the program accepts (`git reset --har`,
 * `rm -fr` for `rm -rf`, `git push -f` for `git push --force`), anywhere after the subcommand.
 */
import { canonical, isOption, subcommandAt } from "./command-options";
import { programName, programOf, type Program } from "./command-programs";

/** The options a word sets, each as one key: a long name (its prefix completed from `longs`), or a letter's long name or `-x`. */
function keys(program: Program | undefined, word: string, longs: readonly string[]): string[] {
  if (!isOption(word)) return [];
  const eq = word.indexOf("=");
  const name = eq < 0 ? word : word.slice(0, eq);
  if (word.startsWith("--")) {
    const full =
      program?.prefixes && name.length > 2 ? longs.find((l) => l.startsWith(name) && l !== name) : undefined;
    return [full ?? name];
  }
  const letters = [...name.slice(1)].map((c) => program?.pairs?.[c] ?? `-${c}`);
  // npm reads `-publish-flag` as a long option too.
  return program?.dashless ? [...letters, ...keys(program, `-${name}`, longs)] : letters;
}

/** True when the rule's `rest` (its words after the program) is found in `part` (whose program matched). */
function matchesFrom(
  program: Program | undefined,
  rest: readonly string[],
  part: readonly string[],
): boolean {
  if (rest.length === 0) return true;
  const positional = rest.filter((w) => !isOption(w));
  const options = rest.filter(isOption);
  const longs = options.flatMap((w) => keys(program, w, []).filter((k) => k.startsWith("--")));
  const wanted = options.flatMap((w) => keys(program, w, []));
  let start = 1;
  if (!isOption(rest[0])) {
    // The rule names a subcommand: it must be the part's, as the program reads it.
    const at = subcommandAt(program, part).find(
      (i) => canonical(program, part[i]) === canonical(program, positional[0]),
    );
    if (at === undefined) return false;
    start = at + 1;
    positional.shift();
  }
  const after = part.slice(start);
  // Further words of the rule: in order among the part's plain words.
  let k = 0;
  for (const word of after) if (k < positional.length && word === positional[k]) k++;
  if (k < positional.length) return false;
  const has = new Set(after.flatMap((w) => keys(program, w, longs)));
  return wanted.every((key) => has.has(key));
}

/** True when the deny rule's `words` start at some word of `part` (by file name for the program). */
export function denies(words: readonly string[], part: readonly string[]): boolean {
  const fixed = words.at(-1) === "*" ? words.slice(0, -1) : words;
  if (fixed.length === 0) return false;
  const name = programName(fixed[0]);
  const program = programOf(fixed[0]);
  for (let i = 0; i < part.length; i++) {
    if (programName(part[i]) !== name) continue;
    if (matchesFrom(program, fixed.slice(1), part.slice(i))) return true;
  }
  return false;
}
