import assert from "node:assert/strict";
import { mkdirSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { inside, shown } from "../../../src/chat/workspace/paths";
import { folder, refusal, write } from "./fixtures";

describe("workspace paths", () => {
  let root: string;
  let outside: string;
  const cleanups: (() => void)[] = [];

  beforeEach(() => {
    const ws = folder();
    const out = folder("tandem-out-");
    cleanups.push(ws.remove, out.remove);
    root = join(ws.path, "project");
    mkdirSync(root);
    outside = out.path;
    write(root, { "src/a.ts": "a\n" });
    write(outside, { "secret.txt": "secret\n" });
  });

  afterEach(() => {
    while (cleanups.length) (cleanups.pop() as () => void)();
  });

  it("resolves a relative path, a ./ path and an absolute path already under the root", async () => {
    assert.equal(await inside(root, "src/a.ts"), join(root, "src/a.ts"));
    assert.equal(await inside(root, "./src/../src/a.ts"), join(root, "src/a.ts"));
    assert.equal(await inside(root, join(root, "src/a.ts")), join(root, "src/a.ts"));
    assert.equal(await inside(root, "."), root);
    assert.equal(await inside(root, "src/new/file.ts"), join(root, "src/new/file.ts"));
  });

  it("refuses .. escapes, also disguised in the middle of a path", async () => {
    assert.match(await refusal(inside(root, "../x")), /The path "\.\.\/x" is outside the workspace/);
    assert.match(await refusal(inside(root, "src/../../x")), /outside the workspace/);
    assert.match(await refusal(inside(root, "..")), /outside the workspace/);
  });

  it("refuses a sibling folder whose name starts like the root's", async () => {
    mkdirSync(`${root}-other`);
    write(`${root}-other`, { "x.txt": "x" });
    assert.match(await refusal(inside(root, `${root}-other/x.txt`)), /outside the workspace/);
    assert.match(await refusal(inside(root, "../project-other/x.txt")), /outside the workspace/);
  });

  it("refuses absolute paths outside the root", async () => {
    assert.match(
      await refusal(inside(root, "/etc/passwd")),
      /The path "\/etc\/passwd" is outside the workspace/,
    );
    assert.match(await refusal(inside(root, join(outside, "secret.txt"))), /outside the workspace/);
  });

  it("refuses a NUL byte", async () => {
    assert.match(await refusal(inside(root, "src/a.ts\0.png")), /NUL byte/);
  });

  it("refuses a symbolic link to a file outside", async () => {
    symlinkSync(join(outside, "secret.txt"), join(root, "link.txt"));
    assert.match(
      await refusal(inside(root, "link.txt")),
      /outside the workspace: it leads through a symbolic link/,
    );
  });

  it("refuses a path through a linked folder outside, also for a file not yet made", async () => {
    symlinkSync(outside, join(root, "out"));
    assert.match(await refusal(inside(root, "out/secret.txt")), /symbolic link/);
    assert.match(await refusal(inside(root, "out/new/deeper.txt")), /symbolic link/);
  });

  it("refuses a link to a missing target (writing through it would land wherever it points)", async () => {
    symlinkSync(join(outside, "not-yet.txt"), join(root, "dangling.txt"));
    assert.match(await refusal(inside(root, "dangling.txt")), /symbolic link to a missing target/);
  });

  it("accepts a link that stays inside the workspace", async () => {
    symlinkSync(join(root, "src"), join(root, "alias"));
    assert.equal(await inside(root, "alias/a.ts"), join(root, "alias/a.ts"));
  });

  it("accepts a root reached through a link, by either of its paths", async () => {
    const ws = folder();
    cleanups.push(ws.remove);
    const linked = join(ws.path, "linked");
    symlinkSync(root, linked);
    assert.equal(await inside(linked, "src/a.ts"), join(linked, "src/a.ts"));
    assert.equal(await inside(linked, join(root, "src/a.ts")), join(linked, "src/a.ts"));
    assert.match(await refusal(inside(linked, join(outside, "secret.txt"))), /outside the workspace/);
  });

  it("shows paths relative to the root with /", () => {
    assert.equal(shown(root, join(root, "src", "a.ts")), "src/a.ts");
    assert.equal(shown(root, root), ".");
  });
});
