import assert from "node:assert/strict";
import { APIError } from "openai";
import { z } from "zod";
import {
  agent,
  endpoint,
  memoryFacts,
  openaiReasoning,
  run,
  takesTopK,
  tool,
  type Facts,
  type Parameters,
} from "../../../src/agent";
import { refusedFields } from "../../../src/agent/failure";
import { body } from "../../../src/agent/wire";
import { answer, calling, openaiServer, type FixtureServer } from "../../fixtures/openai-server";
import { fast } from "./helpers";

const ALL: Parameters = { temperature: 0.2, topP: 0.9, stop: ["END"], maxTokens: 100, topK: 40 };

describe("agent: parameters per model family", () => {
  let server: FixtureServer;
  let facts: Facts;
  beforeEach(async () => {
    server = await openaiServer();
    facts = memoryFacts();
  });
  afterEach(() => server.close());
  const model = (id: string) => endpoint({ baseURL: server.baseURL, apiKey: "k", model: id, facts, ...fast });

  it("knows OpenAI's reasoning models by their ids, with or without a provider's prefix", () => {
    for (const id of [
      "o1",
      "o1-mini",
      "o3",
      "o3-mini-2025-01-31",
      "o4-mini",
      "gpt-5",
      "gpt-5-mini",
      "gpt-5.1",
      "openai/o3",
      "openai/gpt-5-codex",
    ])
      assert.ok(openaiReasoning(id), id);
    for (const id of ["gpt-4o", "gpt-4.1-mini", "olmo-2", "qwen3-32b", "openai/gpt-oss-120b", "o", "gpt-50"])
      assert.ok(!openaiReasoning(id), id);
  });

  for (const id of ["o3-mini", "openai/gpt-5-mini"]) {
    it(`${id} gets no temperature, top_p or stop, and max_completion_tokens: one request, accepted`, async () => {
      server.refuseFields = ["temperature", "top_p", "stop", "max_tokens", "top_k"];
      server.script(answer("ok"));
      const a = agent(model(id));
      a.parameters = { ...ALL, topK: undefined };
      assert.equal(await run(a, "go"), "ok");
      assert.equal(server.requests.length, 1);
      const sent = server.requests[0].body;
      assert.deepEqual(
        [sent.temperature, sent.top_p, sent.stop, sent.max_tokens, sent.max_completion_tokens],
        [undefined, undefined, undefined, undefined, 100],
      );
    });
  }

  it("another model keeps them all, with top_k for a server that takes it", async () => {
    server.script(answer("ok"));
    const a = agent(model("qwen3-32b"));
    a.parameters = ALL;
    await run(a, "go");
    const sent = server.requests[0].body;
    assert.deepEqual(
      [sent.temperature, sent.top_p, sent.stop, sent.max_tokens, sent.top_k],
      [0.2, 0.9, ["END"], 100, 40],
    );
  });

  it("top_k is not sent to OpenAI's API or Azure OpenAI; OpenRouter, vLLM and llama.cpp take it", () => {
    assert.ok(!takesTopK("https://api.openai.com/v1"));
    assert.ok(!takesTopK("https://me.openai.azure.com/openai/v1"));
    for (const url of [
      "https://openrouter.ai/api/v1",
      "http://localhost:8000/v1",
      "http://127.0.0.1:8080/v1",
    ])
      assert.ok(takesTopK(url), url);
    const request = { instructions: "", messages: [], tools: [], answer: false, parameters: ALL };
    const openai = body(request, "gpt-4o", { textTools: false, baseURL: "https://api.openai.com/v1" });
    assert.equal(openai.top_k, undefined);
    const router = body(request, "x/y", { textTools: false, baseURL: "https://openrouter.ai/api/v1" });
    assert.equal(router.top_k, 40);
  });

  it("a field refused with OpenAI's error is learned once: the retry and the next run leave it out", async () => {
    server.refuseFields = ["top_k", "max_tokens"];
    server.script(answer("one"), answer("two"));
    const first = agent(model("custom"));
    first.parameters = ALL;
    assert.equal(await run(first, "go"), "one");
    assert.equal(server.requests.length, 3, "refused for top_k, refused for max_tokens, accepted");
    assert.equal(server.requests[2].body.max_completion_tokens, 100);
    const second = agent(model("custom"));
    second.parameters = ALL;
    assert.equal(await run(second, "again"), "two");
    assert.equal(server.requests.length, 4, "the next run sends what is taken from the start");
  });
});

