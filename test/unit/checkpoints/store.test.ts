import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { Checkpoints } from "../../../src/chat/checkpoints/checkpoints";
import { open, place, write, type Place } from "./fixture";

/** Every file under the store's blobs folder. */
function blobFiles(store: string): string[] {
  const folder = join(store, "blobs");
  return readdirSync(folder).flatMap((d) => readdirSync(join(folder, d)).map((f) => d + f));
}

describe("checkpoints: the store", function () {
  this.timeout(60_000);
  let p: Place;
  beforeEach(() => (p = place()));
  afterEach(() => p.remove());

  it("keeps each content once, and an unchanged tree's list of files once", async () => {
    const same = "the same bytes in three files\n".repeat(50);
    write(p.root, { "a.txt": same, "b/a.txt": same, "c/d/a.txt": same });
    const c = await open(p);
    const first = await c.save("first", "conv");
    assert.equal(blobFiles(p.store).length, 2); // one file content, one manifest
    const second = await c.save("second", "conv");
    assert.equal(second.manifest, first.manifest);
    assert.equal(blobFiles(p.store).length, 2);
    await c.close();
  });

  it("stores one changed path, not the whole list of files, after one change", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 400; i++) files[`pkg${i % 20}/file${i}.ts`] = `export const v${i} = ${i};\n`;
    write(p.root, files);
    const c = await open(p);
    await c.save("first", "conv");
    const changed = "export const v7 = 'a longer value, as an edit would write';\n".repeat(20);
    writeFileSync(join(p.root, "pkg7/file7.ts"), changed);
    const second = await c.save("second", "conv");
    assert.ok(second.added < Buffer.byteLength(changed), `${second.added} bytes stored`);
    await c.close();
  });

  it("removes a conversation's storage with it, and keeps what another conversation needs", async () => {
    write(p.root, { "shared.txt": "shared", "a.txt": randomBytes(5000) });
    const c = await open(p);
    await c.save("one", "conv-1");
    writeFileSync(join(p.root, "a.txt"), randomBytes(5000));
    await c.save("two", "conv-1");
    writeFileSync(join(p.root, "b.txt"), "only in conv-2");
    const other = await c.save("three", "conv-2");
    const before = c.totalBytes;
    await c.dropFor("conv-1");
    assert.deepEqual(
      c.list().map((r) => r.label),
      ["three"],
    );
    assert.ok(c.totalBytes < before);
    assert.equal((await c.read(other.id, "shared.txt"))?.kind, "file");
    await c.drop(other.id);
    assert.equal(c.totalBytes, 0);
    assert.deepEqual(blobFiles(p.store), []);
    assert.deepEqual(readdirSync(join(p.store, "checkpoints")), []);
    await c.close();
  });

  it("drops the oldest checkpoints first when the store passes its size limit", async () => {
    const c = await open(p, { maxTotalBytes: 200_000, compress: false });
    for (let i = 0; i < 6; i++) {
      writeFileSync(join(p.root, "data.bin"), randomBytes(60_000));
      await c.save(`save ${i}`, "conv");
    }
    const left = c.list().map((r) => r.label);
    assert.deepEqual(left, ["save 3", "save 4", "save 5"]);
    assert.ok(c.totalBytes <= 200_000, `${c.totalBytes} bytes kept`);
    await c.close();
  });

  it("keeps text deflated when it pays, and binary as it is", async () => {
    const text = "function add(a, b) { return a + b; }\n".repeat(2000);
    write(p.root, { "text.js": text, "noise.bin": randomBytes(50_000) });
    const c = await open(p);
    await c.save("first", "conv");
    assert.ok(c.totalBytes < 50_000 + text.length / 4, `${c.totalBytes} bytes kept`);
    await c.close();
  });

  it("lists what it does not cover, leaves out the store itself and what the caller ignores", async () => {
    write(p.root, { "a.txt": "a", "build/out.js": "built", "keep.txt": "k" });
    execFileSync("mkfifo", [join(p.root, "pipe")]);
    const c = await Checkpoints.open({
      root: p.root,
      folder: join(p.root, ".tandem-store"),
      ignore: (path) => path === "build",
    });
    const first = await c.save("first", "conv");
    assert.deepEqual(first.notCovered, [{ path: "pipe", why: "not covered: a named pipe" }]);
    assert.equal(await c.read(first.id, "build/out.js"), null);
    assert.equal(await c.read(first.id, ".tandem-store"), null);
    writeFileSync(join(p.root, "build/out.js"), "rebuilt");
    await c.restore(first.id);
    assert.equal(readFileSync(join(p.root, "build/out.js"), "utf8"), "rebuilt");
    assert.ok(existsSync(join(p.root, "pipe")));
    await c.close();
  });

  it("is opened by one window at a time", async () => {
    const c = await open(p);
    await assert.rejects(open(p), /open in another window/);
    await c.close();
    const again = await open(p);
    await again.close();
  });

  it("says clearly when a checkpoint is gone", async () => {
    const c = await open(p);
    await assert.rejects(c.restore("lzz00000-0badf00d"), /There is no checkpoint "lzz00000-0badf00d"/);
    await c.close();
  });

  it("opens with the newest checkpoint's list of files damaged: that one is dropped and said, the others restore", async () => {
    write(p.root, { "a.txt": "first\n" });
    const c = await open(p);
    const first = await c.save("first", "conv");
    writeFileSync(join(p.root, "a.txt"), "second\n");
    writeFileSync(join(p.root, "b.txt"), "new\n");
    const second = await c.save("second", "conv");
    await c.close();
    // The newest checkpoint's manifest copy is damaged on disk (a bad sector, an editor, a crash).
    const blob = join(p.store, "blobs", second.manifest.slice(0, 2), second.manifest.slice(2));
    writeFileSync(blob, "not what was stored");

    const again = await open(p);
    assert.deepEqual(
      again.list().map((r) => r.label),
      ["first"],
    );
    assert.ok(
      again.problems.some((m) => m.startsWith('Checkpoint "second" could not be read and was dropped')),
      again.problems.join("\n"),
    );
    // Later checkpoints are taken, and the one left still puts the files back.
    writeFileSync(join(p.root, "a.txt"), "third\n");
    await again.save("third", "conv");
    await again.restore(first.id);
    assert.equal(readFileSync(join(p.root, "a.txt"), "utf8"), "first\n");
    assert.ok(!existsSync(join(p.root, "b.txt")));
    await again.close();
  });
});
