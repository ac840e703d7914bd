import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { closeSync, constants, openSync, symlinkSync } from "node:fs";
import { join } from "node:path";
import { attach } from "../../../src/agent/attachments";
import { openRegular, readRegular } from "../../../src/agent/regular";
import type { Tool } from "../../../src/agent/types";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, write } from "./fixtures";

/** Lets a reader blocked on the named pipe `path` go (opening it for writing ends its wait), without the thread pool. */
function release(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader is waiting on it.
  }
}

describe("only regular files are read (named pipes and devices never block the host)", () => {
  let root: string;
  let remove: () => void;
  let tools: Tool[];
  const pipes: string[] = [];

  beforeEach(() => {
    ({ path: root, remove } = folder());
    tools = workspaceTools({ root, trusted: true });
    write(root, { "notes.txt": "alpha\nbeta\n", "src/main.ts": "const beta = 1;\n" });
    for (const name of ["pipe1", "pipe2", "pipe3", "pipe4"]) {
      const path = join(root, name);
      execFileSync("mkfifo", [path]);
      pipes.push(path);
    }
  });

  afterEach(() => {
    // Were a read still waiting on a pipe (the bug), the rest of the suite would stall behind it.
    while (pipes.length) release(pipes.pop() as string);
    remove();
  });

  it("answers read_file on a named pipe with a clear message, and four of them leave the pool free", async () => {
    const reads = [1, 2, 3, 4].map((n) => refusal(call(tools, "read_file", { path: `pipe${n}` })));
    // A normal read started while the four are under way completes: the thread pool is not exhausted.
    const normal = await call(tools, "read_file", { path: "notes.txt" });
    assert.equal(normal, "notes.txt (2 lines):\nalpha\nbeta");
    assert.deepEqual(await Promise.all(reads), [
      "pipe1 is a named pipe (FIFO), not a regular file; only regular files are read.",
      "pipe2 is a named pipe (FIFO), not a regular file; only regular files are read.",
      "pipe3 is a named pipe (FIFO), not a regular file; only regular files are read.",
      "pipe4 is a named pipe (FIFO), not a regular file; only regular files are read.",
    ]);
  });

  it("refuses a link to a named pipe the same way", async () => {
    symlinkSync(join(root, "pipe1"), join(root, "link"));
    assert.equal(
      await refusal(call(tools, "read_file", { path: "link" })),
      "link is a named pipe (FIFO), not a regular file; only regular files are read.",
    );
  });

  it("lists and searches past named pipes, and a .gitignore that is one", async () => {
    execFileSync("mkfifo", [join(root, ".gitignore")]);
    pipes.push(join(root, ".gitignore"));
    assert.equal(
      await call(tools, "search_text", { query: "beta" }),
      '2 matches for "beta" in 2 files:\nnotes.txt:2: beta\nsrc/main.ts:1: const beta = 1;',
    );
    assert.equal(await call(tools, "list_files", {}), "2 files matching **/*:\nnotes.txt\nsrc/main.ts");
  });

  it("refuses to attach a named pipe or a device, with the reason, and reads a normal file after", async () => {
    const attached = (path: string, name: string) => refusal(attach([{ name, type: "", path }]));
    assert.equal(
      await attached(join(root, "pipe1"), "pipe1"),
      "Cannot read pipe1: it is a named pipe (FIFO), not a regular file.",
    );
    // /dev/zero has no size and never ends; /dev/random blocks or never ends.
    assert.equal(
      await attached("/dev/zero", "zero"),
      "Cannot read zero: it is a character device, not a regular file.",
    );
    assert.equal(
      await attached("/dev/random", "random"),
      "Cannot read random: it is a character device, not a regular file.",
    );
    const ok = await attach([{ name: "notes.txt", type: "", path: join(root, "notes.txt") }]);
    assert.match(ok.text, /<file name="notes.txt">\nalpha\nbeta\n\n<\/file>/);
  });

  it("openRegular refuses a folder, a pipe and a device, and opens a regular file", async () => {
    await assert.rejects(openRegular(root, "the root"), {
      name: "NotRegularError",
      message: "the root is a folder, not a regular file; only regular files are read.",
    });
    await assert.rejects(readRegular(join(root, "pipe2"), "pipe2"), { kind: "a named pipe (FIFO)" });
    await assert.rejects(readRegular("/dev/zero"), { kind: "a character device" });
    assert.equal((await readRegular(join(root, "notes.txt"))).toString(), "alpha\nbeta\n");
  });
});
