/**
 * `@` references and pasted images, on the host: the panel's `send` with its `context` list and its
 * `paste` go through the real PanelView, store and runner, and a scripted model reads what each
 * reference became in its message. A path outside the workspace, a symbolic link out of it and a
 * FIFO are refused with a clear notice, and the message still goes.
 */
import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdir, mkdtemp, rm, symlink, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { says, scripted, type ScriptedModel } from "../../../src/agent/scripted";
import { Kept, type EditorContext } from "../../../src/chat/panel/context-refs";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { bench, hostOf, until, type Bench } from "./runner-fixture";
import { recordingHost } from "../../fixtures/view-host";

const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==",
  "base64",
);

/** An editor over the workspace `root` with a selection, two open editors, a problem and a terminal command. */
function editorOf(root: string, terminal: EditorContext["terminal"]): EditorContext {
  return {
    root: () => root,
    files: async (query) =>
      ["src/parser.ts", "src/deep/util.ts", "README.md"].filter((p) => p.includes(query)),
    symbols: async (query) =>
      "parse".includes(query)
        ? [{ name: "parse", kind: "function", container: "", path: "src/parser.ts", line: 11 }]
        : [],
    selection: () => ({
      path: "src/parser.ts",
      start: 3,
      end: 4,
      text: "const b = 2;\nconst c = 3;",
      language: "typescript",
    }),
    editors: () => ["src/parser.ts", "README.md"],
    problems: () => ({ count: 1, text: "src/parser.ts:5:1 error: Cannot find name 'x'. (ts)" }),
    terminal,
  };
}

