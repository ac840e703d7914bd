// The real-VS-Code harness: packages Tandem, installs the VSIX into code-server's VS Code 1.139, opens the
// workbench in headless Chromium with mocha as the extension tests, and exits with the tests' result.
// Prints `vscode: N passed, N failed` and writes .artifacts/vscode-results.json.
import { spawnSync } from "node:child_process";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
  cpSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { format } from "node:util";
import { join } from "node:path";
import { chromium } from "playwright-core";
import {
  root,
  ensureCodeServer,
  freePort,
  installVsix,
  startServer,
  chromiumArgs,
  chromiumPath,
  requireChromium,
} from "../../scripts/vscode.mjs";

const results = join(root, ".artifacts/vscode-results.json");
mkdirSync(join(root, ".artifacts"), { recursive: true });
rmSync(results, { force: true });

const cleanups = [];
const cleanup = async () => {
  while (cleanups.length) {
    try {
      await cleanups.pop()();
    } catch {
      /* keep cleaning */
    }
  }
};
for (const sig of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(sig, async () => {
    await cleanup();
    process.exit(130);
  });
}

function finish(passed, failed, note, metrics = {}) {
  if (note) console.error(note);
  writeFileSync(results, JSON.stringify({ passed, failed, metrics }));
  console.log(`vscode: ${passed} passed, ${failed} failed`);
}

async function main() {
  requireChromium();
  ensureCodeServer();
  const pkg = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
  const vsix = join(root, `tandem-${pkg.version}.vsix`);
  const packed = spawnSync(process.execPath, ["scripts/package.mjs"], { cwd: root, stdio: "inherit" });
  if (packed.status !== 0 || !existsSync(vsix)) throw new Error("packaging the VSIX failed");
  // The tests' own bundle (out/integration) comes from the development build.
  const built = spawnSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "inherit" });
  if (built.status !== 0) throw new Error("the build failed");

  const run = mkdtempSync(join(tmpdir(), "tandem-vscode-"));
  cleanups.push(() => rmSync(run, { recursive: true, force: true }));
  const dirs = { user: join(run, "user"), server: join(run, "server"), extensions: join(run, "extensions") };
  const workspace = join(run, "workspace");
  cpSync(join(root, "test/integration/workspace"), workspace, { recursive: true });
  installVsix(vsix, dirs);
  const installed = readdirSync(dirs.extensions).find((d) => d.startsWith("tandem-dev.tandem-"));
  if (!installed) throw new Error("the VSIX did not install");
  const extensionPath = join(dirs.extensions, installed);

  const port = await freePort();
  const tmp = join(run, "tmp");
  mkdirSync(tmp);
  const server = await startServer(port, dirs, {
    extra: ["--enable-smoke-test-driver", "--disable-workspace-trust"],
    env: { TMPDIR: tmp },
    log: (s) => process.env.TANDEM_VERBOSE && process.stderr.write(s),
  });
  cleanups.push(server.stop);

  const browser = await chromium.launch({ executablePath: chromiumPath, args: chromiumArgs });
  cleanups.push(() => browser.close());
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  const resultFile = join(run, "result.json");
  const env = {
    TANDEM_TEST_RESULT: resultFile,
    TANDEM_WORKSPACE: workspace,
    TANDEM_TEST_GREP: process.env.TANDEM_TEST_GREP ?? "",
    ...JSON.parse(process.env.TANDEM_TEST_ENV || "{}"),
  };
  const remote = (p) => `vscode-remote://127.0.0.1:${port}${p}`;
  const payload = [
    ["extensionDevelopmentPath", remote(extensionPath)],
    ["extensionTestsPath", remote(join(root, "out/integration/index.js"))],
    ["extensionEnvironment", JSON.stringify(env)],
  ];
  const exited = new Promise((resolve) => {
    page.exposeFunction("codeAutomationExit", (code) => resolve(code)).catch(() => {});
  });
  await page.exposeFunction("codeAutomationLog", (type, args) => {
    const line = format(...(Array.isArray(args) ? args : [args]));
    // The workbench's own chatter (sign-in probes of built-in agents) is noise here.
    if (line.trim() && (process.env.TANDEM_VERBOSE || !/^\[(AgentHost|RemoteAgentHostProtocol)\]/.test(line)))
      console.log(line);
  });
  const url = `http://127.0.0.1:${port}/?folder=${encodeURIComponent(workspace)}&payload=${encodeURIComponent(JSON.stringify(payload))}`;
  await page.goto(url);
  const limit = Number(process.env.TANDEM_VSCODE_TIMEOUT_MS || 10 * 60_000);
  const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r("timeout"), limit))]);
  await page.screenshot({ path: join(root, ".artifacts/vscode.png") }).catch(() => {});
  if (code === "timeout") return finish(0, 1, `the tests did not finish within ${limit / 1000} s`);
  if (!existsSync(resultFile)) return finish(0, 1, `the tests exited with ${code} and wrote no result file`);
  const { passed, failed, failures, metrics } = JSON.parse(readFileSync(resultFile, "utf8"));
  for (const f of failures ?? []) console.error(`  failed: ${f}`);
  finish(passed, failed + (code !== 0 && failed === 0 ? 1 : 0), undefined, metrics);
}

main()
  .catch((e) => finish(0, 1, `vscode harness: ${e.message}`))
  .finally(async () => {
    await cleanup();
    const { failed } = JSON.parse(readFileSync(results, "utf8"));
    process.exit(failed ? 1 : 0);
  });
