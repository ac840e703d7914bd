import assert from "node:assert/strict";
import { readdirSync, readFileSync, statSync } from "node:fs";
import { join, relative } from "node:path";

const root = join(__dirname, "../..");

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return files(path);
    return /\.(ts|tsx|mts)$/.test(name) ? [path] : [];
  });
}

/** The module specifiers a file imports (static, dynamic and require). */
function imports(path: string): string[] {
  const text = readFileSync(path, "utf8");
  const found: string[] = [];
  const pattern =
    /(?:import|export)\s[^'"]*?from\s*["']([^"']+)["']|import\s*\(\s*["']([^"']+)["']\s*\)|require\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g;
  for (const m of text.matchAll(pattern)) found.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  return found;
}

describe("layers", () => {
  it("only src/vscode imports vscode", () => {
    const offenders = files(join(root, "src"))
      .filter((f) => !relative(root, f).startsWith("src/vscode/"))
      .filter((f) => imports(f).includes("vscode"))
      .map((f) => relative(root, f));
    assert.deepEqual(offenders, []);
  });

  it("the webview imports nothing from src/ but src/protocol", () => {
    const offenders = files(join(root, "webview-ui")).flatMap((f) =>
      imports(f)
        .filter((spec) => spec.startsWith("."))
        .map((spec) => relative(root, join(f, "..", spec)))
        .filter((target) => target.startsWith("src/") && !target.startsWith("src/protocol/"))
        .map((target) => `${relative(root, f)} -> ${target}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("the webview imports no vscode or Node module", () => {
    const offenders = files(join(root, "webview-ui")).flatMap((f) =>
      imports(f)
        .filter((spec) => spec === "vscode" || spec.startsWith("node:"))
        .map((spec) => `${relative(root, f)} -> ${spec}`),
    );
    assert.deepEqual(offenders, []);
  });

  it("the checker sees the imports it must refuse", () => {
    // Guards the check itself: a pattern that matched nothing would let every import through.
    const sample = join(root, "src/vscode/extension.ts");
    assert.ok(imports(sample).includes("vscode"));
  });
});
