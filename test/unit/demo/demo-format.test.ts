/**
 * The demo model held to a JSON Schema on its real runtime (node-llama-cpp's JSON-schema grammar),
 * as Tandem holds a model without native calls: every turn is an answer or a call that fits its tool.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { agent, endpoint, run, type FunctionTool, type Model, type Piece } from "../../../src/agent";
import OpenAI from "openai";
import { constrainedSchema } from "../../../src/agent/constrained";
import { conforms, fits } from "../../../src/agent/constrained-check";
import { body } from "../../../src/agent/wire";
import { factsKey, memoryFacts } from "../../../src/agent/facts";
import { readFileWith } from "../../../src/chat/runner/tools-read";
import type { Editor } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { makeGguf } from "../../../scripts/demo-model/make-gguf.mjs";
import { ensureRuntime } from "../../../scripts/demo-model/runtime.mjs";
import { DEMO_MODEL, serveDemo } from "../../../scripts/demo-model/serve.mjs";
import { folder, write } from "../workspace/fixtures";

const RUNTIME_DIR = join(import.meta.dirname, "../../../.vscode-test/demo");
const editor: Editor = {
  open: async () => undefined,
  propose: async () => ({ accepted: false }),
  create: async () => undefined,
  run: () => Promise.reject(new Error("the demo test runs no command")),
};

describe("the demo model held to a JSON Schema (response_format, node-llama-cpp's grammar)", () => {
  let demo: { url: string; stop: () => Promise<void> };
  let workspace: { path: string; remove: () => void };
  let weights: { path: string; remove: () => void };
  /** The demo as an endpoint without native calls that honours response_format (what Check Endpoint learns of one). */
  const held = (): Model => {
    const facts = memoryFacts();
    const key = factsKey(demo.url, DEMO_MODEL);
    facts.set(key, { textTools: true, jsonSchema: true });
    return endpoint({ baseURL: demo.url, model: DEMO_MODEL, window: 2048, facts, key });
  };
  const tools = () =>
    workspaceTools({ root: workspace.path, editor, trusted: true }).map((t) =>
      t.name === "read_file" ? readFileWith(t, []) : t,
    );

  before(async function () {
    this.timeout(300_000);
    ensureRuntime(RUNTIME_DIR, { quiet: true });
    workspace = folder("tandem-demo-format-");
    write(workspace.path, { "README.md": "# Sample\n\nA small project for Tandem to read.\n" });
    weights = folder("tandem-demo-format-model-");
    demo = await serveDemo({
      dir: RUNTIME_DIR,
      modelPath: makeGguf(join(weights.path, `${DEMO_MODEL}.gguf`)),
    });
  });

  after(async () => {
    await demo?.stop();
    workspace?.remove();
    weights?.remove();
  });

  it("asked to read a file, its JSON is a read_file call that runs, then an answer that streams", async function () {
    this.timeout(120_000);
    const pieces: Piece[] = [];
    const answer = await run(agent(held(), "", tools()), "Please read README.md", {
      each: (p) => pieces.push(p),
    });
    const calls = pieces.flatMap((p) => (p.kind === "call" ? [p.call] : []));
    assert.deepEqual(
      calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [["read_file", { path: "README.md" }]],
    );
    const result = pieces.find((p) => p.kind === "result");
    assert.match(result?.kind === "result" ? result.text : "", /A small project for Tandem to read/);
    assert.ok(pieces.filter((p) => p.kind === "text").length > 1, "the answer streamed in pieces");
    assert.doesNotMatch(answer, /^\s*\{/, "the answer is the JSON's string, not the JSON");
    assert.ok(!pieces.some((p) => p.kind === "error"));
  });

  it("left to choose among all the tools, every reply is JSON of the schema: an answer or a call that fits", async function () {
    this.timeout(180_000);
    const offered: FunctionTool[] = tools().map((t) => ({
      type: "function",
      function: { name: t.name, description: t.description, parameters: t.parameters },
    }));
    const api = new OpenAI({ baseURL: demo.url, apiKey: "none" });
    const schema = constrainedSchema(offered);
    for (const text of ["Hello", "What now?", "ok", "Tell me more", "hm"]) {
      const request = {
        instructions: "",
        messages: [{ role: "user" as const, text }],
        tools: offered,
        answer: false,
      };
      const sent = body(request, DEMO_MODEL, { textTools: true, constrained: true, baseURL: demo.url });
      let content = "";
      for await (const chunk of await api.chat.completions.create(sent))
        content += chunk.choices[0]?.delta?.content ?? "";
      const value = JSON.parse(content) as { tool?: string; arguments?: unknown };
      assert.ok(conforms(schema, value), content);
      if (value.tool)
        assert.ok(fits({ id: "c", name: value.tool, arguments: JSON.stringify(value.arguments) }, offered));
    }
  });
});
