// The options of Tandem's Node bundles, shared by esbuild.mjs (which builds them) and the unit test that
// keeps dist/extension.js thin (test/unit/extension-bundle.test.ts builds it as the package does).

/** The options every bundle shares; `production` minifies without source maps (what the package ships). */
export function commonOptions(production) {
  return {
    bundle: true,
    sourcemap: production ? false : "linked",
    minify: production,
    logLevel: "warning",
    legalComments: production ? "none" : "inline",
  };
}

/** The options of the bundles that run under Node (VS Code's extension host among them). */
export function nodeOptions(production) {
  return {
    ...commonOptions(production),
    platform: "node",
    format: "cjs",
    target: "node20",
    external: ["vscode"],
  };
}

/**
 * One `require("vscode")` for a whole bundle: VS Code answers each one by looking up the extension of the
 * calling file (its real path on disk), and every module of src/vscode imports the API, so the bundle's
 * modules share one module that requires it once.
 */
const oneVscodeRequire = {
  name: "one-vscode-require",
  setup(build) {
    build.onResolve({ filter: /^vscode$/ }, (args) =>
      args.namespace === "vscode-api"
        ? { path: "vscode", external: true }
        : { path: "vscode", namespace: "vscode-api" },
    );
    build.onLoad({ filter: /.*/, namespace: "vscode-api" }, () => ({
      contents: 'module.exports = require("vscode");',
      loader: "js",
    }));
  },
};

/** dist/extension.js, what VS Code loads at activation: the editor layer only (ARCHITECTURE.md, "Two bundles"). */
export function extensionBundle(production) {
  return {
    ...nodeOptions(production),
    entryPoints: { extension: "src/vscode/extension.ts" },
    outdir: "dist",
    plugins: [oneVscodeRequire],
  };
}
