/**
 * The person's allow and deny rules for `run_command`, matched on the parsed command line
 * (shell-quote's tokens and operators), never on its text's prefix.
 *
 * A rule is a command name and its words, written as you would type them: `npm test`,
 * `npm run lint`, `git status`. A last word `*` stands for any further plain arguments
 * (`git diff *` allows `git diff`, `git diff --stat src/a.ts`) of a program whose options Tandem
 * knows (command-programs.ts), never a word that makes the command run another program, in any
 * form the program reads it (`--upload-pack=`, `--upl=`, `git clone -u`, `-c`, `--script-sh=`:
 * see command-options.ts); of any other program a `*` covers nothing more. An allow rule without
 * `*` allows exactly its words: `npm test` allows neither `npm test --watch` nor `npm testx`.
 *
 * A line is allowed only when it is plain and every part of it (`a && b | c`) is allowed by a
 * rule. Plain means: printable ASCII only; no `$`, backticks, braces, `!`, `%`, `^`, comments,
 * line breaks or continuations; parts joined only by `&&`, `||`, `|` or `;`; no redirection,
 * subshell, background `&`, process substitution or here-doc; no glob or `~`; no variable
 * assignment in front; and no command that runs another one (`sh -c`, `eval`, `xargs`, `env`,
 * `sudo`…), which no allow rule can name. On Windows, where cmd.exe or PowerShell reads the
 * line, also no `'`, `;`, `,` or `""`. Anything else is asked. Run in a folder (`judgeCommandIn`), the repository's own
 * configuration that changes what the line runs voids the rules (repo-config.ts).
 *
 * A deny rule wins over any allow and is looked for everywhere a command may hide — in every part,
 * behind wrappers (`sudo rm`), inside quoted strings (`sh -c 'rm …'`), by file name
 * (`/bin/rm`), after the program's global options (`git -P push`), under its aliases (`npm pub`)
 * — and matches its words as a prefix, its options in any form and order: `git push` denies
 * `git push --force`, `git reset --hard` denies `git reset -q --har` (see command-deny.ts).
 */

import { parse, type ParseEntry } from "shell-quote";
import { t } from "../../protocol/l10n";
import { denies } from "./command-deny";
import { knows, runsOther, unknownProgram } from "./command-options";
import { programName } from "./command-programs";
import { oneLine } from "./describe";
import { visible } from "./visible";

/** The rules the person keeps: command lines allowed without asking, and refused. */
export interface CommandRules {
  allow: readonly string[];
  deny: readonly string[];
}

/** Where the rules live and how a new allow rule is kept (the editor's person-scoped setting). */
export interface CommandRuleBook {
  /** The rules as they are now. */
  rules(): CommandRules;
  /** Keeps new allow rules (the person chose "Always allow" for them). */
  keep(allow: readonly string[]): Promise<void>;
}

/** The rules in a setting's value (`{ allow: [...], deny: [...] }`); anything malformed allows and denies nothing. */
export function rulesOf(value: unknown): CommandRules {
  const record = value !== null && typeof value === "object" ? (value as Record<string, unknown>) : {};
  const list = (v: unknown) => (Array.isArray(v) ? v.filter((s): s is string => typeof s === "string") : []);
  return { allow: list(record.allow), deny: list(record.deny) };
}

/** What the rules say of a command line. */
export type CommandJudgement =
  | { verdict: "allowed"; rules: string[] }
  | { verdict: "denied"; rule: string; why: string }
  | {
      verdict: "ask";
      /** Why the rules do not let it by, as a sentence. */
      why: string;
      /** The allow rules that would cover this line ("Always allow"); undefined when it is not plain. */
      offer?: string[];
    };

/** Commands that run another command, or a shell: no allow rule covers them. */
export const WRAPPERS = new Set([
  "sh",
  "bash",
  "zsh",
  "dash",
  "ksh",
  "csh",
  "tcsh",
  "fish",
  "ash",
  "busybox",
  "cmd",
  "cmd.exe",
  "powershell",
  "powershell.exe",
  "pwsh",
  "eval",
  "exec",
  "source",
  ".",
  "command",
  "builtin",
  "xargs",
  "env",
  "sudo",
  "doas",
  "su",
  "runuser",
  "pkexec",
  "nohup",
  "setsid",
  "time",
  "timeout",
  "nice",
  "ionice",
  "stdbuf",
  "chroot",
  "strace",
  "ltrace",
  "watch",
  "parallel",
  "script",
  "unbuffer",
  "flock",
  "npx",
  "bunx",
  "pnpx",
  "dlx",
]);

/** Operators that may join plain parts. */
const JOINS = new Set(["&&", "||", "|", ";"]);

