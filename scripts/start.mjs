// `npm start`: sets up and starts Tandem in a real VS Code in the browser. Installs what is missing (the
// dependencies, Node 24 and code-server into .vscode-test/), builds and packages Tandem, installs the VSIX,
// and serves VS Code on http://127.0.0.1:PORT with a sample workspace. Ctrl-C stops it.
import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");

function fail(message) {
  console.error(`\nnpm start: ${message}`);
  process.exit(1);
}

function step(what, cmd, args, hint) {
  console.log(`• ${what}`);
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) fail(hint);
}

if (!existsSync(join(root, "node_modules/esbuild"))) {
  step("installing dependencies", "npm", ["ci", "--no-audit", "--no-fund"], "`npm ci` failed; check the network to the npm registry and run it again.");
}
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const vsix = join(root, `tandem-${version}.vsix`);
step("building and packaging Tandem", process.execPath, ["scripts/package.mjs"], "the build failed (see above). Fix the error, or run `npm ci` to restore the dependencies, then `npm start` again.");
if (!existsSync(vsix) || !existsSync(join(root, "dist/extension.js"))) {
  fail("the package is missing after the build. Run `npm run package` and read its output.");
}

const vscode = await import("./vscode.mjs");
try {
  vscode.ensureCodeServer();
} catch (e) {
  fail(`${e.message}. On Debian, first: sudo apt-get install -y libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev`);
}
const home = join(vscode.testDir, "start");
const dirs = { user: join(home, "user"), server: join(home, "server"), extensions: join(home, "extensions") };
const workspace = join(home, "sample-workspace");
if (!existsSync(workspace)) {
  mkdirSync(home, { recursive: true });
  cpSync(join(root, "test/integration/workspace"), workspace, { recursive: true });
}
console.log("• installing the VSIX into VS Code");
try {
  vscode.installVsix(vsix, dirs);
} catch (e) {
  fail(e.message);
}
const port = Number(process.env.PORT) || (await vscode.freePort());
const model = process.env.AI_URL || process.env.AI_MODEL ? `${process.env.AI_MODEL ?? "(default model)"} at ${process.env.AI_URL ?? "OpenRouter"}` : "none yet: set one in the panel or with AI_URL / AI_MODEL / AI_API_KEY";
const server = await vscode.startServer(port, dirs, { extra: ["--disable-workspace-trust"] }).catch((e) => fail(e.message));
const stop = () => {
  server.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
console.log(`\nTandem ${version} is running in VS Code 1.139.\n  Open:   http://127.0.0.1:${port}/?folder=${encodeURI(workspace)}\n  Model:  ${model}\n  Stop:   Ctrl-C\n`);
server.child.on("exit", (code) => fail(`VS Code exited with ${code}`));
