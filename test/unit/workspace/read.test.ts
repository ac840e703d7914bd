import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "../../../src/agent/types";
import { lines } from "../../../src/chat/workspace/line-range";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, write } from "./fixtures";

/** "line 1\nline 2\n…" up to `n`. */
function numbered(n: number, width = 0): string {
  return Array.from({ length: n }, (_, i) => `line ${i + 1}${"x".repeat(width)}`).join("\n") + "\n";
}

describe("read_file", () => {
  let root: string;
  let tools: Tool[];
  const cleanups: (() => void)[] = [];

  beforeEach(() => {
    const ws = folder();
    cleanups.push(ws.remove);
    root = ws.path;
    tools = workspaceTools({ root, trusted: true });
    write(root, {
      "small.txt": "alpha\nbeta\ngamma\n",
      "no-newline.txt": "one\ntwo",
      "long.txt": numbered(1000),
      "wide.txt": numbered(300, 200),
      "empty.txt": "",
      "crlf.txt": "a\r\nb\r\n",
      "logo.png": Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]),
      "minified.js": "x".repeat(50_000),
    });
  });

  afterEach(() => {
    while (cleanups.length) (cleanups.pop() as () => void)();
  });

  it("reads a whole small file and says its line count", async () => {
    assert.equal(
      await call(tools, "read_file", { path: "small.txt" }),
      "small.txt (3 lines):\nalpha\nbeta\ngamma",
    );
    assert.equal(
      await call(tools, "read_file", { path: "no-newline.txt" }),
      "no-newline.txt (2 lines):\none\ntwo",
    );
  });

  it("reads a range, 1-based and inclusive", async () => {
    const text = await call(tools, "read_file", { path: "long.txt", startLine: 10, endLine: 12 });
    assert.equal(text, "long.txt, lines 10–12 of 1000:\nline 10\nline 11\nline 12");
  });

  it("reads the first 400 lines by default and says how to read on", async () => {
    const text = await call(tools, "read_file", { path: "long.txt" });
    const lines = text.split("\n");
    assert.equal(lines[0], "long.txt, lines 1–400 of 1000:");
    assert.equal(lines[400], "line 400");
    assert.equal(lines.at(-1), "[Lines 401–1000 are not shown: read on with startLine 401.]");
  });

  it("reads to the end when the range goes past it", async () => {
    const text = await call(tools, "read_file", { path: "long.txt", startLine: 999, endLine: 2000 });
    assert.equal(text, "long.txt, lines 999–1000 of 1000:\nline 999\nline 1000");
  });

  it("stops at about 20 KB and says where to go on", async () => {
    const text = await call(tools, "read_file", { path: "wide.txt", startLine: 1, endLine: 300 });
    const lines = text.split("\n");
    const last = lines.at(-1) as string;
    const match =
      /^\[Lines (\d+)–300 are not shown \(one call shows at most 20\.0 KB\): read on with startLine (\d+)\.\]$/.exec(
        last,
      );
    assert.ok(match, last);
    const shownLines = lines.slice(1, -1);
    assert.equal(Number(match[1]), shownLines.length + 1);
    assert.ok(Buffer.byteLength(shownLines.join("\n")) <= 20 * 1024);
    assert.equal(shownLines.at(-1), `line ${shownLines.length}${"x".repeat(200)}`);
  });

  it("cuts a single line longer than the budget and says so", async () => {
    const text = await call(tools, "read_file", { path: "minified.js" });
    assert.match(
      text,
      /^minified\.js, line 1 of 1:\nx{20480}\n\[Line 1 is longer than 20\.0 KB and was cut\.\]$/,
    );
  });

  it("says an empty file is empty and keeps \\r\\n files readable", async () => {
    assert.equal(await call(tools, "read_file", { path: "empty.txt" }), "empty.txt is empty.");
    assert.equal(await call(tools, "read_file", { path: "crlf.txt" }), "crlf.txt (2 lines):\na\r\nb");
  });

  it("refuses a binary file", async () => {
    const message = await refusal(call(tools, "read_file", { path: "logo.png" }));
    assert.equal(message, "logo.png is a binary file; read_file reads only text files.");
  });

  it("refuses a start past the end, an end before the start, a folder and a missing file", async () => {
    assert.match(
      await refusal(call(tools, "read_file", { path: "small.txt", startLine: 9 })),
      /has 3 lines; startLine 9 is past its end/,
    );
    assert.match(
      await refusal(call(tools, "read_file", { path: "small.txt", startLine: 3, endLine: 2 })),
      /endLine 2 is before startLine 3/,
    );
    assert.match(
      await refusal(call(tools, "read_file", { path: "." })),
      /is a folder; list its files with list_files/,
    );
    assert.match(await refusal(call(tools, "read_file", { path: "nope.txt" })), /nope\.txt does not exist/);
    assert.match(await refusal(call(tools, "read_file", { path: "small.txt", startLine: 0 })), /startLine/);
  });

  it("refuses paths out of the workspace", async () => {
    const out = folder("tandem-out-");
    cleanups.push(out.remove);
    write(out.path, { "secret.txt": "the secret\n" });
    symlinkSync(join(out.path, "secret.txt"), join(root, "link.txt"));
    symlinkSync(out.path, join(root, "outdir"));
    for (const path of ["../x", "/etc/passwd", "link.txt", "outdir/secret.txt", "small.txt\0"]) {
      const message = await refusal(call(tools, "read_file", { path }));
      assert.match(message, /outside the workspace|NUL byte/, path);
      assert.doesNotMatch(message, /the secret/);
    }
  });

  it("counts the lines of a very large text only in part, and says so", async () => {
    const chunks = Array.from({ length: 10 }, (_, i) => Buffer.from(`chunk ${i} a\nchunk ${i} b\n`));
    const counted = await lines(chunks, 1, 2, 1000, 40);
    assert.deepEqual(
      { text: counted.text, total: counted.total, counted: counted.counted },
      { text: "chunk 0 a\nchunk 0 b", total: 4, counted: false },
    );
    const whole = await lines(chunks, 1, 2, 1000);
    assert.equal(whole.total, 20);
    assert.ok(whole.counted);
  });

  it("reads the editor's unsaved text when it holds the file", async () => {
    const held = workspaceTools({
      root,
      trusted: false,
      editor: {
        open: async () => {},
        propose: async () => ({ accepted: false }),
        create: async () => {},
        run: async () => ({ exitCode: 0, output: "" }),
        text: async (path) => (path === join(root, "small.txt") ? "unsaved\n" : undefined),
      },
    });
    assert.equal(await call(held, "read_file", { path: "small.txt" }), "small.txt (1 line):\nunsaved");
    assert.equal(
      await call(held, "read_file", { path: "no-newline.txt" }),
      "no-newline.txt (2 lines):\none\ntwo",
    );
  });
});
