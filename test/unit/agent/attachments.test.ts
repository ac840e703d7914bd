import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  agent,
  attach,
  calls,
  endpoint,
  READ_FILE,
  run,
  RunError,
  says,
  scripted,
  type Piece,
} from "../../../src/agent";
import { answer, openaiServer } from "../../fixtures/openai-server";

const fixtures = join(__dirname, "..", "..", "fixtures");
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==",
  "base64",
);

describe("agent: attachments", function () {
  this.timeout(20_000);
  let dir: string;
  before(async () => {
    dir = await mkdtemp(join(tmpdir(), "tandem-attach-"));
  });
  after(() => rm(dir, { recursive: true, force: true }));

  it("reads both pages of a real PDF", async () => {
    const given = await attach([
      { name: "two-pages.pdf", type: "application/pdf", path: join(fixtures, "two-pages.pdf") },
    ]);
    assert.match(
      given.text,
      /<file name="two-pages.pdf">\nTandem fixture page one: the quick brown fox\.\n\nPage two says goodbye to the lazy dog\.\n<\/file>/,
    );
    assert.deepEqual(given.images, []);
  });

  it("sends a picture as a data URL, on the wire as an image_url part", async () => {
    const path = join(dir, "dot.png");
    await writeFile(path, PNG);
    const server = await openaiServer();
    try {
      server.script(answer("a dot"));
      const a = agent(endpoint({ baseURL: server.baseURL, model: "vision", window: 0 }));
      assert.equal(await run(a, "what is it?", { files: [{ name: "dot.png", type: "", path }] }), "a dot");
      const url = `data:image/png;base64,${PNG.toString("base64")}`;
      assert.deepEqual(a.history[0], { role: "user", text: "what is it?", images: [url] });
      assert.deepEqual((server.requests[0].body.messages as unknown[])[0], {
        role: "user",
        content: [
          { type: "text", text: "what is it?" },
          { type: "image_url", image_url: { url } },
        ],
      });
    } finally {
      await server.close();
    }
  });

  it("joins a text file to the message", async () => {
    const path = join(dir, "notes.csv");
    await writeFile(path, "a,b\n1,2\n");
    const model = scripted([says("read")]);
    await run(agent(model), "sum it", { files: [{ name: "notes.csv", type: "text/csv", path }] });
    assert.equal(
      model.requests[0].messages[0].text,
      'sum it\n\n<file name="notes.csv">\na,b\n1,2\n\n</file>',
    );
  });

  it("gives a long document in part with a note; read_file reads the rest by range", async () => {
    const path = join(dir, "long.txt");
    const body = Array.from({ length: 3000 }, (_, i) => `line ${i}`).join("\n");
    await writeFile(path, body);
    const model = scripted([
      calls([[READ_FILE, '{"name":"long.txt","offset":20000,"length":5000}']]),
      says("ok"),
      calls([[READ_FILE, '{"name":"long.txt","offset":25000}']]),
      says("ok"),
    ]);
    const a = agent(model);
    await run(a, "read", { files: [{ name: "long.txt", type: "text/plain", path }] });
    const first = model.requests[0].messages[0].text;
    assert.ok(first.includes(body.slice(0, 20000)));
    assert.ok(!first.includes(body.slice(20000, 20100)));
    assert.match(first, /Only characters 0–20000 of \d+ of long.txt are shown.*read_file.*"offset": 20000/);
    assert.ok(model.requests[0].tools.some((t) => t.function.name === READ_FILE));
    const result = model.requests[1].messages.at(-1)?.text ?? "";
    assert.ok(result.startsWith(body.slice(20000, 25000)));
    assert.match(result, /rest starts at offset 25000/);
    // A later run of the same agent can still read the document.
    await run(a, "more");
    assert.match(
      model.requests[3].messages.at(-1)?.text ?? "",
      new RegExp(`${body.slice(-8)}\\n\\[End of long.txt`),
    );
  });

  it("ends with a clear error, not a crash, for a file that cannot be read", async () => {
    const binary = join(dir, "blob.bin");
    await writeFile(binary, Buffer.from([1, 2, 0, 3, 255]));
    const corrupt = join(dir, "bad.pdf");
    await writeFile(corrupt, "%PDF-1.4\nthis is not really a pdf");
    const cases: [name: string, path: string, why: RegExp][] = [
      ["locked.pdf", join(fixtures, "locked.pdf"), /Cannot read locked.pdf: it is protected by a password\./],
      ["blob.bin", binary, /Cannot read blob.bin: it is a binary file, not text\./],
      ["bad.pdf", corrupt, /Cannot read bad.pdf: it is not a valid PDF\./],
      ["gone.txt", join(dir, "gone.txt"), /Cannot read gone.txt: the file does not exist\./],
    ];
    for (const [name, path, why] of cases) {
      const model = scripted([says("never")]);
      const pieces: Piece[] = [];
      await assert.rejects(
        run(agent(model), "look", { files: [{ name, type: "", path }], each: (p) => pieces.push(p) }),
        (e: unknown) => e instanceof RunError && why.test(e.message),
      );
      assert.equal(pieces.length, 1);
      assert.equal(pieces[0].kind, "error");
      assert.equal(model.requests.length, 0);
    }
  });

  it("refuses a file over the size limit", async () => {
    const path = join(dir, "big.txt");
    await writeFile(path, "x".repeat(3000));
    await assert.rejects(
      attach([{ name: "big.txt", type: "text/plain", path }], { chars: 100, bytes: 1024 }),
      /Cannot read big.txt: it is 3 KB, more than the 1 KB allowed\./,
    );
  });
});
