import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile, access } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { hunksOf, keepHunk, linesOf, listing, undoHunk } from "../../../src/chat/pending/diff";
import { PENDING_LIMIT, PendingChanges } from "../../../src/chat/pending/changes";
import { diskFiles } from "../../../src/chat/pending/pending-editor";
import { approvalsFor } from "../../../src/chat/pending/mode";

/** A deterministic random text generator (the seed is printed on failure). */
function random(seed: number) {
  let s = seed;
  return () => {
    s = (s * 1103515245 + 12345) & 0x7fffffff;
    return s / 0x7fffffff;
  };
}

describe("pending changes: the line diff", () => {
  it("splits lines keeping their endings, CRLF and a last line without newline included", () => {
    assert.deepEqual(linesOf("a\r\nb\nc"), ["a\r\n", "b\n", "c"]);
    assert.deepEqual(linesOf(""), []);
    assert.deepEqual(linesOf("x\n"), ["x\n"]);
  });

  it("finds separate hunks for changes with an unchanged line between them", () => {
    const before = "one\ntwo\nthree\nfour\nfive\n";
    const after = "one\nTWO\nthree\nfour\nfive\nsix\n";
    assert.deepEqual(hunksOf(before, after), [
      { beforeStart: 1, beforeCount: 1, afterStart: 1, afterCount: 1 },
      { beforeStart: 5, beforeCount: 0, afterStart: 5, afterCount: 1 },
    ]);
    assert.deepEqual(hunksOf(before, before), []);
  });

  it("keeps one hunk and undoes the other, byte for byte", () => {
    const before = "one\ntwo\nthree\nfour\nfive\n";
    const after = "one\nTWO\nthree\nfour\nFIVE\n";
    assert.equal(undoHunk(before, after, 0), "one\ntwo\nthree\nfour\nFIVE\n");
    assert.equal(keepHunk(before, after, 0), "one\nTWO\nthree\nfour\nfive\n");
    // After keeping the first, the only hunk left is the second; undoing it leaves the kept one.
    const kept = keepHunk(before, after, 0);
    assert.equal(hunksOf(kept, after).length, 1);
    assert.equal(undoHunk(kept, after, 0), "one\nTWO\nthree\nfour\nfive\n");
  });

  it("keeps CRLF endings and a missing final newline exactly", () => {
    const before = "a\r\nb\r\nc\r\nd";
    const after = "a\r\nB\r\nc\r\nD";
    const hunks = hunksOf(before, after);
    assert.equal(hunks.length, 2);
    assert.equal(undoHunk(before, after, 1), "a\r\nB\r\nc\r\nd");
    assert.equal(undoHunk(before, after, 0), "a\r\nb\r\nc\r\nD");
    // A line that gains a final newline is a changed line, and undoing it takes the newline away.
    assert.equal(undoHunk("x\ny", "x\ny\nz\n", 0), "x\ny");
    assert.equal(undoHunk(before, undoHunk(before, after, 1), 0), before);
  });

  it("undoing every hunk of random edits gives the before-text back byte for byte", () => {
    for (let seed = 1; seed <= 60; seed++) {
      const rnd = random(seed);
      const words = ["a\n", "b\n", "c\r\n", "d", "e\n", ""];
      const text = () =>
        Array.from({ length: Math.floor(rnd() * 30) }, () => words[Math.floor(rnd() * 6)]).join("");
      const before = text();
      let after = text();
      let n = hunksOf(before, after).length;
      while (n > 0) {
        after = undoHunk(before, after, Math.floor(rnd() * n));
        const left = hunksOf(before, after).length;
        assert.ok(left < n, `seed ${seed}: an undo left ${left} of ${n}`);
        n = left;
      }
      assert.equal(after, before, `seed ${seed}`);
    }
  });

  it("keeping every hunk of random edits makes the before-text the after-text", () => {
    for (let seed = 100; seed <= 140; seed++) {
      const rnd = random(seed);
      const text = () =>
        Array.from({ length: Math.floor(rnd() * 40) }, () => `${Math.floor(rnd() * 5)}\n`).join("");
      let before = text();
      const after = text();
      for (let n = hunksOf(before, after).length; n > 0; n = hunksOf(before, after).length) {
        before = keepHunk(before, after, Math.floor(rnd() * n));
      }
      assert.equal(before, after, `seed ${seed}`);
    }
  });

  it("lists a change as -/+ lines, cut at a limit", () => {
    assert.equal(listing("a\nb\n", "a\nc\n"), "@@ lines 2 @@\n-b\n+c");
    const long = listing("", Array.from({ length: 60 }, (_, i) => `${i}\n`).join(""), 10);
    assert.match(long, /… 51 more lines$/);
  });
});

