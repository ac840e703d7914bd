// `npm run test:electron`: the integration tests in desktop VS Code via @vscode/test-electron. It downloads
// VS Code, so it needs the Internet (CI here uses test/integration/run.mjs with code-server instead).
import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { runTests } from "@vscode/test-electron";

const root = new URL("../..", import.meta.url).pathname;
if (spawnSync(process.execPath, ["esbuild.mjs"], { cwd: root, stdio: "inherit" }).status !== 0)
  process.exit(1);
const workspace = join(root, "test/integration/workspace");
try {
  await runTests({
    extensionDevelopmentPath: root,
    extensionTestsPath: join(root, "out/integration/index.js"),
    launchArgs: [workspace, "--disable-extensions"],
    extensionTestsEnv: {
      TANDEM_TEST_RESULT: join(mkdtempSync(join(tmpdir(), "tandem-")), "result.json"),
      TANDEM_WORKSPACE: workspace,
    },
  });
} catch (e) {
  console.error(`test:electron: ${e.message}`);
  process.exit(1);
}
