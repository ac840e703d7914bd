/**
 * The demo model `npm start` falls back to, end to end: the random-weight GGUF served by the real
 * runtime (node-llama-cpp, installed into .vscode-test/demo as `npm start` does), answered through
 * Tandem's own endpoint model, agent loop and workspace tools.
 */
import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { agent, endpoint, run, type Call, type Piece } from "../../../src/agent";
import type {
  Command,
  Editor,
  NewFile,
  Proposal,
  Ran,
  EditVerdict,
} from "../../../src/chat/workspace/editor";
import { readFileWith } from "../../../src/chat/tools-read";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { LABEL, WORDS } from "../../../scripts/demo-model/grammar.mjs";
import { makeGguf } from "../../../scripts/demo-model/make-gguf.mjs";
import { ensureRuntime } from "../../../scripts/demo-model/runtime.mjs";
import { DEMO_MODEL, serveDemo } from "../../../scripts/demo-model/serve.mjs";
import { folder, write } from "../workspace/fixtures";

const RUNTIME_DIR = join(import.meta.dirname, "../../../.vscode-test/demo");

/** An editor that creates files on disk and refuses everything else (the demo only reads and creates). */
class CreatingEditor implements Editor {
  async open(): Promise<void> {}
  async propose(_proposal: Proposal): Promise<EditVerdict> {
    return { accepted: false };
  }
  async create(file: NewFile): Promise<void> {
    writeFileSync(file.path, file.content, { flag: file.overwrite ? "w" : "wx" });
  }
  async run(_command: Command): Promise<Ran> {
    throw new Error("the demo test runs no command");
  }
}

/** The words of a demo answer after its label; fails when the label is missing. */
function wordsOf(answer: string): string[] {
  assert.ok(answer.startsWith(`${LABEL} `), `the answer is labelled as the demo's: ${answer}`);
  return answer
    .slice(LABEL.length)
    .split(/[\s.]+/)
    .filter(Boolean)
    .map((word) => word.toLowerCase());
}

describe("the demo model (node-llama-cpp, random weights, grammars)", () => {
  let demo: { url: string; stop: () => Promise<void> };
  let workspace: { path: string; remove: () => void };
  let weights: { path: string; remove: () => void };
  const model = () => endpoint({ baseURL: demo.url, model: DEMO_MODEL, window: 0 });

  before(async function () {
    // Installing the runtime (once, ~83 MB) and loading it take longer than a unit test.
    this.timeout(300_000);
    ensureRuntime(RUNTIME_DIR, { quiet: true });
    workspace = folder("tandem-demo-");
    write(workspace.path, { "README.md": "# Sample\n\nA small project for Tandem to read.\n" });
    weights = folder("tandem-demo-model-");
    const modelPath = makeGguf(join(weights.path, `${DEMO_MODEL}.gguf`));
    demo = await serveDemo({ dir: RUNTIME_DIR, modelPath });
  });

  after(async () => {
    await demo?.stop();
    workspace?.remove();
    weights?.remove();
  });

  it("streams an answer of readable words from its vocabulary, labelled as a demo", async function () {
    this.timeout(60_000);
    const pieces: Piece[] = [];
    const answer = await run(agent(model()), "Hello! What can you do?", { each: (p) => pieces.push(p) });
    assert.ok(pieces.filter((p) => p.kind === "text").length > 3, "the answer streamed in pieces");
    const words = wordsOf(answer);
    assert.ok(words.length >= 4, answer);
    assert.deepEqual(
      words.filter((word) => !WORDS.includes(word)),
      [],
      `every word is in the word list: ${answer}`,
    );
  });

  it("asked to read a file, calls read_file on it, reads it, then answers in words", async function () {
    this.timeout(60_000);
    // As the panel's runner offers them: its read_file also reads attachments, so it requires no path.
    const tools = workspaceTools({ root: workspace.path, editor: new CreatingEditor(), trusted: true }).map(
      (t) => (t.name === "read_file" ? readFileWith(t, []) : t),
    );
    const pieces: Piece[] = [];
    const answer = await run(agent(model(), "", tools), "Please read README.md", {
      each: (p) => pieces.push(p),
    });
    const calls = pieces.flatMap((p) => (p.kind === "call" ? [p.call] : []));
    assert.equal(calls.length, 1);
    assert.equal(calls[0].name, "read_file");
    assert.deepEqual(JSON.parse(calls[0].arguments), { path: "README.md" });
    const result = pieces.find((p) => p.kind === "result");
    assert.match(result?.kind === "result" ? result.text : "", /A small project for Tandem to read/);
    wordsOf(answer);
  });

  it("asked to write a file, calls create_file, which waits for approval, then writes demo words", async function () {
    this.timeout(60_000);
    const tools = workspaceTools({ root: workspace.path, editor: new CreatingEditor(), trusted: true });
    const asked: Call[] = [];
    const a = agent(model(), "", tools);
    a.approve = (call) => {
      asked.push(call);
      return true;
    };
    await run(a, "Write notes.md with a summary");
    assert.deepEqual(
      asked.map((c) => c.name),
      ["create_file"],
    );
    const args = JSON.parse(asked[0].arguments) as Record<string, unknown>;
    assert.equal(args.path, "notes.md");
    assert.notEqual(args.overwrite, true, "never replaces a file");
    const written = readFileSync(join(workspace.path, "notes.md"), "utf8");
    assert.equal(written, args.content);
    assert.deepEqual(
      wordsOf(written).filter((word) => !WORDS.includes(word)),
      [],
    );
  });
});