describe("agent: learned facts are kept", () => {
  let server: FixtureServer;
  beforeEach(async () => (server = await openaiServer()));
  afterEach(() => server.close());

  it("a second run against an endpoint that refuses native tools sends no refused request", async () => {
    server.rejectTools = true;
    const echo = tool("echo", "Echo.", z.object({}), () => "echoed", { readOnly: true });
    // As the editor keeps them: written through JSON, so a restart reads the same.
    const kept = new Map<string, string>();
    const facts: Facts = {
      get: (key) => (kept.has(key) ? JSON.parse(kept.get(key)!) : undefined),
      set: (key, learned) => void kept.set(key, JSON.stringify(learned)),
    };
    const fresh = () => endpoint({ baseURL: server.baseURL, apiKey: "k", model: "m", facts, ...fast });
    server.script(answer("one"), answer("two"));
    assert.equal(await run(agent(fresh(), "", [echo]), "go"), "one");
    assert.equal(server.requests.length, 2, "refused once, then tools in the instructions");
    assert.equal(await run(agent(fresh(), "", [echo]), "again"), "two");
    assert.equal(server.requests.length, 3);
    assert.equal(server.requests[2].body.tools, undefined, "no tools field: nothing refused");
    assert.deepEqual(JSON.parse(kept.get(`${server.baseURL} m`)!), { textTools: true });
  });

  it("calls go on natively while nothing was refused", async () => {
    const echo = tool("echo", "Echo.", z.object({}), () => "echoed", { readOnly: true });
    server.script(calling([["c1", "echo", "{}"]]), answer("done"));
    const facts = memoryFacts();
    await run(agent(endpoint({ baseURL: server.baseURL, model: "m", facts, ...fast }), "", [echo]), "go");
    assert.ok(Array.isArray(server.requests[1].body.tools));
    assert.equal(facts.get(`${server.baseURL} m`), undefined);
  });
});

describe("agent: what a refusal teaches", () => {
  const refusal = (message: string, param: string | null = null) =>
    refusedFields(APIError.generate(400, { message, param }, message, new Headers()));

  it("reads the providers' own words", () => {
    assert.deepEqual(
      refusal(
        "thinking is enabled but reasoning_content is missing in assistant tool call message at index 2",
      ),
      {
        reasoning: "reasoning_content",
      },
    );
    assert.deepEqual(
      refusal("Missing `reasoning_content` field in the assistant message at message index 2."),
      {
        reasoning: "reasoning_content",
      },
    );
    assert.deepEqual(refusal("The reasoning field is required for assistant messages with tool calls"), {
      reasoning: "reasoning",
    });
    assert.deepEqual(
      refusal(
        "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
        "max_tokens",
      ),
      { limit: "max_completion_tokens" },
    );
    assert.deepEqual(
      refusal(
        "Unsupported value: 'temperature' does not support 0.2 with this model. Only the default (1) value is supported.",
        "temperature",
      ),
      { refused: ["temperature"] },
    );
    assert.deepEqual(refusal("Unrecognized request argument supplied: top_k"), { refused: ["top_k"] });
    // Not a field Tandem may leave out, or not a refusal of a field at all: the person reads it.
    assert.equal(refusal("Unsupported parameter: 'messages' is broken"), undefined);
    assert.equal(refusal("model m does not support tools"), undefined);
  });
});
