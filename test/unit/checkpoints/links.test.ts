import assert from "node:assert/strict";
import { mkdirSync, readFileSync, rmSync, symlinkSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { decode, encode } from "../../../src/chat/checkpoints/manifest";
import { open, picture, place, write, type Place } from "./fixture";

describe("checkpoints: symbolic links", function () {
  this.timeout(60_000);
  let p: Place;
  beforeEach(() => (p = place()));
  afterEach(() => p.remove());

  it("records links as links (to files, to folders, dangling, outside) and re-makes them", async () => {
    write(p.root, { "real.txt": "real", "folder/inner.txt": "inner" });
    write(p.outside, { "secret.txt": "outside" });
    symlinkSync("real.txt", join(p.root, "to-file"));
    symlinkSync("folder", join(p.root, "to-folder"));
    symlinkSync("nowhere.txt", join(p.root, "dangling"));
    symlinkSync(p.outside, join(p.root, "to-outside"));
    const before = picture(p.root);
    const c = await open(p);
    const first = await c.save("first", "conv");
    // The link to a folder outside is not followed: nothing of the outside is kept.
    assert.deepEqual(await c.read(first.id, "to-outside"), { kind: "link", target: p.outside });
    assert.equal(await c.read(first.id, "to-outside/secret.txt"), null);

    unlinkSync(join(p.root, "to-file"));
    unlinkSync(join(p.root, "dangling"));
    symlinkSync("elsewhere", join(p.root, "dangling"));
    unlinkSync(join(p.root, "to-folder"));
    mkdirSync(join(p.root, "to-folder"));
    writeFileSync(join(p.root, "to-folder/now-a-folder.txt"), "x");
    symlinkSync("real.txt", join(p.root, "new-link"));
    await c.restore(first.id);
    assert.deepEqual(picture(p.root), before);
    assert.equal(readFileSync(join(p.outside, "secret.txt"), "utf8"), "outside");
    await c.close();
  });

  it("never writes through a link: a folder or a file swapped for a link to outside is replaced, not followed", async () => {
    write(p.root, { "sub/file.txt": "mine", "a.txt": "original a" });
    write(p.outside, { "file.txt": "outside file", "secret.txt": "outside secret" });
    const outsideBefore = picture(p.outside);
    const before = picture(p.root);
    const c = await open(p);
    const first = await c.save("first", "conv");
    rmSync(join(p.root, "sub"), { recursive: true });
    symlinkSync(p.outside, join(p.root, "sub"));
    unlinkSync(join(p.root, "a.txt"));
    symlinkSync(join(p.outside, "secret.txt"), join(p.root, "a.txt"));
    await c.restore(first.id);
    assert.deepEqual(picture(p.outside), outsideBefore);
    assert.deepEqual(picture(p.root), before);
    assert.equal(readFileSync(join(p.root, "sub/file.txt"), "utf8"), "mine");
    assert.equal(readFileSync(join(p.root, "a.txt"), "utf8"), "original a");
    await c.close();
  });

  it("refuses a stored list of files that names a path outside the workspace or inside .git", () => {
    for (const path of [
      "../escape.txt",
      "/etc/passwd",
      "a/../../b",
      ".git/config",
      "x/.git/hooks/pre-commit",
    ]) {
      const bytes = encode({
        base: null,
        set: new Map([[path, { t: "l", to: "/tmp" }]]),
        del: new Set<string>(),
      });
      assert.throws(() => decode(bytes), /no checkpoint can hold/);
    }
  });
});
