/** Lists of tool names by commas, as an assistant's `tools` and `approve` are written (no imports: the editor layer reads them too). */

/** The names of a list by commas: trimmed, blanks left out. */
export function names(list: string): string[] {
  return list
    .split(",")
    .map((name) => name.trim())
    .filter(Boolean);
}

/** True when `name` is in `list` (names by commas; a name ending in "*" is a prefix, so "github_*" names a plugin's tools). */
export function listed(name: string, list: string): boolean {
  return names(list).some((n) => (n.endsWith("*") ? name.startsWith(n.slice(0, -1)) : n === name));
}
