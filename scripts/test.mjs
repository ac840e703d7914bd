// `npm test`: typecheck, lint, format check, unit tests, the panel in Chromium and the extension in a real
// VS Code; then one summary line `N passed, N failed` (each check counts as one, each test as one).
// `npm test -- unit` (or typecheck, lint, format, webview, vscode) runs only those stages.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { ensureCodeServer } from "./vscode.mjs";

const root = new URL("..", import.meta.url).pathname;
const bin = (name) => join(root, "node_modules/.bin", name);
const artifacts = join(root, ".artifacts");
mkdirSync(artifacts, { recursive: true });

function sh(cmd, args, env = {}) {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit", env: { ...process.env, ...env } });
  return r.status ?? 1;
}

/** A check that passes or fails as a whole. */
const check = (cmd, args) => () =>
  sh(cmd, args) === 0 ? { passed: 1, failed: 0 } : { passed: 0, failed: 1 };

/** A mocha run whose counts come from the counting reporter. */
const mocha =
  (name, globs, extra = []) =>
  () => {
    const file = join(artifacts, `${name}-count.json`);
    rmSync(file, { force: true });
    const code = sh(
      bin("mocha"),
      [
        "--node-option",
        "import=tsx",
        "--reporter",
        join(root, "scripts/mocha-count.cjs"),
        ...extra,
        ...globs,
      ],
      {
        TANDEM_COUNT_FILE: file,
      },
    );
    if (!existsSync(file))
      return { passed: 0, failed: 1, note: `${name}: mocha exited with ${code} before reporting` };
    const counts = JSON.parse(readFileSync(file, "utf8"));
    // A crash after the counts (an unhandled rejection) still fails the stage.
    if (code !== 0 && counts.failed === 0) counts.failed = 1;
    return counts;
  };

const vscode = () => {
  const file = join(artifacts, "vscode-results.json");
  rmSync(file, { force: true });
  const code = sh(process.execPath, [join(root, "test/integration/run.mjs")]);
  if (!existsSync(file))
    return { passed: 0, failed: 1, note: `vscode: the harness exited with ${code} before reporting` };
  return JSON.parse(readFileSync(file, "utf8"));
};

const stages = {
  typecheck: check(bin("tsc"), ["-p", ".", "--noEmit"]),
  lint: check(bin("eslint"), ["."]),
  format: check(bin("prettier"), ["--check", "--log-level", "warn", "."]),
  // The search tests run on VS Code's own ripgrep, taken from the code-server the harness installs.
  unit: (run = mocha("unit", ["test/unit/**/*.test.ts"], ["--timeout", "20000", "--exit"])) => {
    try {
      ensureCodeServer();
    } catch (error) {
      return {
        passed: 0,
        failed: 1,
        note: `unit: code-server (for its ripgrep) could not be installed: ${error.message}`,
      };
    }
    return run();
  },
  webview: mocha("webview", ["test/webview/**/*.test.ts"], ["--timeout", "60000"]),
  vscode,
};

if (!existsSync(join(root, "node_modules/.bin/mocha"))) {
  console.log("installing dependencies (npm ci) …");
  if (sh("npm", ["ci", "--no-audit", "--no-fund"]) !== 0) {
    console.log("0 passed, 1 failed");
    process.exit(1);
  }
}

const wanted = process.argv.slice(2).filter((a) => !a.startsWith("-"));
const unknown = wanted.filter((w) => !(w in stages));
if (unknown.length) {
  console.error(`unknown stage ${unknown.join(", ")}; stages: ${Object.keys(stages).join(", ")}`);
  process.exit(2);
}
const order = wanted.length ? wanted : Object.keys(stages);
let passed = 0;
let failed = 0;
const lines = [];
/** What failed, by stage: repeated just above the summary line, where a log read only at its end names it. */
const failures = [];
/** A failure on one line, its error's lines folded in. */
const folded = (f) =>
  String(f)
    .split("\n")
    .map((l) => l.trim())
    .filter(Boolean)
    .join(" ⏎ ")
    .slice(0, 400);
for (const name of order) {
  console.log(`\n=== ${name} ===`);
  const started = Date.now();
  const r = stages[name]();
  passed += r.passed;
  failed += r.failed;
  for (const f of r.failures ?? []) failures.push(`${name}: ${folded(f)}`);
  lines.push(
    `${name.padEnd(10)} ${String(r.passed).padStart(4)} passed ${String(r.failed).padStart(3)} failed  ${Math.round((Date.now() - started) / 1000)} s${r.note ? `  (${r.note})` : ""}`,
  );
}
console.log(`\n${lines.join("\n")}`);
if (failures.length) console.log(`\nfailed:\n${failures.map((f) => `  ${f}`).join("\n")}`);
console.log(`${passed} passed, ${failed} failed`);
process.exit(failed ? 1 : 0);
