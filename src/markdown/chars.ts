// Character tables for the streaming shortcuts, which classify text a character code at a time
// instead of running a regular expression over it.

/** For each ASCII character, the kind paired with the first pattern that matches it (0: none). */
export function asciiKinds(...kinds: [pattern: RegExp, kind: number][]): Uint8Array {
  return Uint8Array.from({ length: 128 }, (_, c) => {
    const char = String.fromCharCode(c);
    return kinds.find(([pattern]) => pattern.test(char))?.[1] ?? 0;
  });
}

/** For each ASCII character, 1 when PATTERN matches it. */
export function asciiSet(pattern: RegExp): Uint8Array {
  return asciiKinds([pattern, 1]);
}

/** Whether the character code C is an ASCII letter or digit. */
export function isAlnum(c: number): boolean {
  return (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
}

/**
 * The last index of the character code C in TEXT, or -1: a loop, which on the short strings of a
 * delta costs a fraction of `lastIndexOf` (a call into the engine's runtime each time).
 */
export function lastOf(text: string, c: number): number {
  let i = text.length - 1;
  while (i >= 0 && text.charCodeAt(i) !== c) i--;
  return i;
}

/** The last index of a blank (a space or a tab) in TEXT, or -1 (see `lastOf`). */
export function lastBlank(text: string): number {
  let i = text.length - 1;
  while (i >= 0 && text.charCodeAt(i) !== 32 && text.charCodeAt(i) !== 9) i--;
  return i;
}
