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

/** The files under `places` (folders or files; src/ and webview-ui/ by default) whose text matches `pattern`. */
function holding(pattern: RegExp, ...places: string[]): string[] {
  const where = places.length ? places : ["src", "webview-ui"];
  return where
    .flatMap((where) => (where.endsWith(".ts") ? [join(root, where)] : files(join(root, where))))
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

  it("the editor layer drops no failure; the panel and the execute server start none without shown() or logged()", () => {
    const dropped = holding(/\.catch\(\(\) => undefined\)|, \(\) => undefined\)/, "src/vscode");
    const unwaited = holding(
      /\bvoid (view\.webview\.postMessage|vscode\.commands\.executeCommand|vscode\.env\.openExternal|api\.start|openInWorkspace|codeAction)\(/,
      "src/vscode/panel.ts",
      "src/vscode/execute-api.ts",
    );
    assert.deepEqual({ dropped, unwaited }, { dropped: [], unwaited: [] });
  });

  it("package.json names each key of an object once (JSON keeps the last, and the first is lost)", () => {
    const twice: string[] = [];
    // JSON.parse keeps no trace of a repeated key: read the text with a scanner of its own, which
    // steps over every string (a brace inside a value is text) and counts keys per object.
    const text = readFileSync(join(root, "package.json"), "utf8");
    const stack: Set<string>[] = [];
    const token = /("(?:[^"\\]|\\.)*")(\s*:)?|[{}]/g;
    for (let m = token.exec(text); m; m = token.exec(text)) {
      if (m[0] === "{") stack.push(new Set());
      else if (m[0] === "}") stack.pop();
      else if (m[2]) {
        const key = m[1];
        if (stack.at(-1)!.has(key)) twice.push(key);
        stack.at(-1)!.add(key);
      }
    }
    assert.deepEqual(twice, []);
  });
});
