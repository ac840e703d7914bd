/**
 * One name, one meaning: no two files of src/ and webview-ui/ share a name, so a name found in a
 * stack trace, an import or a review says which file it is. The one name shared on purpose is a
 * room's door, `index.ts`, which says "the door of this folder" wherever it is.
 */
import assert from "node:assert/strict";
import { readdirSync, statSync } from "node:fs";
import { basename, join, relative } from "node:path";

const root = join(__dirname, "../..");

/** Names more than one file may have, each for one reason. */
const SHARED = new Map([["index.ts", "a folder's door: what the folder offers the rest of the tree"]]);

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : [path];
  });
}

/** The file names held by more than one file, each with its paths. */
export function sharedNames(paths: readonly string[]): Record<string, string[]> {
  const byName = new Map<string, string[]>();
  for (const path of paths) byName.set(basename(path), [...(byName.get(basename(path)) ?? []), path]);
  return Object.fromEntries(
    [...byName]
      .filter(([name, held]) => held.length > 1 && !SHARED.has(name))
      .sort(([a], [b]) => a.localeCompare(b)),
  );
}

describe("names", () => {
  it("no two files of src/ and webview-ui/ share a name (but a door, index.ts)", () => {
    const paths = [...files(join(root, "src")), ...files(join(root, "webview-ui"))].map((p) =>
      relative(root, p),
    );
    assert.deepEqual(sharedNames(paths), {});
  });

  it("two files of one name in different folders are found, whatever their folders", () => {
    const paths = [
      "src/chat/panel/host.ts",
      "webview-ui/host.ts",
      "src/chat/runner/index.ts",
      "src/agent/index.ts",
    ];
    assert.deepEqual(sharedNames(paths), { "host.ts": ["src/chat/panel/host.ts", "webview-ui/host.ts"] });
  });
});
