import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { protectedPart, protectedPath } from "../../../src/chat/workspace/protected";
import { folder, write } from "./fixtures";

describe("protected paths: what the editor's extensions run on their own", () => {
  it("names node_modules (any depth, any case, its short name) and ESLint's and Prettier's JavaScript configs", () => {
    const cases: [string, string][] = [
      ["node_modules/eslint/lib/api.js", "node_modules/"],
      ["packages/app/node_modules/prettier/index.cjs", "node_modules/"],
      ["Node_Modules/x.js", "node_modules/"],
      ["NODE_M~1/x.js", "node_modules/"],
      ["eslint.config.js", "eslint.config.*"],
      ["eslint.config.mjs", "eslint.config.*"],
      ["pkg/eslint.config.ts", "eslint.config.*"],
      [".eslintrc.cjs", ".eslintrc.*"],
      ["prettier.config.mjs", "prettier.config.*"],
      [".prettierrc.js", ".prettierrc.*"],
    ];
    for (const [path, place] of cases) assert.equal(protectedPart(path), place, path);
  });

  it("names the configs that are data too: they name the plugins and parsers that are loaded and run", () => {
    const cases: [string, string][] = [
      [".eslintrc.json", ".eslintrc.*"],
      [".eslintrc", ".eslintrc"],
      [".prettierrc", ".prettierrc"],
      [".prettierrc.json", ".prettierrc.*"],
      ["web/.prettierrc.yaml", ".prettierrc.*"],
      ["eslint.config.json", "eslint.config.*"],
      [".babelrc", ".babelrc"],
      [".babelrc.json", ".babelrc.*"],
      ["babel.config.js", "babel.config.*"],
      [".stylelintrc.json", ".stylelintrc.*"],
      ["stylelint.config.cjs", "stylelint.config.*"],
      ["jest.config.ts", "jest.config.*"],
      ["vitest.config.mts", "vitest.config.*"],
      ["postcss.config.js", "postcss.config.*"],
      ["tailwind.config.js", "tailwind.config.*"],
      [".mocharc.yml", ".mocharc.*"],
      ["PRETTIER.CONFIG.JS", "prettier.config.*"],
    ];
    for (const [path, place] of cases) assert.equal(protectedPart(path), place, path);
  });

  it("leaves look-alike names alone", () => {
    for (const path of [
      "my-eslint.config.js",
      "docs/prettierrc.md",
      "src/jest.config.helpers/a.ts",
      "babel.config",
      "src/node_modules_x/a.js",
      "docs/node-modules.md",
    ]) {
      assert.equal(protectedPart(path), undefined, path);
    }
  });

  it("follows a link into node_modules", async () => {
    const ws = folder();
    try {
      write(ws.path, { "node_modules/eslint/lib/api.js": "" });
      symlinkSync(join(ws.path, "node_modules/eslint/lib"), join(ws.path, "lib"));
      assert.equal(await protectedPath(ws.path, "lib/api.js"), "node_modules/");
    } finally {
      ws.remove();
    }
  });
});
