import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { chmodSync, existsSync } from "node:fs";
import { join } from "node:path";
import { listFiles } from "../../../src/chat/workspace/list-files";
import { ripgrepUnder } from "../../../src/chat/workspace/ripgrep";
import { searchText } from "../../../src/chat/workspace/search";
import { folder, searchPaths, write } from "./fixtures";
import { makeTree } from "./tree";

describe("search_text through ripgrep", () => {
  let root: string;
  let remove: () => void;
  let rg: string;

  before(() => {
    rg = searchPaths[1].ripgrep() as string;
  });

  beforeEach(() => {
    ({ path: root, remove } = folder());
  });

  afterEach(() => remove());

  it("reads a query that looks like a flag as text: --pre= runs no program", async () => {
    const marker = join(root, "ran");
    write(root, {
      "evil.sh": `#!/bin/sh\ntouch ${JSON.stringify(marker)}\ncat "$1"\n`,
      "notes.txt": "the flag --pre=./evil.sh is text here\n",
    });
    chmodSync(join(root, "evil.sh"), 0o755);
    // Given as a bare argument (as a naive search would), the query is ripgrep's --pre flag and runs the script.
    spawnSync(rg, ["--no-config", "--pre=./evil.sh", "x", "notes.txt"], { cwd: root });
    assert.ok(existsSync(marker), "the naive call runs the program (the attack is real)");
    remove();
    ({ path: root, remove } = folder());
    const ranHere = join(root, "ran");
    write(root, {
      "evil.sh": `#!/bin/sh\ntouch ${JSON.stringify(ranHere)}\ncat "$1"\n`,
      "notes.txt": "the flag --pre=./evil.sh is text here\n",
    });
    chmodSync(join(root, "evil.sh"), 0o755);
    for (const regex of [false, true]) {
      const answer = await searchText({ root }, {}, { query: "--pre=./evil.sh", regex }, { ripgrep: rg });
      assert.ok(!existsSync(ranHere), "the search ran the program");
      assert.match(answer, /notes\.txt:1: the flag --pre=\.\/evil\.sh is text here/);
    }
  });

  it("stops ripgrep at its deadline and says so", async () => {
    makeTree(root, 300, 1);
    const answer = await searchText({ root }, {}, { query: "no such text" }, { ripgrep: rg, deadlineMs: 1 });
    // How far ripgrep got before it was stopped varies: a note on the tree's large file may follow.
    const [first, second, ...rest] = answer.split("\n");
    assert.equal(first, 'No match for "no such text" in **/*.');
    assert.equal(second, "[The search stopped at its 0.001 s deadline; narrow the pattern or the folder.]");
    for (const note of rest) assert.match(note, /^\[1 file larger than .* was not searched\.\]$/);
  });

  it("ends with the caller's stop", async () => {
    makeTree(root, 300, 2);
    const stop = new AbortController();
    const searching = searchText(
      { root },
      {},
      { query: "no such text" },
      { ripgrep: rg, signal: stop.signal },
    );
    stop.abort(new Error("stopped by the person"));
    await assert.rejects(searching, /stopped by the person/);
  });

  it("falls back to the Node walk where the ripgrep named is missing", async () => {
    write(root, { "a.txt": "hello\n" });
    const missing = join(root, "no-rg");
    assert.equal(
      await searchText({ root }, {}, { query: "hello" }, { ripgrep: missing }),
      '1 match for "hello" in 1 file:\na.txt:1: hello',
    );
    assert.equal(
      await listFiles({ root }, {}, "**/*", 10, undefined, missing),
      "1 file matching **/*:\na.txt",
    );
  });

  it("finds VS Code's ripgrep under its application folder, and code-server's per platform", () => {
    write(root, {
      "node_modules/@vscode/ripgrep/bin/rg": "",
      "x/node_modules/@vscode/ripgrep-universal/bin/linux-arm64/rg": "",
    });
    assert.equal(ripgrepUnder(root), join(root, "node_modules/@vscode/ripgrep/bin/rg"));
    assert.equal(
      ripgrepUnder(join(root, "x"), "linux", "arm64"),
      join(root, "x/node_modules/@vscode/ripgrep-universal/bin/linux-arm64/rg"),
    );
    assert.equal(ripgrepUnder(join(root, "x"), "linux", "x64"), undefined);
  });
});
