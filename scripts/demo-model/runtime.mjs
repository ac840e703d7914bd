// The demo model's inference runtime: node-llama-cpp with only this platform's prebuilt binary, installed
// into its own folder (a plain install pulls every platform, ~730 MB; this one is ~83 MB), outside the
// extension's dependencies so the VSIX and `npm ci` stay light.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync } from "node:fs";
import { join } from "node:path";

/** The packages `npm start` and the demo's test install, at exact versions. */
export const RUNTIME = ["node-llama-cpp@3.21.1", "@node-llama-cpp/linux-x64@3.21.1"];

/** True when node-llama-cpp is installed in DIR. */
export function hasRuntime(dir) {
  return existsSync(join(dir, "node_modules/node-llama-cpp"));
}

/** Installs the runtime into DIR unless it is there; throws with npm's output when the install fails. */
export function ensureRuntime(dir, { quiet = false } = {}) {
  if (hasRuntime(dir)) return;
  mkdirSync(dir, { recursive: true });
  const args = ["install", "--prefix", dir, "--no-audit", "--no-fund", "-E", "--omit=optional", ...RUNTIME];
  const result = spawnSync("npm", args, { stdio: quiet ? "pipe" : "inherit", encoding: "utf8" });
  if (result.status !== 0) {
    throw new Error(`installing node-llama-cpp failed${quiet ? `: ${result.stderr ?? ""}` : " (see above)"}`);
  }
}
