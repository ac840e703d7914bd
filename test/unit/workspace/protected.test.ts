import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { protectedPart, protectedPath } from "../../../src/chat/workspace/protected";
import { folder, write } from "./fixtures";

describe("protected paths: where a written file can run code", () => {
  it("names every protected place, at the top and nested", () => {
    const cases: [string, string][] = [
      [".git/hooks/pre-commit", ".git/"],
      [".git/config", ".git/"],
      [".git", ".git/"],
      ["sub/.git/hooks/post-checkout", ".git/"],
      [".vscode/settings.json", ".vscode/"],
      [".vscode/tasks.json", ".vscode/"],
      [".devcontainer/devcontainer.json", ".devcontainer/"],
      [".github/workflows/x.yml", ".github/workflows/"],
      ["pkg/.github/workflows/ci.yaml", ".github/workflows/"],
      ["a.code-workspace", "*.code-workspace"],
      ["dir/team.code-workspace", "*.code-workspace"],
      [".npmrc", ".npmrc"],
      ["packages/app/.npmrc", ".npmrc"],
      [".yarnrc", ".yarnrc*"],
      [".yarnrc.yml", ".yarnrc*"],
      [".envrc", ".envrc"],
      [".husky/pre-commit", ".husky/"],
      ["node_modules/.bin/jest", "node_modules/"],
      [".venv/bin/python", ".venv/"],
      [".venv/Scripts/python.exe", ".venv/"],
      ["api/.venv/lib/python3.12/site-packages/x.pth", ".venv/"],
      ["venv/bin/pytest", "venv/"],
      ["venv/pyvenv.cfg", "venv/"],
      ["env/bin/python", "env/"],
      ["env/Scripts/pip.exe", "env/"],
      [".tox/py312/bin/python", ".tox/"],
      [".nox/tests/bin/python", ".nox/"],
    ];
    for (const [path, place] of cases) assert.equal(protectedPart(path), place, path);
  });

  it("matches whatever the case, Windows separators, trailing dots and spaces, streams and short names", () => {
    const cases: [string, string][] = [
      [".GIT/HOOKS/pre-commit", ".git/"],
      [".Git/config", ".git/"],
      [".VSCode/Settings.json", ".vscode/"],
      [".GitHub/Workflows/x.yml", ".github/workflows/"],
      ["A.Code-Workspace", "*.code-workspace"],
      [".NPMRC", ".npmrc"],
      [".YarnRC.yml", ".yarnrc*"],
      [".ENVRC", ".envrc"],
      [".Husky/pre-push", ".husky/"],
      [".git\\hooks\\pre-commit", ".git/"],
      [".git./hooks/pre-commit", ".git/"],
      [".git /config", ".git/"],
      [".npmrc.", ".npmrc"],
      [".git::$INDEX_ALLOCATION/hooks/pre-commit", ".git/"],
      ["GIT~1/hooks/pre-commit", ".git/"],
      ["VSCODE~1/settings.json", ".vscode/"],
      ["./.git//hooks/x", ".git/"],
    ];
    for (const [path, place] of cases) assert.equal(protectedPart(path), place, path);
  });

  it("leaves ordinary paths alone, even ones that look alike", () => {
    for (const path of [
      "src/a.ts",
      ".gitignore",
      ".gitattributes",
      "git/hooks/x",
      ".github/ISSUE_TEMPLATE/bug.md",
      ".github/dependabot.yml",
      "workflows/x.yml",
      ".vscodeignore",
      "npmrc",
      ".npmrc.example/readme",
      "docs/code-workspace.md",
      "src/env/config.ts",
      "venv.md",
      "docs/venv/setup.md",
      "README.md",
      ".",
    ]) {
      assert.equal(protectedPart(path), undefined, path);
    }
  });

  describe("on the real path", () => {
    let root: string;
    let remove: () => void;
    beforeEach(() => {
      ({ path: root, remove } = folder());
      write(root, { ".git/hooks/README": "", "src/a.ts": "a\n", ".vscode/extensions.json": "{}" });
    });
    afterEach(() => remove());

    it("follows a link into .git: `docs -> .git/hooks` makes docs/pre-commit protected, made or not", async () => {
      symlinkSync(join(root, ".git/hooks"), join(root, "docs"));
      assert.equal(await protectedPath(root, "docs/pre-commit"), ".git/");
      assert.equal(await protectedPath(root, "docs/README"), ".git/");
      assert.equal(await protectedPath(root, "docs/new/deeper/file"), ".git/");
    });

    it("follows a relative link, a link to a file, and a linked folder higher up", async () => {
      symlinkSync(".vscode", join(root, "editor"));
      assert.equal(await protectedPath(root, "editor/settings.json"), ".vscode/");
      symlinkSync(".git/hooks/README", join(root, "notes.txt"));
      assert.equal(await protectedPath(root, "notes.txt"), ".git/");
      mkdirSync(join(root, "a"));
      symlinkSync("../.git", join(root, "a/b"));
      assert.equal(await protectedPath(root, "a/b/hooks/pre-commit"), ".git/");
      assert.equal(await protectedPath(root, "./a/../a/b/config"), ".git/");
    });

    it("checks the path as written too, and an absolute path under the root", async () => {
      assert.equal(await protectedPath(root, ".git/hooks/post-merge"), ".git/");
      assert.equal(await protectedPath(root, join(root, ".GIT/config")), ".git/");
      assert.equal(await protectedPath(root, "src/.npmrc"), ".npmrc");
    });

    it("leaves an ordinary file alone, and a link to an ordinary folder", async () => {
      symlinkSync(join(root, "src"), join(root, "code"));
      assert.equal(await protectedPath(root, "src/a.ts"), undefined);
      assert.equal(await protectedPath(root, "code/b.ts"), undefined);
      assert.equal(await protectedPath(root, "new/dir/file.md"), undefined);
    });

    it("judges from the root's real path when the root is reached through a link", async () => {
      const { path: other, remove: removeOther } = folder("tandem-link-");
      try {
        const linked = join(other, "ws");
        symlinkSync(root, linked);
        symlinkSync(join(root, ".git"), join(root, "g"));
        assert.equal(await protectedPath(linked, "g/hooks/x"), ".git/");
        assert.equal(await protectedPath(linked, "src/a.ts"), undefined);
      } finally {
        removeOther();
      }
    });
  });
});
