/**
 * The demo model `npm start` falls back to, end to end: the random-weight GGUF served by the real
 * runtime (node-llama-cpp, installed into .vscode-test/demo as `npm start` does), chosen from the
 * model catalogue as the panel chooses it (its listed 2,048-token window), and answered through the
 * panel's own runner: its instructions, its whole tool set, its approvals in the default edits mode.
 */
import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { agent, endpoint, run, type Model, type Piece } from "../../../src/agent";
import { factsKey, memoryFacts } from "../../../src/agent/facts";
import { endpointChoices, endpointOf, type EndpointSetting } from "../../../src/chat/models/catalogue";
import { asked } from "../../../src/chat/make";
import { PendingChanges } from "../../../src/chat/pending/changes";
import { diskFiles, pendingEditor } from "../../../src/chat/pending/pending-editor";
import { approvalsFor } from "../../../src/chat/pending/mode";
import type { Item } from "../../../src/chat/row-schemas";
import type {
  Command,
  Editor,
  NewFile,
  Proposal,
  Ran,
  EditVerdict,
} from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { LABEL, WORDS } from "../../../scripts/demo-model/grammar.mjs";
import { makeGguf } from "../../../scripts/demo-model/make-gguf.mjs";
import { ensureRuntime } from "../../../scripts/demo-model/runtime.mjs";
import { DEMO_MODEL, serveDemo } from "../../../scripts/demo-model/serve.mjs";
import { answerOf, bench, hostOf, type Bench } from "../chat/runner-fixture";
import { folder, write } from "../workspace/fixtures";

const RUNTIME_DIR = join(import.meta.dirname, "../../../.vscode-test/demo");

/** The editor under the pending changes: it writes files on disk and runs nothing. */
class DiskEditor implements Editor {
  async open(): Promise<void> {}
  async propose(_proposal: Proposal): Promise<EditVerdict> {
    return { accepted: false };
  }
  async create(file: NewFile): Promise<void> {
    const { writeFileSync } = await import("node:fs");
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

/** The model the panel answers with when the demo is the default endpoint: the catalogue's row, resolved as the editor resolves it. */
async function panelModel(url: string): Promise<Model> {
  const setting: EndpointSetting = { name: "", baseURL: url };
  const rows = await endpointChoices(setting, 0);
  assert.deepEqual(
    rows.map((r) => [r.name, r.note]),
    [[DEMO_MODEL, "tandem · 2k context"]],
  );
  const found = endpointOf(rows[0].id, [setting]);
  assert.ok(found, "the catalogue's id names the demo endpoint");
  // As Models.resolve builds it (src/vscode/models.ts): learned facts shared, the window read from the listing.
  return endpoint({
    baseURL: found.endpoint.baseURL,
    apiKey: "none",
    model: found.model,
    facts: memoryFacts(),
    key: factsKey(found.endpoint.baseURL, found.model),
  });
}

describe("the demo model (node-llama-cpp, random weights, grammars)", () => {
  let demo: { url: string; stop: () => Promise<void> };
  let workspace: { path: string; remove: () => void };
  let weights: { path: string; remove: () => void };
  let panel: Bench | undefined;

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

  afterEach(async () => {
    await panel?.end();
    panel = undefined;
  });

  after(async () => {
    await demo?.stop();
    workspace?.remove();
    weights?.remove();
  });

  /**
   * The panel's runner over the catalogue's demo model, in the default edits mode ("pending"): its
   * tools are the panel's own and the workspace's; anything that would ask the person is counted.
   */
  async function openPanel(): Promise<{ panel: Bench; changes: PendingChanges; questions: string[] }> {
    const model = await panelModel(demo.url);
    assert.equal(await model.window?.(), 2048, "the window the endpoint lists");
    const changes = await PendingChanges.open(join(`${workspace.path}-pending.json`), diskFiles);
    const editor = pendingEditor(new DiskEditor(), changes, () => "pending");
    const questions: string[] = [];
    panel = await bench(
      hostOf(
        { default: model },
        {
          tools: () => workspaceTools({ root: workspace.path, editor, trusted: true }),
          root: () => workspace.path,
          approvals: (assistant) => approvalsFor("pending", {}, assistant?.approve),
          approve: async (_call, _signal, question) => (questions.push(question.text), false),
          notes: () => changes.take(),
        },
      ),
    );
    return { panel, changes, questions };
  }

  /** The items of the answer to `text` in a new conversation of `bench`. */
  async function say(bench: Bench, text: string): Promise<Item[]> {
    const chat = bench.chat();
    const user = asked(text, chat);
    await bench.send(user);
    return answerOf(bench.store, chat, user.id);
  }

  const kinds = (items: Item[]) => items.filter((i) => i.kind !== "reasoning").map((i) => i.kind);
  const answerText = (items: Item[]) =>
    items
      .filter((i) => i.kind === "text")
      .map((i) => i.text)
      .join("");

  it("streams an answer of readable words from its vocabulary, labelled as a demo", async function () {
    this.timeout(60_000);
    const pieces: Piece[] = [];
    const model = await panelModel(demo.url);
    const answer = await run(agent(model), "Hello! What can you do?", { each: (p) => pieces.push(p) });
    assert.ok(pieces.filter((p) => p.kind === "text").length > 3, "the answer streamed in pieces");
    const words = wordsOf(answer);
    assert.ok(words.length >= 4, answer);
    assert.deepEqual(
      words.filter((word) => !WORDS.includes(word)),
      [],
      `every word is in the word list: ${answer}`,
    );
  });

  it("in the panel, asked to read a file, calls read_file on it, reads it, then answers in words", async function () {
    this.timeout(120_000);
    const { panel } = await openPanel();
    const items = await say(panel, "Please read README.md");
    assert.deepEqual(kinds(items), ["call", "text"], JSON.stringify(items.map((i) => [i.kind, i.text])));
    const [call] = items;
    assert.deepEqual(
      [call.name, call.state, JSON.parse(call.input)],
      ["read_file", "done", { path: "README.md" }],
    );
    assert.match(call.output, /A small project for Tandem to read/);
    wordsOf(answerText(items));
  });

  it("in the panel, asked to write a file, creates it as a pending change to keep or undo, asking nothing", async function () {
    this.timeout(120_000);
    const { panel, changes, questions } = await openPanel();
    const items = await say(panel, "Write notes.md with a summary");
    assert.deepEqual(kinds(items), ["call", "text"], JSON.stringify(items.map((i) => [i.kind, i.text])));
    const [call] = items;
    assert.deepEqual([call.name, call.state], ["create_file", "done"]);
    const args = JSON.parse(call.input) as Record<string, unknown>;
    assert.equal(args.path, "notes.md");
    assert.notEqual(args.overwrite, true, "never replaces a file");
    assert.deepEqual(questions, [], "the default mode writes it as a pending change");
    assert.deepEqual(
      changes.list().map((p) => p.shown),
      ["notes.md"],
    );
    const written = readFileSync(join(workspace.path, "notes.md"), "utf8");
    assert.equal(written, args.content);
    assert.deepEqual(
      wordsOf(written).filter((word) => !WORDS.includes(word)),
      [],
    );
  });
});
