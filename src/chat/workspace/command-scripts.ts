/**
 * Programs whose arguments are a little language of their own: a sed script can run a command
 * (`e`) or write a file (`w`), an awk program can call `system()` or pipe into a command, tar's
 * first word can be old-style option letters (`tar xIf ./x a.tar`). Each reader answers the index
 * of the word that runs something, so a rule's `*` does not cover it. They read conservatively: a
 * script they cannot read counts as one that runs something.
 */

/** The words of `part` that are sed scripts: each `-e`'s value, else the first word that is no option. */
function sedScripts(part: readonly string[]): number[] {
  const out: number[] = [];
  let plain: number | undefined;
  for (let i = 1; i < part.length; i++) {
    const word = part[i];
    if (word === "-e" || word === "--expression") out.push(++i);
    else if (word.startsWith("--expression=") || (word.startsWith("-e") && !word.startsWith("--")))
      out.push(i);
    else if (word === "-l" || word === "--line-length") i++;
    else if (!word.startsWith("-") && plain === undefined) plain = i;
  }
  if (out.length === 0 && plain !== undefined) out.push(plain);
  return out.filter((i) => i < part.length);
}

/** The index after a sed address at `i` (a line number, `$`, `/re/`, `\cREc`, a range), or -1 when unreadable. */
function skipAddress(s: string, i: number): number {
  for (let n = 0; n < 2; n++) {
    if (s[i] === "/" || s[i] === "\\") {
      const d = s[i] === "\\" ? s[i + 1] : "/";
      i += s[i] === "\\" ? 2 : 1;
      i = skipDelimited(s, i, d);
      if (i < 0) return -1;
      while (s[i] === "I" || s[i] === "M") i++;
    } else if (s[i] === "$") i++;
    else if (/[0-9+~]/.test(s[i] ?? "")) while (/[0-9~+]/.test(s[i] ?? "")) i++;
    if (s[i] !== ",") break;
    i++;
  }
  return i;
}

/** The index after the next unescaped `d` from `i`, or -1 when there is none. */
function skipDelimited(s: string, i: number, d: string | undefined): number {
  if (d === undefined || d === "\n") return -1;
  for (; i < s.length; i++) {
    if (s[i] === "\\") i++;
    else if (s[i] === d) return i + 1;
  }
  return -1;
}

/** True when the sed script `s` may run a command or read or write a file (`e`, `w`, `r`, `s///e`, `s///w`). */
export function sedScriptRuns(s: string): boolean {
  let i = 0;
  while (i < s.length) {
    while (/[\s;]/.test(s[i] ?? "")) i++;
    if (i >= s.length) return false;
    i = skipAddress(s, i);
    if (i < 0) return true;
    while (/[\s!]/.test(s[i] ?? "")) i++;
    const c = s[i++];
    if (c === undefined) return false;
    if (c === "s" || c === "y") {
      const d = s[i++];
      i = skipDelimited(s, i, d);
      if (i >= 0) i = skipDelimited(s, i, d);
      if (i < 0) return true;
      const flags = /^[A-Za-z0-9]*/.exec(s.slice(i))?.[0] ?? "";
      if (c === "s" && /[ewW]/.test(flags)) return true;
      i += flags.length;
    } else if ("aic".includes(c)) {
      // Text to the end of the line: `;` is part of it.
      while (i < s.length && s[i] !== "\n") i++;
    } else if (":bTt".includes(c)) {
      while (i < s.length && !/[;\n]/.test(s[i])) i++;
    } else if ("qQlL".includes(c)) {
      while (/[\s0-9]/.test(s[i] ?? "")) i++;
    } else if (!"{}=dDgGhHnNpPxzF".includes(c)) return true;
  }
  return false;
}

/** The index of a sed script of `part` that runs a command or writes a file, if any. */
export function sedRuns(part: readonly string[]): number | undefined {
  return sedScripts(part).find((i) => {
    const word = part[i];
    const script = word.startsWith("--expression=")
      ? word.slice("--expression=".length)
      : word.startsWith("-e")
        ? word.slice(2)
        : word;
    return sedScriptRuns(script);
  });
}

/** What in an awk program runs a command, reads or writes a file: `system()`, pipes, `getline`, redirection, `@load`. */
const AWK_RUNS = /system|\||getline|@|>|close|fflush/;

/** The index of the awk program of `part` that runs something, if any (its first word that is no option or option value). */
export function awkRuns(part: readonly string[]): number | undefined {
  for (let i = 1; i < part.length; i++) {
    const word = part[i];
    if (word === "-F" || word === "-v" || word === "--field-separator" || word === "--assign") i++;
    else if (!word.startsWith("-")) return AWK_RUNS.test(word) ? i : undefined;
  }
  return undefined;
}

/** The index of tar's first word when it is old-style option letters naming a program or another folder (`xIf`). */
export function tarLetters(part: readonly string[]): number | undefined {
  const first = part[1];
  return first !== undefined && !first.startsWith("-") && /[IFCPT]/.test(first) ? 1 : undefined;
}