/** Characters never in a plain line: expansions, history, cmd.exe's and PowerShell's escapes. */
const SPECIAL = /[$`{}!%^\\]/;

/** Printable ASCII and the space: anything else (tabs, line breaks, look-alikes) is not plain. */
const PRINTABLE = /^[\x20-\x7e]*$/;

/** A variable assignment in front of a command (`A=1 npm test`). */
const ASSIGNMENT = /^[A-Za-z_][A-Za-z0-9_]*=/;

/** Glob characters shell-quote leaves in a word, or a word the shell expands (`~`). */
const EXPANDS = /[*?[\]]|^~/;

/** A parsed line: its parts (each a list of words) or why it is not plain. */
type Parsed = { parts: string[][] } | { why: string };

/** A `$NAME` of the line, kept as an entry of its own rather than read as empty. */
interface Variable {
  variable: string;
}

/** The parse of `line`, each `$NAME` kept visible; undefined when shell-quote cannot read it. */
function entries(line: string): (ParseEntry | Variable)[] | undefined {
  try {
    return parse(line, (name: string): Variable => ({ variable: name }));
  } catch {
    return undefined;
  }
}

/**
 * The parts of a plain line, or why the line is not plain. On Windows (`platform` "win32") the line
 * runs in cmd.exe, for which `'` is no quote (`git diff 'x & calc.exe & '` is three commands there)
 * and `;` joins nothing, or in PowerShell, which splits `a,--opt` into two words: a line holding
 * them, or `""`, is not plain.
 */
export function plainParts(line: string, platform: string = process.platform): Parsed {
  if (platform === "win32" && /'|;|,|""/.test(line))
    return {
      why: t(
        `On Windows, cmd.exe and PowerShell read a line holding ', ;, a comma or "" differently from the rules.`,
      ),
    };
  if (!PRINTABLE.test(line))
    return { why: t("It holds line breaks, tabs or characters beyond plain ASCII.") };
  if (SPECIAL.test(line))
    return { why: t("It holds `$`, backticks, braces or escapes that the shell expands.") };
  const all = entries(line);
  if (!all) return { why: t("The command line cannot be read.") };
  const parts: string[][] = [[]];
  for (const entry of all) {
    if (typeof entry === "string") {
      if (EXPANDS.test(entry)) return { why: t("The word {0} is expanded by the shell.", entry) };
      parts[parts.length - 1].push(entry);
    } else if ("comment" in entry) {
      return { why: t("It holds a comment (#).") };
    } else if ("op" in entry && JOINS.has(entry.op)) {
      parts.push([]);
    } else if ("op" in entry && entry.op === "glob") {
      return { why: t("It holds a glob the shell expands.") };
    } else {
      const what = "op" in entry ? entry.op : t("a variable");
      return { why: t("It holds {0}: a redirection, subshell, background run or expansion.", what) };
    }
  }
  if (parts.some((p) => p.length === 0)) return { why: t("A part of the command line is empty.") };
  // An unclosed quote is read by shell-quote as closed at the end; the shell would wait for more.
  if (!quotesClosed(line)) return { why: t("A quote is not closed.") };
  for (const part of parts) {
    if (ASSIGNMENT.test(part[0])) return { why: t("It sets a variable in front of the command.") };
    if (wrapper(part[0])) return { why: t("{0} runs another command.", part[0]) };
  }
  return { parts };
}

/** True when every quote of `line` is closed (no backslashes: a plain line has none). */
function quotesClosed(line: string): boolean {
  let open: string | undefined;
  for (const c of line) {
    if (open) {
      if (c === open) open = undefined;
    } else if (c === "'" || c === '"') open = c;
  }
  return open === undefined;
}

/** True when the command word `word` names a program that runs another command (`/usr/bin/env`, `cmd.exe`). */
function wrapper(word: string): boolean {
  const name = word.slice(Math.max(word.lastIndexOf("/"), word.lastIndexOf("\\")) + 1).toLowerCase();
  return WRAPPERS.has(name) || WRAPPERS.has(programName(word));
}

/** A rule's words (a last "*" kept as the word "*"), or why it cannot be a rule. */
export function ruleWords(rule: string): { words: string[] } | { why: string } {
  const trimmed = rule.trim();
  const any = /(^|\s)\*$/.test(trimmed);
  const said = plainParts(any ? trimmed.slice(0, -1) : trimmed);
  if ("why" in said) return { why: t('The rule "{0}" is not a plain command: {1}', rule, said.why) };
  if (said.parts.length !== 1) return { why: t('The rule "{0}" names more than one command.', rule) };
  return { words: any ? [...said.parts[0], "*"] : said.parts[0] };
}

/**
 * True when the allow rule's `words` cover the part `part` exactly (a last `*` covers any further
 * plain words of a program Tandem knows, none that makes the command run another program).
 */
function covers(words: readonly string[], part: readonly string[]): boolean {
  const any = words.at(-1) === "*";
  const fixed = any ? words.slice(0, -1) : words;
  if (any ? part.length < fixed.length : part.length !== fixed.length) return false;
  if (!fixed.every((w, i) => w === part[i])) return false;
  if (!any || part.length === fixed.length) return true;
  return knows(part[0]) && runsOther(part[0], part, fixed.length) === undefined;
}

/**
 * Every word list a deny rule is matched against: the line's parts as shell-quote reads them
 * (whatever operators join them, each line of a multi-line text too), and inside every quoted
 * word that could be a command line of its own, a few levels deep.
 */
function denyParts(line: string, depth = 0): string[][] {
  const out: string[][] = [];
  for (const text of line.split(/[\r\n]+/)) {
    let part: string[] = [];
    for (const entry of entries(text) ?? []) {
      if (typeof entry === "string") {
        part.push(entry);
        if (depth < 3 && /\s|;|&|\|/.test(entry)) out.push(...denyParts(entry, depth + 1));
      } else if ("comment" in entry) {
        if (depth < 3) out.push(...denyParts(entry.comment, depth + 1));
      } else if ("variable" in entry) {
        continue;
      } else {
        if (part.length) out.push(part);
        part = [];
      }
    }
    if (part.length) out.push(part);
  }
  // Backticks stay inside a word for shell-quote: the text between them is a command too.
  if (depth < 3)
    for (const [, inner] of line.matchAll(/`([^`]*)`/g)) out.push(...denyParts(inner, depth + 1));
  return out;
}

/** The deny rule that refuses `line`, if any. */
export function deniedBy(line: string, deny: readonly string[]): string | undefined {
  return refusal(line, deny)?.rule;
}

/** The deny rule that refuses `line` and the part of the line it matched, if any. */
function refusal(line: string, deny: readonly string[]): { rule: string; part: string[] } | undefined {
  const parts = denyParts(line);
  for (const rule of deny) {
    const read = ruleWords(rule);
    if ("why" in read) continue;
    const part = parts.find((p) => denies(read.words, p));
    if (part) return { rule, part };
  }
  return undefined;
}

/** The allow rules that are rules (others are left out: they allow nothing). */
function allowWords(allow: readonly string[]): { rule: string; words: string[] }[] {
  const out: { rule: string; words: string[] }[] = [];
  for (const rule of allow) {
    const read = ruleWords(rule);
    if ("words" in read && !wrapper(read.words[0])) out.push({ rule, words: read.words });
  }
  return out;
}

/**
 * Judges `line` under `rules`: denied by a deny rule, allowed when plain and every part allowed,
 * else asked. `platform` is where it runs (its shell reads the line: see `plainParts`).
 */
export function judgeCommand(
  line: string,
  rules: CommandRules,
  platform: string = process.platform,
): CommandJudgement {
  const denied = refusal(line, rules.deny);
  if (denied !== undefined) {
    // The part is named so the model (and the person) can tell what to change.
    const part = visible(oneLine(denied.part.join(" ")));
    return {
      verdict: "denied",
      rule: denied.rule,
      why: t('Your rule "{0}" refuses this command (its part `{1}`).', denied.rule, part),
    };
  }
  const plain = plainParts(line, platform);
  if ("why" in plain) return { verdict: "ask", why: t("No rule can allow it. {0}", plain.why) };
  const allow = allowWords(rules.allow);
  const used: string[] = [];
  const missing: string[][] = [];
  for (const part of plain.parts) {
    const rule = allow.find((a) => covers(a.words, part));
    if (rule) used.push(rule.rule);
    else missing.push(part);
  }
  if (missing.length === 0) return { verdict: "allowed", rules: [...new Set(used)] };
  const offer = missing.map((part) => part.map(quoted));
  const written = missing.map((part) => `\`${part.join(" ")}\``).join(", ");
  const risky = missing.map((part) => whyNot(part, allow)).find((why) => why !== undefined);
  return {
    verdict: "ask",
    why: t("No rule of yours allows {0}.", written) + (risky ? ` ${risky}` : ""),
    offer: offer.every((words) => words.every((w) => w !== undefined))
      ? [...new Set(offer.map((words) => words.join(" ")))]
      : undefined,
  };
}

/** Why a `*` rule for the part's command does not cover it (a risky word, an unknown program), if one would otherwise. */
function whyNot(part: readonly string[], allow: { words: string[] }[]): string | undefined {
  const risky = runsOther(part[0], part, 1);
  if (risky) return risky;
  const starred = allow.some(
    (a) =>
      a.words.at(-1) === "*" &&
      a.words.length - 1 < part.length &&
      a.words.slice(0, -1).every((w, i) => w === part[i]),
  );
  return starred && !knows(part[0]) ? unknownProgram(part[0]) : undefined;
}

/** A word as a rule writes it (quoted when it holds a space or a shell character); undefined when it cannot be. */
function quoted(word: string): string | undefined {
  if (/^[A-Za-z0-9_\-./:=,+@]+$/.test(word)) return word;
  if (!word.includes("'")) return `'${word}'`;
  return word.includes('"') ? undefined : `"${word}"`;
}
