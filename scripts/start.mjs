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
  step(
    "installing dependencies",
    "npm",
    ["ci", "--no-audit", "--no-fund"],
    "`npm ci` failed; check the network to the npm registry and run it again.",
  );
}
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const vsix = join(root, `tandem-${version}.vsix`);
step(
  "building and packaging Tandem",
  process.execPath,
  ["scripts/package.mjs"],
  "the build failed (see above). Fix the error, or run `npm ci` to restore the dependencies, then `npm start` again.",
);
if (!existsSync(vsix) || !existsSync(join(root, "dist/extension.js"))) {
  fail("the package is missing after the build. Run `npm run package` and read its output.");
}

const vscode = await import("./vscode.mjs");
try {
  vscode.ensureCodeServer();
} catch (e) {
  fail(
    `${e.message}. On Debian, first: sudo apt-get install -y libkrb5-dev libx11-dev libxkbfile-dev libsecret-1-dev`,
  );
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
const { model, env, demo } = await chooseModel();
const server = await vscode
  .startServer(port, dirs, { extra: ["--disable-workspace-trust"], env })
  .catch((e) => fail(e.message));
const stop = async () => {
  server.stop();
  await demo?.stop();
  process.exit(0);
};
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
console.log(
  `\nTandem ${version} is running in VS Code 1.139.\n  Open:   http://127.0.0.1:${port}/?folder=${encodeURI(workspace)}\n  Model:  ${model}\n  Stop:   Ctrl-C\n`,
);
server.child.on("exit", (code) => fail(`VS Code exited with ${code}`));

/** The model Tandem starts with: AI_URL / AI_MODEL, else a server on this computer, else the demo model. */
async function chooseModel() {
  if (process.env.AI_URL || process.env.AI_MODEL) {
    return {
      model: `${process.env.AI_MODEL ?? "(the endpoint's first model)"} at ${process.env.AI_URL ?? "OpenRouter"}`,
      env: {},
    };
  }
  const local = await findLocalServer();
  if (local) return { model: `the models of ${local} (found on this computer)`, env: {} };
  console.log("• no model configured and none found on this computer: starting the demo model");
  const dir = join(vscode.testDir, "demo");
  const { ensureRuntime, hasRuntime } = await import("./demo-model/runtime.mjs");
  if (!hasRuntime(dir)) console.log("• installing the inference runtime node-llama-cpp (once)");
  try {
    ensureRuntime(dir);
  } catch {
    fail("installing node-llama-cpp failed; set AI_URL and AI_MODEL to use your own model instead.");
  }
  const { makeGguf } = await import("./demo-model/make-gguf.mjs");
  const { serveDemo, DEMO_MODEL } = await import("./demo-model/serve.mjs");
  const modelPath = makeGguf(join(dir, `${DEMO_MODEL}.gguf`));
  const demo = await serveDemo({ dir, modelPath }).catch((e) =>
    fail(`the demo model did not start: ${e.message}`),
  );
  return {
    model: `${DEMO_MODEL} — a DEMO model with random weights at ${demo.url}: it writes random words from a small list, and asked to read or write a file (\`read README.md\`, \`write notes.md\`) it calls a tool. Set AI_URL / AI_MODEL / AI_API_KEY for a real model.`,
    env: { AI_URL: demo.url, AI_MODEL: DEMO_MODEL, AI_API_KEY: "none" },
    demo,
  };
}

/** The first model server answering on this computer's usual ports, if any. */
async function findLocalServer() {
  const servers = [
    ["Ollama", 11434],
    ["LM Studio", 1234],
    ["llama.cpp", 8080],
    ["vLLM", 8000],
  ];
  const found = await Promise.all(
    servers.map(async ([name, port]) => {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/v1/models`, { signal: AbortSignal.timeout(400) });
        return res.ok ? name : undefined;
      } catch {
        return undefined;
      }
    }),
  );
  return found.find(Boolean);
}
