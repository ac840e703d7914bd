import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

// Rules both sides need are written once: a second copy drifts (ours did). These read the sources.
const root = join(__dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.ts$/.test(name) ? [path] : [];
  });
}

/** The files of src/ and webview-ui/ whose text matches `pattern`, relative to the root. */
function holding(pattern: RegExp): string[] {
  return [...files(join(root, "src")), ...files(join(root, "webview-ui"))]
    .filter((f) => pattern.test(readFileSync(f, "utf8")))
    .map((f) => relative(root, f))
    .sort();
}

describe("rules written once", () => {
  it("the HTML escape map lives in src/markdown/html.ts only", () => {
    assert.deepEqual(holding(/["']'["']\s*:\s*["']&#39;["']/), ["src/markdown/html.ts"]);
  });

  it("a tool call's arguments are parsed by src/protocol/args.ts only", () => {
    assert.deepEqual(holding(/JSON\.parse\([^)]*\b(arguments|args|argsJson|input)\b/), []);
  });

  it("source chips are made by src/protocol/sources.ts only", () => {
    // A chip's site: the host name in lower case without "www.".
    assert.deepEqual(holding(/hostname[^\n;]*replace\(\/\^www\\\./), ["src/protocol/sources.ts"]);
  });
});
