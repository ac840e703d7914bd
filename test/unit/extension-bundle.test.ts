/**
 * dist/extension.js is what VS Code loads at activation, so it stays thin (ARCHITECTURE.md, "Two bundles"):
 * it is built here as the package builds it, and its metafile shows which modules it holds. A module that
 * imports a heavy library eagerly fails this test with the chain of imports that brought it in.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import * as esbuild from "esbuild";
import { extensionBundle } from "../../scripts/bundles.mjs";

const root = join(__dirname, "../..");

/** What dist/core.js (loaded on first use) holds and dist/extension.js must not. */
const HEAVY = ["zod", "openai", "@modelcontextprotocol/sdk", "pdf-parse", "pdfjs-dist"];

/** What extension.js may weigh: what it holds now (~87 KB) and room to grow, not room for a library. */
const MAX_KB = 120;

/** The bundle `options` make, in memory, with its metafile. */
async function built(options: esbuild.BuildOptions) {
  const result = await esbuild.build({
    ...options,
    absWorkingDir: root,
    metafile: true,
    write: false,
    logLevel: "silent",
  });
  const [output] = Object.values(result.metafile.outputs).filter((o) => o.entryPoint !== undefined);
  return { metafile: result.metafile, output };
}

/** The npm package a bundled file belongs to, if any. */
function packageOf(file: string): string | undefined {
  return /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(file)?.[1];
}

/**
 * Each heavy package in the bundle, with the chain of imports from the entry to its first module
 * (modules that contribute no code to the output, such as a door that only re-exports, are passed through).
 */
function heavyChains({ metafile, output }: Awaited<ReturnType<typeof built>>): string[] {
  const inOutput = new Set(Object.keys(output.inputs));
  const before = new Map<string, string | undefined>([[output.entryPoint!, undefined]]);
  const queue = [output.entryPoint!];
  while (queue.length) {
    const file = queue.shift()!;
    for (const { path } of metafile.inputs[file]?.imports ?? []) {
      if (before.has(path) || !inOutput.has(path)) continue;
      before.set(path, file);
      queue.push(path);
    }
  }
  const found = new Map<string, string>();
  for (const [file, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = packageOf(file);
    if (!name || !HEAVY.includes(name) || bytesInOutput === 0 || found.has(name)) continue;
    const chain: string[] = [];
    for (let at: string | undefined = file; at !== undefined; at = before.get(at)) chain.unshift(at);
    // A package's own files are named once, by the package.
    const named = chain.map((f) => packageOf(f) ?? f).filter((n, i, all) => n !== all[i - 1]);
    found.set(name, `${name}: ${named.join(" -> ")}`);
  }
  return [...found.values()];
}

describe("dist/extension.js, what VS Code loads at activation", function () {
  this.timeout(60_000);
  let bundle: Awaited<ReturnType<typeof built>>;
  before(async () => {
    bundle = await built(extensionBundle(true));
  });

  it("holds none of the heavy libraries: they load with dist/core.js on first use", () => {
    assert.deepEqual(heavyChains(bundle), []);
  });

  it(`stays under ${MAX_KB} KB minified`, () => {
    const kb = bundle.output.bytes / 1024;
    assert.ok(kb < MAX_KB, `extension.js is ${kb.toFixed(1)} KB`);
  });

  it("requires the `vscode` API once, however many of its modules import it", () => {
    const text = Object.values(bundle.metafile.outputs).find((o) => o.entryPoint)!;
    const requires = text.imports.filter((i) => i.path === "vscode").length;
    assert.ok(requires <= 1, `${requires} requires of "vscode"`);
  });

  it("names the chain of imports when a module brings a heavy library in", async () => {
    // An editor-layer module that imports the tables (zod schemas) eagerly, as a new import might.
    const eager = await built({
      ...extensionBundle(true),
      entryPoints: undefined,
      stdin: {
        contents: 'import { itemRow } from "./src/chat/row-schemas";\nexport const shape = itemRow;\n',
        resolveDir: root,
        loader: "ts",
        sourcefile: "src/vscode/eager.ts",
      },
    });
    assert.deepEqual(heavyChains(eager), ["zod: src/vscode/eager.ts -> src/chat/row-schemas.ts -> zod"]);
  });
});
