import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import {
  chmodSync,
  mkdirSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { open, picture, place, write, type Place } from "./fixture";

for (const watch of [true, false])
  describe(`checkpoints: restore puts the workspace back byte for byte (${watch ? "watching" : "walking"})`, function () {
    this.timeout(60_000);
    let p: Place;
    beforeEach(() => (p = place()));
    afterEach(() => p.remove());

    it("undoes edits, deletes, creates and renames, in nested folders", async () => {
      write(p.root, {
        "README.md": "# hello\n",
        "src/a.ts": "export const a = 1;\n",
        "src/deep/b.ts": "export const b = 2;\n",
        "src/deep/c.ts": "export const c = 3;\n",
        "docs/guide.md": "read me\n",
        "empty.txt": "",
      });
      mkdirSync(join(p.root, "empty-folder"));
      const before = picture(p.root);
      const c = await open(p, { watch });
      const first = await c.save("first message", "conv-1");

      writeFileSync(join(p.root, "src/a.ts"), "export const a = 100;\n");
      unlinkSync(join(p.root, "src/deep/c.ts"));
      write(p.root, { "src/new/made.ts": "new\n", "notes.txt": "created" });
      renameSync(join(p.root, "docs/guide.md"), join(p.root, "docs/moved.md"));
      renameSync(join(p.root, "src/deep"), join(p.root, "src/shallow"));
      rmSync(join(p.root, "empty-folder"), { recursive: true });
      unlinkSync(join(p.root, "empty.txt"));
      assert.notDeepEqual(picture(p.root), before);

      const changes = await c.diff(first.id);
      const said = Object.fromEntries(changes.map((x) => [x.path, x.change]));
      assert.equal(said["src/a.ts"], "changed");
      assert.equal(said["src/deep/c.ts"], "deleted");
      assert.equal(said["src/new/made.ts"], "added");
      assert.equal(said["docs/moved.md"], "added");
      assert.equal(said["docs/guide.md"], "deleted");
      assert.equal(said["empty.txt"], "deleted");

      const r = await c.restore(first.id);
      assert.deepEqual(picture(p.root), before);
      assert.deepEqual(r.notRestored, []);
      assert.deepEqual(await c.diff(first.id), []);

      // The restore itself can be undone: its "before" checkpoint holds the edited tree.
      const old = await c.read(r.undo, "src/a.ts");
      assert.equal(old?.kind === "file" && old.bytes.toString(), "export const a = 100;\n");
      await c.close();
    });

    it("touches only what differs", async () => {
      write(p.root, { "same.txt": "same", "other.txt": "one" });
      const c = await open(p, { watch });
      const first = await c.save("first", "conv");
      const stable = statSync(join(p.root, "same.txt"), { bigint: true });
      writeFileSync(join(p.root, "other.txt"), "two");
      const r = await c.restore(first.id);
      assert.equal(r.changed, 1);
      const after = statSync(join(p.root, "same.txt"), { bigint: true });
      assert.equal(after.ino, stable.ino);
      assert.equal(after.mtimeNs, stable.mtimeNs);
      assert.equal(readFileSync(join(p.root, "other.txt"), "utf8"), "one");
      await c.close();
    });

    it("keeps large and binary files, and records files over the size cap without copying them", async () => {
      const binary = randomBytes(300_000);
      const chunked = randomBytes(9 * 1024 * 1024);
      const huge = Buffer.alloc(11 * 1024 * 1024, 7);
      write(p.root, { "bin/data.bin": binary, "bin/big.bin": chunked, "bin/huge.iso": huge, "t.txt": "x" });
      const c = await open(p, { watch, maxFileBytes: 10 * 1024 * 1024 });
      const first = await c.save("first", "conv");
      assert.deepEqual(first.notCovered, [
        { path: "bin/huge.iso", why: "not kept: larger than 10 MB (11 MB)" },
      ]);
      assert.ok(c.totalBytes < binary.length + chunked.length + 100_000, `${c.totalBytes} bytes kept`);
      const before = picture(p.root);

      writeFileSync(join(p.root, "bin/data.bin"), randomBytes(1000));
      const flipped = Buffer.from(chunked);
      flipped[5_000_000] ^= 0xff;
      writeFileSync(join(p.root, "bin/big.bin"), flipped);
      unlinkSync(join(p.root, "t.txt"));
      const r = await c.restore(first.id);
      assert.deepEqual(picture(p.root), before);
      assert.deepEqual(r.notRestored, [
        { path: "bin/huge.iso", why: "not restored: it was too large to keep" },
      ]);
      const v = await c.read(first.id, "bin/huge.iso");
      assert.deepEqual(v, { kind: "not kept", why: "larger than 10 MB" });
      await c.close();
    });

    it("brings back files deleted and re-created, and tells an empty file from a missing one", async () => {
      write(p.root, { "a.txt": "original", "empty.txt": "", "b.txt": "bee" });
      const c = await open(p, { watch });
      const first = await c.save("first", "conv");
      unlinkSync(join(p.root, "a.txt"));
      unlinkSync(join(p.root, "empty.txt"));
      await c.save("second", "conv");
      write(p.root, { "a.txt": "re-created, other bytes", "b.txt": "" });
      await c.save("third", "conv");
      await c.restore(first.id);
      assert.equal(readFileSync(join(p.root, "a.txt"), "utf8"), "original");
      assert.equal(readFileSync(join(p.root, "empty.txt"), "utf8"), "");
      assert.equal(readFileSync(join(p.root, "b.txt"), "utf8"), "bee");
      await c.close();
    });

    it("restores executable bits", async () => {
      write(p.root, { "run.sh": "#!/bin/sh\necho hi\n", "plain.txt": "x" });
      chmodSync(join(p.root, "run.sh"), 0o755);
      chmodSync(join(p.root, "plain.txt"), 0o644);
      const c = await open(p, { watch });
      const first = await c.save("first", "conv");
      chmodSync(join(p.root, "run.sh"), 0o644);
      chmodSync(join(p.root, "plain.txt"), 0o755);
      assert.deepEqual(
        (await c.diff(first.id)).map((x) => x.path),
        ["plain.txt", "run.sh"],
      );
      await c.restore(first.id);
      assert.equal(statSync(join(p.root, "run.sh")).mode & 0o777, 0o755);
      assert.equal(statSync(join(p.root, "plain.txt")).mode & 0o777, 0o644);
      await c.close();
    });

    it("reads only files whose stat data changed, and sees a same-size change with the old mtime put back", async () => {
      const files: Record<string, string> = {};
      for (let i = 0; i < 50; i++) files[`f${i}.txt`] = `file ${i}\n`;
      write(p.root, files);
      // Older than the racy window, as files usually are: their stat data can be trusted.
      const past = new Date(Date.now() - 60_000);
      for (const name of Object.keys(files)) utimesSync(join(p.root, name), past, past);
      const c = await open(p, { watch });
      const first = await c.save("first", "conv");
      assert.equal(first.read, 50);
      writeFileSync(join(p.root, "f7.txt"), "FILE 7\n");
      utimesSync(join(p.root, "f7.txt"), past, past);
      const second = await c.save("second", "conv");
      assert.equal(second.read, 1);
      assert.deepEqual(await c.diff(first.id), [{ path: "f7.txt", change: "changed", kind: "file" }]);
      await c.restore(first.id);
      assert.equal(readFileSync(join(p.root, "f7.txt"), "utf8"), "file 7\n");
      await c.close();
    });
  });
