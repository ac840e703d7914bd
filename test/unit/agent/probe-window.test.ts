import assert from "node:assert/strict";
import { learned, markdown, probe } from "../../../src/agent";
import { asLlamaCpp, asOllama } from "../../fixtures/model-servers";
import { answer, calling, openaiServer, type FixtureServer } from "../../fixtures/openai-server";
import { table } from "./report-table";

describe("agent: Check Endpoint's window: served, trained, and cut", () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await openaiServer();
    server.script(answer("ready"), calling([["c1", "echo", '{"word":"ping"}']]), answer("Red"));
  });
  afterEach(() => server.close());

  it("reports the window llama.cpp serves, the one the model was trained for, and how to serve more", async () => {
    asLlamaCpp(server, "qwen", 4096, 32_768);
    const report = await probe({ baseURL: server.baseURL, model: "qwen" });
    assert.equal(report.window.tokens, 4096);
    assert.equal(
      report.window.note,
      "4,096 tokens, as llama.cpp serves the model (/props). The model was trained for 32,768: longer prompts are refused or cut. To serve more, start llama-server with a larger context: --ctx-size 16384 (or -c 16384).",
    );
    assert.ok(report.verdict.note.includes("a 4,096-token window"), report.verdict.note);
    assert.equal(learned(report).window, 4096);
    const row = table(markdown(report)).find((r) => r[0] === "Context window");
    assert.equal(row?.[1], "✅ 4,096 tokens");
    assert.ok(row?.[2].includes("--ctx-size 16384"), row?.[2]);
  });

  it("says when Ollama's window is only its default, with the fix", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    const report = await probe({ baseURL: server.baseURL, model: "qwen2.5:0.5b" });
    assert.equal(report.window.tokens, 4096);
    assert.ok(
      report.window.note.startsWith("4,096 tokens assumed: Ollama serves the model with its default context"),
    );
    assert.ok(report.window.note.includes("OLLAMA_CONTEXT_LENGTH=16384"), report.window.note);
  });

  it("reports a cut an earlier run saw, with the fix for the server", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    const report = await probe(
      { baseURL: server.baseURL, model: "qwen2.5:0.5b" },
      { known: { window: 2048, held: 2048 } },
    );
    assert.equal(report.cut?.held, 2048);
    const row = table(markdown(report)).find((r) => r[0] === "Prompts cut");
    assert.equal(row?.[1], "❌ to 2,048 tokens");
    assert.ok(
      row?.[2].startsWith("The server cut a prompt to 2,048 tokens without a word in an earlier run"),
      row?.[2],
    );
    assert.ok(row?.[2].includes("num_ctx 16384"), row?.[2]);
  });

  it("says nothing of a cut once the server serves more than it held (the fix was applied)", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768, loaded: 16_384 });
    const report = await probe(
      { baseURL: server.baseURL, model: "qwen2.5:0.5b" },
      { known: { window: 2048, held: 2048 } },
    );
    assert.equal(report.cut, undefined);
    assert.equal(report.window.tokens, 16_384);
  });
});
