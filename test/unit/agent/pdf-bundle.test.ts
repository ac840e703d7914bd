import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { copyFile, mkdir, mkdtemp, rm, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import * as esbuild from "esbuild";
import { pdfSource } from "../../../src/agent/pdf";

const root = join(__dirname, "..", "..", "..");
const fixtures = join(root, "test", "fixtures");

// What esbuild.mjs gives the extension host's bundles in a production build (the VSIX).
const node: esbuild.BuildOptions = {
  bundle: true,
  sourcemap: false,
  minify: true,
  logLevel: "silent",
  legalComments: "none",
  platform: "node",
  format: "cjs",
  target: "node20",
  external: ["vscode"],
};

// Run by plain node in a folder with no node_modules: what the packaged extension does on attach.
const SCRIPT = `
const { readFileSync } = require("node:fs");
const { join } = require("node:path");
const { pdfText } = require("./dist/reader.js");
const loaded = () => Object.keys(require.cache).some((file) => file.endsWith("pdf.js"));
const read = async (name, reader = pdfText) => {
  try {
    return { text: await reader(readFileSync(join(__dirname, name))) };
  } catch (error) {
    return { error: error.message };
  }
};
const resolvable = (() => {
  try {
    require.resolve("pdf-parse");
    return true;
  } catch {
    return false;
  }
})();
(async () => {
  const before = loaded();
  const started = performance.now();
  const pages = await read("two-pages.pdf");
  const first = Math.round(performance.now() - started);
  const again = await read("two-pages.pdf");
  const second = Math.round(performance.now() - started) - first;
  const locked = await read("locked.pdf");
  const corrupt = await read("corrupt.pdf");
  const missing = await read("two-pages.pdf", require("./bare/reader.js").pdfText);
  process.stdout.write(JSON.stringify({ resolvable, before, after: loaded(), pages, again, locked, corrupt, missing, first, second }));
})();
`;

interface Outcome {
  text?: string;
  error?: string;
}
interface Report {
  resolvable: boolean;
  before: boolean;
  after: boolean;
  pages: Outcome;
  again: Outcome;
  locked: Outcome;
  corrupt: Outcome;
  missing: Outcome;
  /** Milliseconds of the first read (loading the bundle included) and of the second. */
  first: number;
  second: number;
}

describe("agent: PDF reading in the packaged extension", function () {
  this.timeout(60_000);
  let dir: string;
  let report: Report;
  let stderr: string;
  let sizes: { reader: number; pdf: number };

  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-pdf-bundle-"));
    const dist = join(dir, "dist");
    await mkdir(dist);
    // The extension's bundle holds pdf.ts (as reader.js); the PDF bundle sits beside it, as in dist/.
    await Promise.all([
      esbuild.build({ ...node, entryPoints: { reader: join(root, "src/agent/pdf.ts") }, outdir: dist }),
      esbuild.build({ ...node, entryPoints: { pdf: join(root, "src/agent/pdf-bundle.ts") }, outdir: dist }),
    ]);
    sizes = {
      reader: (await stat(join(dist, "reader.js"))).size,
      pdf: (await stat(join(dist, "pdf.js"))).size,
    };
    // A package that lost pdf.js: the same code with nothing beside it.
    await mkdir(join(dir, "bare"));
    await copyFile(join(dist, "reader.js"), join(dir, "bare", "reader.js"));
    await copyFile(join(fixtures, "two-pages.pdf"), join(dir, "two-pages.pdf"));
    await copyFile(join(fixtures, "locked.pdf"), join(dir, "locked.pdf"));
    await writeFile(join(dir, "corrupt.pdf"), "%PDF-1.7\nthis is no PDF at all\n%%EOF\n");
    await writeFile(join(dir, "main.js"), SCRIPT);
    const out = await promisify(execFile)(process.execPath, ["main.js"], {
      cwd: dir,
      env: { ...process.env, NODE_OPTIONS: "" },
      timeout: 30_000,
    });
    report = JSON.parse(out.stdout) as Report;
    stderr = out.stderr;
    console.log(
      `      reader (pdf.ts bundled) ${(sizes.reader / 1024).toFixed(1)} KB, ` +
        `pdf.js ${(sizes.pdf / 1024 / 1024).toFixed(2)} MB, read in ${report.first} ms (bundle loaded), then ${report.second} ms`,
    );
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("runs where pdf-parse cannot be found", () => {
    assert.equal(report.resolvable, false);
  });

  it("reads both pages of a PDF with the bundle alone", () => {
    assert.equal(
      report.pages.text,
      "Tandem fixture page one: the quick brown fox.\n\nPage two says goodbye to the lazy dog.",
    );
    assert.equal(report.again.text, report.pages.text);
  });

  it("says a password-protected PDF is protected", () => {
    assert.equal(report.locked.error, "it is protected by a password");
  });

  it("says a corrupt PDF is not a valid PDF", () => {
    assert.equal(report.corrupt.error, "it is not a valid PDF");
  });

  it("says the PDF reader is missing when pdf.js is not beside the code", () => {
    assert.match(
      report.missing.error ?? "",
      /^the PDF reader could not be loaded \(Cannot find module 'pdf-parse'/,
    );
  });

  it("loads the PDF bundle only when a PDF is read, and prints nothing", () => {
    assert.equal(report.before, false);
    assert.equal(report.after, true);
    assert.equal(stderr, "");
  });

  it("keeps pdf-parse out of the bundle that holds pdf.ts", () => {
    assert.ok(sizes.reader < 50 * 1024, `pdf.ts bundles to ${sizes.reader} bytes`);
    assert.ok(sizes.pdf > 1024 * 1024, `pdf.js is ${sizes.pdf} bytes`);
  });

  it("takes the parser from the bundle beside the code, else from the package", async () => {
    assert.equal(pdfSource(join(dir, "dist")), join(dir, "dist", "pdf.js"));
    assert.equal(pdfSource(dir), "pdf-parse");
  });
});
