import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { globTest } from "../../../src/chat/workspace/glob";
import { gitignore, ignoredBy } from "../../../src/chat/workspace/ignore";
import { listFiles } from "../../../src/chat/workspace/list-files";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, searchPaths, write } from "./fixtures";

/** The paths a list_files answer names (its lines without the head and notes). */
function paths(answer: string): string[] {
  return answer
    .split("\n")
    .filter((line) => !line.startsWith("[") && !/:$/.test(line) && !line.startsWith("No file"));
}

describe("globs", () => {
  it("match within a folder with *, across folders with **, and choices with {}", () => {
    const ts = globTest("src/**/*.ts");
    assert.ok(ts("src/a.ts"));
    assert.ok(ts("src/x/y/b.ts"));
    assert.ok(!ts("lib/a.ts"));
    assert.ok(!ts("src/a.tsx"));
    const top = globTest("*.json");
    assert.ok(top("package.json"));
    assert.ok(!top("src/package.json"));
    const choice = globTest("**/*.{js,json}");
    assert.ok(choice("a.js") && choice("x/y.json") && !choice("x/y.ts"));
    const cls = globTest("file[0-9].txt");
    assert.ok(cls("file3.txt") && !cls("filex.txt"));
    const neg = globTest("file[!0-9].txt");
    assert.ok(neg("filex.txt") && !neg("file3.txt"));
    assert.ok(globTest("?.md")("a.md") && !globTest("?.md")("ab.md"));
    assert.ok(globTest("build/**")("build/a/b.js"));
    assert.ok(globTest("./src/*.ts")("src/a.ts"));
    // Characters that mean something in a regular expression are plain in a glob.
    assert.ok(globTest("a+b(1).txt")("a+b(1).txt"));
    assert.ok(!globTest("a.b")("axb"));
  });
});

describe("gitignore rules", () => {
  const rules = gitignore(
    [
      "# a comment",
      "",
      "*.log",
      "!keep.log",
      "build/",
      "/top.txt",
      "docs/*.tmp",
      "**/cache",
      "deep/**/x.bin",
      "\\#hash",
      "trailing   ",
    ].join("\n"),
  );
  const ignored = (path: string, folder = false) => ignoredBy(rules, path, folder);

  it("reads comments, negation, folder-only, anchored patterns and **", () => {
    assert.ok(ignored("a.log") && ignored("x/y/a.log"));
    assert.ok(!ignored("keep.log") && !ignored("x/keep.log"));
    assert.ok(ignored("build", true) && ignored("x/build", true));
    assert.ok(!ignored("build", false), "build/ matches folders only");
    assert.ok(ignored("top.txt") && !ignored("x/top.txt"));
    assert.ok(ignored("docs/a.tmp") && !ignored("x/docs/a.tmp") && !ignored("docs/x/a.tmp"));
    assert.ok(ignored("cache", true) && ignored("a/b/cache", true));
    assert.ok(ignored("deep/x.bin") && ignored("deep/a/b/x.bin") && !ignored("other/x.bin"));
    assert.ok(ignored("#hash"));
    assert.ok(ignored("trailing") && !ignored("# a comment"));
  });
});

