import assert from "node:assert/strict";
import { linkSync, mkdirSync, readFileSync, renameSync, utimesSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { open, picture, place, write, type Place } from "./fixture";

describe("checkpoints: what the watcher reports, and what it cannot", function () {
  this.timeout(60_000);
  let p: Place;
  beforeEach(() => (p = place()));
  afterEach(() => p.remove());

  it("sees a file changed through a hard link from outside the workspace (no event reaches its folder)", async () => {
    write(p.outside, { "shared.txt": "first" });
    linkSync(join(p.outside, "shared.txt"), join(p.root, "shared.txt"));
    write(p.root, { "other.txt": "other" });
    // Older than the racy window, so only an event or its link count can make it looked at again.
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(p.outside, "shared.txt"), past, past);
    const c = await open(p);
    await c.save("first", "conv");
    writeFileSync(join(p.outside, "shared.txt"), "changed outside");
    const second = await c.save("second", "conv");
    const v = await c.read(second.id, "shared.txt");
    assert.equal(v?.kind === "file" && v.bytes.toString(), "changed outside");
    await c.close();
  });

  it("finds, by its regular whole walk, a change no event reported, and then stops trusting the watcher", async () => {
    write(p.root, { "a.txt": "first", "b.txt": "b" });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(p.root, "a.txt"), past, past);
    const c = await open(p);
    await c.save("first", "conv");
    // A second name made outside afterwards: neither the link nor the write through it reaches
    // the workspace's folder watcher.
    linkSync(join(p.root, "a.txt"), join(p.outside, "a-link.txt"));
    writeFileSync(join(p.outside, "a-link.txt"), "changed outside");
    let last = await c.save("1", "conv");
    for (let i = 2; i <= 21 && c.walking === null; i++) last = await c.save(String(i), "conv");
    assert.match(c.walking ?? "", /the watcher missed a change to "a.txt"/);
    const v = await c.read(last.id, "a.txt");
    assert.equal(v?.kind === "file" && v.bytes.toString(), "changed outside");
    await c.close();
  });

  it("keeps a change no event reported before a restore overwrites it", async () => {
    write(p.root, { "a.txt": "zero" });
    const past = new Date(Date.now() - 60_000);
    utimesSync(join(p.root, "a.txt"), past, past);
    const c = await open(p);
    const zero = await c.save("zero", "conv");
    writeFileSync(join(p.root, "a.txt"), "first");
    utimesSync(join(p.root, "a.txt"), past, past);
    await c.save("first", "conv");
    linkSync(join(p.root, "a.txt"), join(p.outside, "a-link.txt"));
    writeFileSync(join(p.outside, "a-link.txt"), "changed outside");
    const r = await c.restore(zero.id);
    assert.equal(readFileSync(join(p.root, "a.txt"), "utf8"), "zero");
    const kept = await c.read(r.undo, "a.txt");
    assert.equal(kept?.kind === "file" && kept.bytes.toString(), "changed outside");
    await c.close();
  });

  it("follows folders made, filled and renamed between checkpoints", async () => {
    write(p.root, { "a/one.txt": "1" });
    const c = await open(p);
    const first = await c.save("first", "conv");
    const before = picture(p.root);
    mkdirSync(join(p.root, "b/c/d"), { recursive: true });
    write(p.root, { "b/c/d/deep.txt": "deep", "b/top.txt": "top" });
    renameSync(join(p.root, "a"), join(p.root, "b/c/a-moved"));
    write(p.root, { "b/c/a-moved/two.txt": "2" });
    const second = await c.save("second", "conv");
    const made = picture(p.root);
    assert.deepEqual([...(await c.entries(second.id)).keys()].sort(), Object.keys(made).sort());
    await c.restore(first.id);
    assert.deepEqual(picture(p.root), before);
    await c.restore(second.id);
    assert.deepEqual(picture(p.root), made);
    await c.close();
  });
});
