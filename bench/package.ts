// BENCH package: the size of the VSIX and its bundles, and the extension's activation time measured inside
// the real VS Code (the integration harness's activation test), against an empty extension activated the
// same way in the same window (test/fixtures/empty-extension). Goals: activate_ms ≤ 50, activate_vs_empty ≤ 3.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = join(__dirname, "..");
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8")) as { version: string };
const packed = spawnSync(process.execPath, ["scripts/package.mjs"], { cwd: root, stdio: "ignore" });
if (packed.status !== 0) throw new Error("npm run package failed");
const kb = (file: string) => Math.round(statSync(join(root, file)).size / 1024);
const sizes = {
  vsix: kb(`tandem-${version}.vsix`),
  extension: kb("dist/extension.js"),
  webview: kb("dist/webview.js"),
};
const run = spawnSync(process.execPath, ["test/integration/run.mjs"], {
  cwd: root,
  stdio: "ignore",
  env: { ...process.env, TANDEM_TEST_GREP: "activates" },
});
const results = JSON.parse(readFileSync(join(root, ".artifacts/vscode-results.json"), "utf8")) as {
  failed: number;
  metrics: Record<string, number>;
};
if (run.status !== 0 || results.failed) throw new Error("the activation run in VS Code failed");
const { activate_ms: activate, vscode_api_ms: api, empty_ms: empty } = results.metrics;
// Both from the extension's first line to the end of its activate, VS Code's making of the `vscode` API
// object included (activate_ms leaves that out: it is VS Code's cost, reported as vscode_api_ms).
const vsEmpty = (activate + api) / empty;
console.log(
  `BENCH package vsix_kb=${sizes.vsix} extension_js_kb=${sizes.extension} webview_js_kb=${sizes.webview} activate_ms=${activate.toFixed(2)} vscode_api_ms=${api.toFixed(2)} empty_ms=${empty.toFixed(2)} activate_vs_empty=${vsEmpty.toFixed(1)}`,
);