for (const implementation of searchPaths) {
  describe(`list_files (${implementation.name})`, () => {
    let ripgrep: string | undefined;
    before(() => {
      ripgrep = implementation.ripgrep();
    });

    let root: string;
    const cleanups: (() => void)[] = [];

    beforeEach(() => {
      const ws = folder();
      cleanups.push(ws.remove);
      root = ws.path;
      write(root, {
        ".gitignore": "# generated\ndist/\n*.log\n!important.log\n/secret.env\n",
        "README.md": "# hi\n",
        "secret.env": "KEY=1\n",
        "src/a.ts": "a\n",
        "src/b.ts": "b\n",
        "src/b.js": "compiled\n",
        "src/debug.log": "log\n",
        "src/important.log": "keep\n",
        "src/deep/c.ts": "c\n",
        "src/deep/secret.env": "not anchored, so listed\n",
        "dist/out.js": "x\n",
        "node_modules/lib/index.js": "x\n",
        ".git/HEAD": "ref\n",
        "out/tmp.txt": "x\n",
      });
    });

    afterEach(() => {
      while (cleanups.length) (cleanups.pop() as () => void)();
    });

    it("lists every file but ignored ones, node_modules and .git by default", async () => {
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      const answer = await call(tools, "list_files", {});
      assert.deepEqual(paths(answer).sort(), [
        ".gitignore",
        "README.md",
        "out/tmp.txt",
        "src/a.ts",
        "src/b.js",
        "src/b.ts",
        "src/deep/c.ts",
        "src/deep/secret.env",
        "src/important.log",
      ]);
      assert.match(answer, /^9 files matching \*\*\/\*:/);
    });

    it("matches a glob", async () => {
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "src/**/*.ts" })).sort(), [
        "src/a.ts",
        "src/b.ts",
        "src/deep/c.ts",
      ]);
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "*.md" })), ["README.md"]);
    });

    it("reads a name without / as any depth, ./ as the root only, and a folder as its files", async () => {
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "*.ts" })).sort(), [
        "src/a.ts",
        "src/b.ts",
        "src/deep/c.ts",
      ]);
      assert.match(await call(tools, "list_files", { glob: "./*.ts" }), /^No file matches \*\.ts/);
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "./*.md" })), ["README.md"]);
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "src/deep" })), [
        "src/deep/c.ts",
        "src/deep/secret.env",
      ]);
      assert.equal((await call(tools, "list_files", { glob: "." })).split("\n")[0], "9 files matching **/*:");
    });

    it("respects the editor's files.exclude, with false entries and sibling conditions", async () => {
      const exclude = { "out/**": true, "**/*.md": false, "**/*.js": { when: "$(basename).ts" } };
      const tools = workspaceTools({ root, ripgrep, trusted: true, exclude });
      write(root, { "src/alone.js": "no ts sibling\n" });
      const listed = paths(await call(tools, "list_files", {}));
      assert.ok(!listed.includes("out/tmp.txt"));
      assert.ok(!listed.includes("src/b.js"), "b.js has b.ts beside it");
      assert.ok(listed.includes("src/alone.js"));
      assert.ok(listed.includes("README.md"));
    });

    it("reads every folder's own .gitignore, the deepest deciding, as git does", async () => {
      write(root, {
        "src/.gitignore": "*.gen.ts\n!important.log\n",
        "src/x.gen.ts": "generated\n",
        "src/deep/.gitignore": "!keep.gen.ts\n/c.ts\n",
        "src/deep/keep.gen.ts": "kept by the deeper file\n",
        "src/deep/y.gen.ts": "generated\n",
        "other/x.gen.ts": "not under src/.gitignore\n",
      });
      const listed = paths(await call(workspaceTools({ root, ripgrep, trusted: true }), "list_files", {}));
      assert.ok(!listed.includes("src/x.gen.ts") && !listed.includes("src/deep/y.gen.ts"));
      assert.ok(listed.includes("src/deep/keep.gen.ts"), "a deeper negation keeps the file");
      assert.ok(!listed.includes("src/deep/c.ts"), "an anchored rule is read from its own folder");
      assert.ok(listed.includes("other/x.gen.ts") && listed.includes("src/important.log"));
    });

    it("lists inside an ignored folder when the glob starts there", async () => {
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "node_modules/**" })), [
        "node_modules/lib/index.js",
      ]);
      assert.deepEqual(paths(await call(tools, "list_files", { glob: "dist/*.js" })), ["dist/out.js"]);
    });

    it("caps the count and says so", async () => {
      write(
        root,
        Object.fromEntries(
          Array.from({ length: 30 }, (_, i) => [`many/f${String(i).padStart(2, "0")}.txt`, "x"]),
        ),
      );
      const answer = await listFiles({ root }, {}, "many/*.txt", 10, undefined, ripgrep);
      assert.equal(paths(answer).length, 10);
      assert.match(
        answer,
        /\[Only the first 10 files are listed; give a narrower glob to see the others\.\]$/,
      );
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      const all = await call(tools, "list_files", { glob: "many/*.txt", limit: 30 });
      assert.equal(paths(all).length, 30);
      assert.doesNotMatch(all, /Only the first/);
    });

    it("says when nothing matches", async () => {
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      assert.match(await call(tools, "list_files", { glob: "**/*.rs" }), /^No file matches \*\*\/\*\.rs/);
    });

    it("does not follow links out of the workspace, nor a glob that leaves it", async () => {
      const out = folder("tandem-out-");
      cleanups.push(out.remove);
      write(out.path, { "secret.txt": "s" });
      symlinkSync(out.path, join(root, "linkdir"));
      symlinkSync(join(out.path, "secret.txt"), join(root, "link.txt"));
      mkdirSync(join(root, "inner"));
      symlinkSync(join(root, "README.md"), join(root, "inner/readme-link.md"));
      const tools = workspaceTools({ root, ripgrep, trusted: true });
      const listed = paths(await call(tools, "list_files", {}));
      assert.ok(!listed.some((p) => p.startsWith("linkdir") || p === "link.txt"));
      // Links are not followed at all, as ripgrep without --follow: read_file still reads one inside.
      assert.ok(!listed.includes("inner/readme-link.md"));
      assert.ok(listed.includes("README.md"));
      assert.match(await refusal(call(tools, "list_files", { glob: "../**" })), /outside the workspace/);
    });
  });
}
