/**
 * The keys of `package.json` that the editor's tools read as their configuration: Prettier's
 * `prettier`, ESLint's `eslintConfig`, Babel's `babel`, Stylelint's `stylelint`, Jest's `jest`.
 * Each names plugins, parsers or setup files that are loaded from the workspace and run when a file
 * is formatted, linted or its tests listed, with nobody running anything on purpose. The rest of
 * the file is ordinary (its `scripts` run only through a command, which is judged as one), so only
 * a write that changes one of these keys is protected.
 */
import { readFile } from "node:fs/promises";
import { basename } from "node:path";
import { argsOrEmpty } from "../../protocol/args";
import { edited } from "./edit";

/** The keys whose value a tool loads code by. */
export const TOOL_KEYS = ["prettier", "eslintConfig", "babel", "stylelint", "jest"];

/** The keys of `TOOL_KEYS` whose value differs between the texts `before` and `after` (a `package.json`). */
export function changedKeys(before: string | undefined, after: string): string[] {
  const old = objectOf(before ?? "{}") ?? {};
  const now = objectOf(after);
  // A text that is no JSON object is read by no tool as it is, but the next edit may finish it.
  if (!now) return [...TOOL_KEYS];
  return TOOL_KEYS.filter((key) => JSON.stringify(old[key]) !== JSON.stringify(now[key]));
}

/** The JSON object `text` holds, or undefined (a byte-order mark is allowed, as Node allows it). */
function objectOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text.replace(/^\uFEFF/, ""));
    return value !== null && typeof value === "object" && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The protected place a call of `tool` (create_file or propose_edit, with the JSON `input`) would
 * write to the file at `absolute`, when that is a `package.json` and the write changes a tool's
 * key: `package.json "prettier"`. Undefined for any other file or write, and for an edit that
 * cannot be made (the tool refuses it).
 */
export async function toolKeysWritten(
  tool: string,
  input: string,
  absolute: string,
): Promise<string | undefined> {
  if (basename(absolute).toLowerCase() !== "package.json") return undefined;
  const args = argsOrEmpty(input);
  const before = await readFile(absolute, "utf8").catch(() => undefined);
  let after: string;
  if (tool === "create_file") {
    if (typeof args.content !== "string") return undefined;
    after = args.content;
  } else {
    if (before === undefined) return undefined;
    try {
      after = edited(before, "package.json", {
        path: "package.json",
        content: typeof args.content === "string" ? args.content : undefined,
        oldText: typeof args.oldText === "string" ? args.oldText : undefined,
        newText: typeof args.newText === "string" ? args.newText : undefined,
      });
    } catch {
      // Not made on the file on disk (the editor may hold other text): judged by what it names.
      const named = TOOL_KEYS.filter((key) =>
        [args.oldText, args.newText, args.content].some(
          (t) => typeof t === "string" && t.includes(`"${key}"`),
        ),
      );
      return named.length ? placeOf(named) : undefined;
    }
  }
  const keys = changedKeys(before, after);
  return keys.length ? placeOf(keys) : undefined;
}

/** The protected place of a write that changes `keys` of a package.json. */
function placeOf(keys: string[]): string {
  return `package.json ${keys.map((key) => `"${key}"`).join(", ")}`;
}