describe("@ context references (host)", () => {
  let b: Bench | undefined;
  let root = "";
  let storage = "";
  let model: ScriptedModel;
  let sent: HostMessage[];
  let view: PanelView;

  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "tandem-refs-ws-"));
    storage = await mkdtemp(join(tmpdir(), "tandem-refs-store-"));
    await mkdir(join(root, "src/deep"), { recursive: true });
    const lines = Array.from({ length: 80 }, (_, i) => `// line ${i + 1}`);
    lines[11] = "export function parse(text: string) {";
    await writeFile(join(root, "src/parser.ts"), lines.join("\n"));
    await writeFile(join(root, "src/deep/util.ts"), "export const util = 1;\n");
    await writeFile(join(root, "README.md"), "# Demo\n");
    model = scripted(Array.from({ length: 6 }, () => says("Seen.")));
    const kept = new Kept(storage);
    // The runner reads a message's files as the extension's host does: kept ones from the storage,
    // workspace ones under the root.
    b = await bench(
      hostOf(
        { default: model },
        { files: (path, name) => kept.attachment(path, name) ?? { name, type: "", path: join(root, path) } },
      ),
    );
    sent = [];
    const host: ViewHost = recordingHost(sent, {
      context: {
        editor: editorOf(root, () => ({ command: "npm test", text: "1 passing\n2 failing: expected 3" })),
        folder: storage,
      },
    });
    view = new PanelView(b.store, b.runner, host);
  });

  afterEach(async () => {
    await b?.end();
    b = undefined;
    await rm(root, { recursive: true, force: true });
    await rm(storage, { recursive: true, force: true });
  });

  /** Sends `text` with `context` from the panel and answers the model's message once it was asked. */
  async function ask(context: unknown[], files: unknown[] = []) {
    const before = model.requests.length;
    await view.receive({
      type: "send",
      chat: "",
      text: "Look at this",
      files,
      model: "",
      assistant: "",
      context,
    });
    await until(() => model.requests.length > before, "the model to be asked");
    const request = model.requests[before];
    const user = request.messages.filter((m) => m.role === "user").at(-1);
    assert.ok(user && user.role === "user");
    return user;
  }

  it("gives the model each kind of reference, resolved when the message is sent", async () => {
    const user = await ask([
      { kind: "file", path: "src/deep/util.ts" },
      { kind: "folder", path: "src" },
      { kind: "symbol", name: "parse", path: "src/parser.ts", line: 11 },
      { kind: "selection" },
      { kind: "editors" },
      { kind: "problems" },
      { kind: "terminal" },
    ]);
    const text = user.text;
    assert.match(text, /^Look at this/);
    assert.match(text, /<file name="util.ts">\nexport const util = 1;/, "a file, attached as today's files");
    assert.match(text, /<file name="Folder src">\nThe folder src\/ holds 2 entries:\ndeep\/\nparser.ts/);
    assert.match(text, /The symbol parse is at src\/parser.ts:12\. Lines 7–52:/);
    assert.match(text, / {3}12 {2}export function parse\(text: string\) \{/);
    assert.doesNotMatch(text, /\/\/ line 53\n/, "only the lines around the symbol");
    assert.match(
      text,
      /<file name="Selection src\/parser.ts:3-4">\nSelected in src\/parser.ts:3-4:\n```typescript\nconst b = 2;\nconst c = 3;\n```/,
    );
    assert.match(text, /The files open in the editor:\n- src\/parser.ts\n- README.md/);
    assert.match(
      text,
      /The workspace's problems \(1\):\nsrc\/parser.ts:5:1 error: Cannot find name 'x'\. \(ts\)/,
    );
    assert.match(
      text,
      /The output of `npm test` in the terminal:\n```\n1 passing\n2 failing: expected 3\n```/,
    );
    assert.deepEqual(
      sent.filter((m) => m.type === "notice"),
      [],
      "nothing was refused",
    );
    // The message's row carries small references to what was kept, shown as its chips.
    const row = b!.store.rows("items").find((i) => i.kind === "user");
    assert.deepEqual(
      row?.files.map((f) => f.name),
      [
        "util.ts",
        "Folder src",
        "Symbol parse (src/parser.ts:12)",
        "Selection src/parser.ts:3-4",
        "Open editors",
        "Problems",
        "Terminal output",
      ],
    );
    assert.ok(row?.files.slice(1).every((f) => /^tandem-context:[0-9a-f]{64}\.md$/.test(f.path)));
  });

  it("refuses a path outside the workspace, a link out of it and a FIFO, saying why, and sends the rest", async () => {
    const outside = await mkdtemp(join(tmpdir(), "tandem-refs-out-"));
    try {
      await writeFile(join(outside, "secret.txt"), "TOP SECRET");
      await symlink(join(outside, "secret.txt"), join(root, "link.txt"));
      execFileSync("mkfifo", [join(root, "pipe")]);
      const user = await ask([
        { kind: "file", path: "../secret.txt" },
        { kind: "file", path: join(outside, "secret.txt") },
        { kind: "file", path: "link.txt" },
        { kind: "file", path: "pipe" },
        { kind: "symbol", name: "x", path: "pipe", line: 0 },
        { kind: "folder", path: ".." },
        { kind: "file", path: "README.md" },
      ]);
      assert.doesNotMatch(user.text, /TOP SECRET/);
      assert.match(user.text, /<file name="README.md">\n# Demo/, "the good reference still went");
      const notice = sent.find((m) => m.type === "notice");
      assert.ok(notice && notice.type === "notice");
      assert.equal(notice.level, "warning");
      const lines = notice.text.split("\n");
      assert.equal(lines.length, 6);
      assert.match(
        lines[0],
        /^Tandem did not add \.\.\/secret\.txt: The path "\.\.\/secret\.txt" is outside the workspace\.$/,
      );
      assert.match(lines[1], /is outside the workspace\.$/);
      assert.match(lines[2], /^Tandem did not add link\.txt: .*symbolic link out of it/);
      assert.match(
        lines[3],
        /^Tandem did not add pipe: pipe is a named pipe \(FIFO\); only regular files are attached\.$/,
      );
      assert.match(lines[4], /^Tandem did not add x \(pipe:1\): pipe is a named pipe \(FIFO\)/);
      assert.match(lines[5], /^Tandem did not add \.\.: The path "\.\." is outside the workspace\.$/);
    } finally {
      await rm(outside, { recursive: true, force: true });
    }
  });

  it("keeps a pasted PNG and gives it to the model as an image; refuses what is not an image", async () => {
    await view.receive({
      type: "paste",
      name: "Pasted image",
      data: `data:image/png;base64,${PNG.toString("base64")}`,
    });
    const attached = sent.find((m) => m.type === "attached");
    assert.ok(attached && attached.type === "attached");
    assert.deepEqual(
      attached.files.map((f) => [f.name, f.kind]),
      [["Pasted image.png", "image"]],
    );
    const user = await ask([], attached.files);
    assert.deepEqual(user.images, [`data:image/png;base64,${PNG.toString("base64")}`]);

    // An SVG (script inside) claiming to be a PNG is refused by its bytes.
    const svg = Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>');
    await view.receive({
      type: "paste",
      name: "x.png",
      data: `data:image/png;base64,${svg.toString("base64")}`,
    });
    assert.deepEqual(sent.at(-1), {
      type: "notice",
      level: "warning",
      text: "Tandem did not attach the pasted image: only PNG, JPEG, GIF and WebP images are accepted.",
    });
    // A data URL that is not an image's is not even a message.
    const count = sent.length;
    await view.receive({ type: "paste", name: "x", data: "data:text/html;base64,PHA+" });
    assert.equal(sent.length, count);
  });

  it("answers the picker with the editor's current things, folders, files and symbols", async () => {
    await view.receive({ type: "suggest", query: "pars" });
    const answer = sent.find((m) => m.type === "suggestions");
    assert.ok(answer && answer.type === "suggestions");
    assert.equal(answer.query, "pars");
    assert.deepEqual(
      answer.entries.map((e) => `${e.ref.kind}:${e.label}`),
      ["file:parser.ts", "symbol:parse"],
    );
    await view.receive({ type: "suggest", query: "" });
    const all = sent.filter((m) => m.type === "suggestions").at(-1);
    assert.ok(all && all.type === "suggestions");
    assert.deepEqual(
      all.entries.map((e) => `${e.ref.kind}:${e.label}:${e.disabled}`),
      [
        "selection:Selection:false",
        "editors:Open editors:false",
        "problems:Problems:false",
        "terminal:Terminal output:false",
        "folder:src/:false",
        "folder:deep/:false",
        "file:parser.ts:false",
        "file:util.ts:false",
        "file:README.md:false",
      ],
    );
  });
});
