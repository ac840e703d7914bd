// `npm run package`: builds minified bundles and packs them (and only them) into tandem-<version>.vsix.
import { spawnSync } from "node:child_process";
import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const run = (cmd, args) => {
  const r = spawnSync(cmd, args, { cwd: root, stdio: "inherit" });
  if (r.status !== 0) process.exit(r.status ?? 1);
};
const { version } = JSON.parse(readFileSync(join(root, "package.json"), "utf8"));
const out = `tandem-${version}.vsix`;
run(process.execPath, ["esbuild.mjs", "--production"]);
run(process.execPath, [
  join(root, "node_modules/@vscode/vsce/vsce"),
  "package",
  "--no-dependencies",
  "--allow-missing-repository",
  "--no-rewrite-relative-links",
  "-o",
  out,
]);
const kb = (f) => Math.round(statSync(join(root, f)).size / 1024);
console.log(
  `${out}: ${kb(out)} KB (extension.js ${kb("dist/extension.js")} KB, webview.js ${kb("dist/webview.js")} KB)`,
);
