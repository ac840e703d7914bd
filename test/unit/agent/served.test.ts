import assert from "node:assert/strict";
import { endpoint } from "../../../src/agent/endpoint";
import { factsKey, memoryFacts } from "../../../src/agent/facts";
import { localRoot, servedOf } from "../../../src/agent/served";
import { asLlamaCpp, asLmStudio, asLmStudio4, asOllama, asVllm } from "../../fixtures/model-servers";
import { openaiServer, type FixtureServer } from "../../fixtures/openai-server";

describe("agent: the window a server really serves", () => {
  let server: FixtureServer;
  beforeEach(async () => (server = await openaiServer()));
  afterEach(() => server.close());

  /** The window the endpoint fits its requests to, asked through the openai SDK as a run asks it. */
  const windowOf = (model: string, facts = memoryFacts()): Promise<number> =>
    endpoint({ baseURL: server.baseURL, model, facts }).window!();

  it("Ollama: a loaded model's context from /api/ps wins over its trained maximum", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768, loaded: 4096 });
    assert.equal(await windowOf("qwen2.5:0.5b"), 4096);
    assert.ok(server.all.some((r) => r.path === "/api/ps"));
  });

  it("Ollama: the Modelfile's num_ctx from /api/show when the model is not loaded", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768, numCtx: 8192 });
    assert.equal(await windowOf("qwen2.5:0.5b"), 8192);
    const show = server.all.find((r) => r.path === "/api/show");
    assert.deepEqual(show?.body, { model: "qwen2.5:0.5b" });
  });

  it("Ollama: its documented default (4k) when nothing names the window, never the trained 32k", async () => {
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    assert.equal(await windowOf("qwen2.5:0.5b"), 4096);
  });

  it("Ollama: a name without a tag is the :latest model /api/ps lists", async () => {
    asOllama(server, "qwen2.5:latest", { trained: 32_768, loaded: 16_384 });
    server.models = [{ id: "qwen2.5", object: "model", owned_by: "library" }];
    assert.equal(await windowOf("qwen2.5"), 16_384);
  });

  it("llama.cpp: the slot's n_ctx from /props, not the n_ctx_train its model list gives", async () => {
    asLlamaCpp(server, "qwen", 2048, 32_768);
    assert.equal(await windowOf("qwen"), 2048);
  });

  it("LM Studio: a loaded model's loaded_context_length from /api/v0/models", async () => {
    asLmStudio(server, "qwen2.5-7b-instruct", 32_768, 4096);
    assert.equal(await windowOf("qwen2.5-7b-instruct"), 4096);
  });

  it("LM Studio 0.4: a loaded instance's context_length from /api/v1/models", async () => {
    asLmStudio4(server, "qwen2.5-7b-instruct", 32_768, 8192);
    assert.equal(await windowOf("qwen2.5-7b-instruct"), 8192);
  });

  it("vLLM: max_model_len, said to be what it serves", async () => {
    asVllm(server, "Qwen/Qwen2.5-7B", 8192);
    assert.equal(await windowOf("Qwen/Qwen2.5-7B"), 8192);
    const said = await servedOf(server.baseURL, "Qwen/Qwen2.5-7B", server.models[0]);
    assert.deepEqual(said, { kind: "vllm", tokens: 8192, sure: true, trained: 0, where: "/v1/models" });
  });

  it("the served window wins over a window an earlier version stored from the model list", async () => {
    asLlamaCpp(server, "qwen", 4096, 131_072);
    const facts = memoryFacts();
    facts.set(factsKey(server.baseURL, "qwen"), { window: 131_072 });
    assert.equal(await windowOf("qwen", facts), 4096);
    assert.equal(facts.get(factsKey(server.baseURL, "qwen"))?.window, 4096);
  });

  it("a cut seen earlier holds until the server says it serves more (the person applied the fix)", async () => {
    const facts = memoryFacts();
    const key = factsKey(server.baseURL, "qwen2.5:0.5b");
    facts.set(key, { window: 2048, held: 2048 });
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    assert.equal(await windowOf("qwen2.5:0.5b", facts), 2048, "Ollama's default says nothing new");
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768, loaded: 16_384 });
    assert.equal(await windowOf("qwen2.5:0.5b", facts), 16_384);
    assert.deepEqual(facts.get(key), { window: 16_384 });
  });

  it("the endpoint's key goes with the metadata requests to the same server", async () => {
    asLlamaCpp(server, "qwen", 4096, 32_768);
    await endpoint({ baseURL: server.baseURL, model: "qwen", apiKey: "sk-local" }).window!();
    const props = server.all.find((r) => r.path === "/props");
    assert.equal(props?.headers.authorization, "Bearer sk-local");
  });

  it("asks only servers on this computer or its network", () => {
    assert.equal(localRoot("http://127.0.0.1:11434/v1"), "http://127.0.0.1:11434");
    assert.equal(localRoot("http://localhost:8080/v1/"), "http://localhost:8080");
    assert.equal(localRoot("http://192.168.1.20:1234/v1"), "http://192.168.1.20:1234");
    assert.equal(localRoot("http://gpu-box:8000/v1"), "http://gpu-box:8000");
    assert.equal(localRoot("http://[::1]:11434/v1"), "http://[::1]:11434");
    assert.equal(localRoot("https://api.openai.com/v1"), undefined);
    assert.equal(localRoot("https://openrouter.ai/api/v1"), undefined);
  });
});
