// Builds Tandem's bundles: the extension host (node, cjs), the execute server (node), the panel (browser)
// and the integration tests that run inside VS Code. `--watch` rebuilds on change; `--production`
// minifies without source maps (what the package ships); `--analyze` prints what dist/extension.js holds,
// largest first, and why each module is there (esbuild's metafile).
import * as esbuild from "esbuild";
import { copyFileSync, existsSync, mkdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { writeNotices } from "./scripts/notices.mjs";
import { commonOptions, extensionBundle, nodeOptions } from "./scripts/bundles.mjs";

const root = dirname(fileURLToPath(import.meta.url));
const watch = process.argv.includes("--watch");
const production = process.argv.includes("--production");
const analyze = process.argv.includes("--analyze");

const common = commonOptions(production);
const node = nodeOptions(production);

/** @type {esbuild.BuildOptions[]} */
const builds = [
  extensionBundle(production),
  // The heavy parts, loaded on first use (src/vscode/core.ts), so activation parses only the thin layer.
  { ...node, entryPoints: { core: "src/vscode/core-entry.ts" }, outdir: "dist" },
  {
    ...common,
    platform: "browser",
    format: "iife",
    target: "es2022",
    entryPoints: { webview: "webview-ui/main.ts" },
    outdir: "dist",
  },
];
if (existsSync(join(root, "src/execute/cli.ts"))) {
  builds.push({ ...node, entryPoints: { "execute-server": "src/execute/cli.ts" }, outdir: "dist" });
}
if (existsSync(join(root, "src/agent/pdf-bundle.ts"))) {
  // PDF parsing is heavy (~1.5 MB, pdfjs's worker included): its own file, loaded only when a PDF is
  // attached; src/agent/pdf.ts requires it at run time, so extension.js never holds pdf-parse.
  builds.push({ ...node, entryPoints: { pdf: "src/agent/pdf-bundle.ts" }, outdir: "dist" });
}
if (!production) {
  // The integration tests run inside VS Code's extension host; mocha is resolved from node_modules.
  builds.push({
    ...node,
    entryPoints: { index: "test/integration/suite/index.ts" },
    outdir: "out/integration",
    external: ["vscode", "mocha"],
  });
}

function copyAssets() {
  mkdirSync(join(root, "dist"), { recursive: true });
  const codicons = join(root, "node_modules/@vscode/codicons/dist");
  copyFileSync(join(codicons, "codicon.css"), join(root, "dist/codicon.css"));
  copyFileSync(join(codicons, "codicon.ttf"), join(root, "dist/codicon.ttf"));
}

copyAssets();
if (watch) {
  const contexts = await Promise.all(builds.map((b) => esbuild.context(b)));
  await Promise.all(contexts.map((c) => c.watch()));
  console.log("watching for changes…");
} else {
  const started = performance.now();
  const results = await Promise.all(
    builds.map((b) => esbuild.build({ ...b, metafile: production || analyze })),
  );
  if (analyze) console.log(await esbuild.analyzeMetafile(results[0].metafile, { verbose: true }));
  // The package ships the licences of what it bundles.
  if (production) {
    const metafiles = results.map((r) => r.metafile);
    // The codicon font is copied, not bundled.
    writeNotices(root, metafiles, join(root, "dist/ThirdPartyNotices.txt"), [
      "node_modules/@vscode/codicons",
    ]);
  }
  console.log(`built ${builds.length} bundles in ${Math.round(performance.now() - started)} ms`);
}
