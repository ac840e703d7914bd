/** The spec: "Temperature is ignored for OpenAI reasoning models" — through the real SDK to a server that refuses it. */
import assert from "node:assert/strict";
import { endpoint, memoryFacts } from "../../../src/agent";
import { execute } from "../../../src/execute";
import { answer, openaiServer, type FixtureServer } from "../../fixtures/openai-server";

describe("execute: OpenAI reasoning models", () => {
  let fixture: FixtureServer;
  beforeEach(async () => (fixture = await openaiServer()));
  afterEach(() => fixture.close());

  it("ignores temperature and stop for o3-mini and sends max_tokens as max_completion_tokens", async () => {
    // As OpenAI answers for its reasoning models: each of these is a 400 (a 502 to the client).
    fixture.refuseFields = ["temperature", "stop", "max_tokens"];
    fixture.script(answer("Sunny."));
    const model = endpoint({ baseURL: fixture.baseURL, model: "o3-mini", window: 0, facts: memoryFacts() });
    const out = await execute(
      {
        model: "gpt-4",
        tools: [],
        messages: [{ role: "user", content: "Weather?" }],
        model_parameters: { temperature: 0.2, max_tokens: 50, stop_sequences: ["END"] },
      },
      { models: { "gpt-4": "mine" }, resolve: (id) => (id === "mine" ? model : undefined) },
    );
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(out.body, { action: "content", context: { content: "Sunny.", tool_request: null } });
    assert.equal(fixture.requests.length, 1);
    const sent = fixture.requests[0].body;
    assert.deepEqual(
      [sent.temperature, sent.stop, sent.max_tokens, sent.max_completion_tokens],
      [undefined, undefined, undefined, 50],
    );
  });

  it("the default temperature 0.2 still goes to other models", async () => {
    fixture.script(answer("Sunny."));
    const model = endpoint({ baseURL: fixture.baseURL, model: "gpt-4o", window: 0, facts: memoryFacts() });
    const out = await execute(
      { model: "gpt-4", tools: [], messages: [{ role: "user", content: "Weather?" }] },
      { models: { "gpt-4": "mine" }, resolve: () => model },
    );
    assert.equal(out.status, 200);
    assert.equal(fixture.requests[0].body.temperature, 0.2);
  });

  it("applies the stop sequences it could not send: the content ends before the first", async () => {
    fixture.refuseFields = ["stop"];
    fixture.script(answer("Sunny. END Then rain.", { size: 2 }));
    const model = endpoint({ baseURL: fixture.baseURL, model: "o3-mini", window: 0, facts: memoryFacts() });
    const out = await execute(
      {
        model: "gpt-4",
        tools: [],
        messages: [{ role: "user", content: "Weather?" }],
        model_parameters: { stop_sequences: ["END"] },
      },
      { models: { "gpt-4": "mine" }, resolve: () => model },
    );
    assert.equal(out.status, 200, JSON.stringify(out.body));
    assert.deepEqual(out.body, { action: "content", context: { content: "Sunny. ", tool_request: null } });
  });
});
