import assert from "node:assert/strict";
import { listFiles } from "../../../src/chat/workspace/list-files";
import { rgFiles } from "../../../src/chat/workspace/ripgrep";
import { findMatches, type SearchQuery } from "../../../src/chat/workspace/search";
import { walk } from "../../../src/chat/workspace/walk";
import { folder, searchPaths } from "./fixtures";
import { TREE_EXCLUDE, makeTree } from "./tree";

const SEED = 15;

describe("search through ripgrep answers what the plain-Node walk answers", () => {
  let root: string;
  let remove: () => void;
  let rg: string;
  const exclude = { ...TREE_EXCLUDE };

  before(function () {
    this.timeout(60_000);
    rg = searchPaths[1].ripgrep() as string;
    ({ path: root, remove } = folder());
    makeTree(root, 1500, SEED);
  });

  after(() => remove());

  it(`lists the same files in the same order (tree seed ${SEED})`, async () => {
    for (const base of ["", "packages/pkg1", "node_modules", "build", "packages/pkg2/node_modules"]) {
      const walked: string[] = [];
      await walk(root, { base, exclude }, (file) => {
        walked.push(file.path);
        return true;
      });
      const listed: string[] = [];
      await rgFiles(rg, root, { base, glob: "**", exclude, deadlineMs: 30_000 }, async (path) => {
        listed.push(path);
        return true;
      });
      assert.ok(walked.length > 0, `nothing under "${base}"`);
      assert.deepEqual(listed, walked, `under "${base}"`);
    }
    const sample = await listFiles({ root }, exclude, "**/*", 2000);
    assert.ok(!/link|\.git\/|local\.txt|skip\.gen|build\/|dist\/|\.snap/.test(sample), sample);
    assert.match(sample, /packages\/pkg0\/keep\.gen\.ts/);
  });

  const globs = ["**/*", "**/*.ts", "*.md", "packages/pkg3", "packages/*/src/**", "node_modules/**", "-dash"];
  for (const glob of globs) {
    it(`lists the same files for ${glob}, capped the same`, async function () {
      this.timeout(120_000);
      for (const limit of [2000, 7]) {
        const node = await listFiles({ root }, exclude, glob, limit);
        assert.equal(await listFiles({ root }, exclude, glob, limit, undefined, rg), node);
      }
    });
  }

  const queries: Partial<SearchQuery>[] = [
    { query: "answer" },
    { query: "Answer", caseSensitive: true },
    { query: "café" },
    { query: "école" },
    { query: "fetch\\w+\\(", regex: true },
    { query: "^\\s*export (const|function) \\w+", regex: true },
    { query: "\\bid\\b", regex: true },
    { query: "foo(?=bar)", regex: true },
    { query: "(\\w)\\1", regex: true, caseSensitive: true },
    { query: "todo", glob: "**/*.md" },
    { query: "answer", glob: "build" },
    { query: "answer", glob: "-dash/**" },
    { query: "user", glob: "packages/pkg2" },
  ];
  for (const asked of queries) {
    it(`finds the same lines for ${JSON.stringify(asked)}, capped the same`, async function () {
      this.timeout(240_000);
      for (const maxResults of [500, 7]) {
        const query = { regex: false, caseSensitive: false, glob: "**/*", maxResults, query: "", ...asked };
        // A deadline no busy machine reaches: the answers are compared whole.
        const node = await findMatches({ root }, exclude, query, { deadlineMs: 120_000 });
        const viaRg = await findMatches({ root }, exclude, query, { ripgrep: rg, deadlineMs: 120_000 });
        assert.ok(node.matches.length > 0 || asked.glob, "the query finds something");
        assert.deepEqual(viaRg, node);
      }
    });
  }
});