describe("pending changes: the list", () => {
  let dir: string;
  beforeEach(async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-pending-"));
  });
  afterEach(() => rm(dir, { recursive: true, force: true }));

  const store = () => join(dir, "storage", "pending.json");

  it("keeps one hunk, undoes another, and tells the agent what became of its change", async () => {
    const file = join(dir, "a.txt");
    await writeFile(file, "one\ntwo\nthree\nfour\nfive\n");
    const changes = await PendingChanges.open(store(), diskFiles);
    await changes.write(file, "a.txt", "one\nTWO\nthree\nfour\nFIVE\n");
    assert.equal(await readFile(file, "utf8"), "one\nTWO\nthree\nfour\nFIVE\n");
    assert.equal((await changes.review(file))!.hunks.length, 2);
    await changes.hunk(file, 1, "undo");
    assert.equal(await readFile(file, "utf8"), "one\nTWO\nthree\nfour\nfive\n");
    await changes.hunk(file, 0, "keep");
    assert.equal(await readFile(file, "utf8"), "one\nTWO\nthree\nfour\nfive\n");
    assert.deepEqual(changes.list(), []);
    const notes = await changes.take();
    assert.equal(notes.length, 1);
    assert.match(notes[0], /^a\.txt: the person kept part of your change or edited it/);
    assert.match(notes[0], /-FIVE\n\+five/);
    assert.deepEqual(await changes.take(), [], "told once");
  });

  it("reviews a file edited twice against the text from before the first edit", async () => {
    const file = join(dir, "b.txt");
    await writeFile(file, "x\ny\n");
    const changes = await PendingChanges.open(store(), diskFiles);
    await changes.write(file, "b.txt", "X\ny\n");
    await changes.write(file, "b.txt", "X\ny\nz\n");
    const seen = (await changes.review(file))!;
    assert.equal(seen.before, "x\ny\n");
    assert.equal(seen.hunks.length, 2);
    await changes.whole(file, "undo");
    assert.equal(await readFile(file, "utf8"), "x\ny\n");
    assert.deepEqual(await changes.take(), [
      "b.txt: the person undid your change; the file is as it was before.",
    ]);
  });

  it("removes a created file when it is undone", async () => {
    const file = join(dir, "sub", "new.txt");
    const changes = await PendingChanges.open(store(), diskFiles);
    await changes.write(file, "sub/new.txt", "hello\n");
    assert.equal(await readFile(file, "utf8"), "hello\n");
    await changes.hunk(file, 0, "undo");
    await assert.rejects(access(file));
    assert.deepEqual(changes.list(), []);
    assert.match((await changes.take())[0], /the file was removed \(it did not exist before\)/);
  });

  it("keeps all as written and says so", async () => {
    const file = join(dir, "c.txt");
    await writeFile(file, "c\r\nd");
    const changes = await PendingChanges.open(store(), diskFiles);
    await changes.write(file, "c.txt", "c\r\nD");
    await changes.all("keep");
    assert.equal(await readFile(file, "utf8"), "c\r\nD");
    assert.deepEqual(await changes.take(), ["c.txt: the person kept your change as you wrote it."]);
  });

  it("tells the agent what the person changed in a file still pending", async () => {
    const file = join(dir, "d.txt");
    await writeFile(file, "1\n2\n");
    const changes = await PendingChanges.open(store(), diskFiles);
    await changes.write(file, "d.txt", "1\n2\n3\n");
    await writeFile(file, "1\n2\n3\n4\n");
    const [note] = await changes.take();
    assert.match(note, /still pending the person's review/);
    assert.match(note, /\+4/);
    assert.equal(changes.list().length, 1);
  });

  it("survives a reopen (a window reload): the list and the notes", async () => {
    const a = join(dir, "e.txt");
    const b = join(dir, "f.txt");
    await writeFile(a, "e\n");
    await writeFile(b, "f\n");
    const first = await PendingChanges.open(store(), diskFiles);
    await first.write(a, "e.txt", "E\n");
    await first.write(b, "f.txt", "F\n");
    await first.whole(b, "undo");
    const again = await PendingChanges.open(store(), diskFiles);
    assert.deepEqual(
      again.list().map((p) => [p.shown, p.before, p.wrote]),
      [["e.txt", "e\n", "E\n"]],
    );
    await again.hunk(a, 0, "undo");
    assert.equal(await readFile(a, "utf8"), "e\n");
    assert.equal((await again.take()).length, 2);
  });

  it("sets a malformed file aside and starts empty", async () => {
    const { mkdir } = await import("node:fs/promises");
    await mkdir(join(dir, "storage"));
    await writeFile(store(), "{not json");
    const changes = await PendingChanges.open(store(), diskFiles);
    assert.deepEqual(changes.list(), []);
    const { readdir } = await import("node:fs/promises");
    assert.ok((await readdir(join(dir, "storage"))).some((n) => n.startsWith("pending.json.unreadable-")));
  });

  it("refuses a text too large to keep for undo, and leaves the file as it was", async () => {
    const file = join(dir, "big.txt");
    const big = "x\n".repeat(PENDING_LIMIT / 2 + 1);
    await writeFile(file, big);
    const changes = await PendingChanges.open(store(), diskFiles);
    await assert.rejects(changes.write(file, "big.txt", "small\n"), /too large to keep for undo/);
    assert.equal(await readFile(file, "utf8"), big);
    await assert.rejects(changes.write(join(dir, "new.txt"), "new.txt", big), /too large/);
    assert.deepEqual(changes.list(), []);
  });

  it("drops the record of a write that failed, so nothing stays listed that did not happen", async () => {
    const changes = await PendingChanges.open(store(), {
      ...diskFiles,
      write: async () => {
        throw new Error("disk full");
      },
    });
    await assert.rejects(changes.write(join(dir, "h.txt"), "h.txt", "x\n"), /disk full/);
    assert.deepEqual(changes.list(), []);
    assert.deepEqual((await PendingChanges.open(store(), diskFiles)).list(), []);
  });

  it("refuses to keep a binary file for undo", async () => {
    const file = join(dir, "g.bin");
    await writeFile(file, Buffer.from([1, 0, 2]));
    const changes = await PendingChanges.open(store(), diskFiles);
    await assert.rejects(changes.write(file, "g.bin", "text"), /binary file/);
    assert.deepEqual([...(await readFile(file))], [1, 0, 2]);
  });
});

describe("pending changes: the mode's approval settings", () => {
  it("lets the edit tools by in pending mode unless the person's own setting says ask", () => {
    assert.deepEqual(approvalsFor("pending", {}), { propose_edit: "allow", create_file: "allow" });
    assert.deepEqual(approvalsFor("pending", { create_file: "ask" }), {
      propose_edit: "allow",
      create_file: "ask",
    });
    assert.deepEqual(approvalsFor("ask", {}), {});
    assert.deepEqual(approvalsFor("pending", {}, "propose_edit, run_command"), { create_file: "allow" });
  });
});

describe("pending changes: a hunk as the person saw it", () => {
  it("refuses to touch a hunk that moved since it was shown", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tandem-pending-"));
    try {
      const file = join(dir, "h.txt");
      await writeFile(file, "a\nb\nc\n");
      const changes = await PendingChanges.open(join(dir, "p.json"), diskFiles);
      await changes.write(file, "h.txt", "a\nB\nc\n");
      const [shown] = (await changes.review(file))!.hunks;
      await writeFile(file, "z\na\nB\nc\n");
      await assert.rejects(changes.hunk(file, 0, "undo", shown), /changed since this change was shown/);
      assert.equal(await readFile(file, "utf8"), "z\na\nB\nc\n");
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
