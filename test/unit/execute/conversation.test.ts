/** The API's conversation as the model reads it: calls paired with results, last_k, system messages, images. */
import assert from "node:assert/strict";
import { calls, says, scripted, type Request } from "../../../src/agent";
import { execute, NO_RESULT } from "../../../src/execute";

const tool = (name: string) => ({ name, description: `the ${name} tool`, arguments: { type: "object" } });

/** The request the model was given for `messages` (and whatever else the body sets). */
async function asked(messages: unknown[], rest: Record<string, unknown> = {}): Promise<Request> {
  const model = scripted([says("ok")]);
  const out = await execute(
    { model: "gpt-4", tools: [tool("search"), tool("clock")], messages, ...rest },
    { resolve: () => model },
  );
  assert.equal(out.status, 200, JSON.stringify(out.body));
  return model.requests[0];
}

describe("execute: the conversation the model reads", () => {
  it("pairs each tool message with the oldest unanswered call of its name", async () => {
    const request = await asked([
      { role: "user", content: "Find cats, then tell the time." },
      { role: "agent", tool_request: { name: "search", arguments: '{"q":"cats"}' } },
      { role: "tool", name: "search", content: "3 cats" },
      { role: "agent", tool_request: { name: "clock", arguments: "{}" } },
      { role: "tool", name: "clock", content: "noon" },
    ]);
    assert.deepEqual(request.messages, [
      { role: "user", text: "Find cats, then tell the time." },
      { role: "assistant", text: "", calls: [{ id: "call_1", name: "search", arguments: '{"q":"cats"}' }] },
      { role: "tool", call: "call_1", name: "search", text: "3 cats" },
      { role: "assistant", text: "", calls: [{ id: "call_3", name: "clock", arguments: "{}" }] },
      { role: "tool", call: "call_3", name: "clock", text: "noon" },
    ]);
  });

  it("makes agent tool requests in a row one turn of calls, answered by name in any order", async () => {
    const request = await asked([
      { role: "user", content: "Both, please." },
      { role: "agent", tool_request: { name: "search", arguments: "{}" } },
      { role: "agent", tool_request: { name: "clock", arguments: "{}" } },
      { role: "tool", name: "clock", content: "noon" },
      { role: "tool", name: "search", content: "found" },
    ]);
    assert.deepEqual(request.messages.slice(1), [
      {
        role: "assistant",
        text: "",
        calls: [
          { id: "call_1", name: "search", arguments: "{}" },
          { id: "call_2", name: "clock", arguments: "{}" },
        ],
      },
      { role: "tool", call: "call_2", name: "clock", text: "noon" },
      { role: "tool", call: "call_1", name: "search", text: "found" },
    ]);
  });

  it("answers a call the client left unanswered, and writes the call of a tool message that answers none", async () => {
    const request = await asked([
      { role: "agent", tool_request: { name: "search", arguments: "{}" } },
      { role: "user", content: "Never mind." },
      { role: "tool", name: "clock", content: "noon" },
    ]);
    assert.deepEqual(request.messages, [
      { role: "assistant", text: "", calls: [{ id: "call_0", name: "search", arguments: "{}" }] },
      { role: "tool", call: "call_0", name: "search", text: NO_RESULT },
      { role: "user", text: "Never mind." },
      { role: "assistant", text: "", calls: [{ id: "call_2", name: "clock", arguments: "{}" }] },
      { role: "tool", call: "call_2", name: "clock", text: "noon" },
    ]);
  });

  it("keeps agent and assistant content as the assistant's text", async () => {
    const request = await asked([
      { role: "user", content: "Hi" },
      { role: "assistant", content: "Hello." },
      { role: "agent", content: "How can I help?" },
      { role: "user", content: "Bye" },
    ]);
    assert.deepEqual(request.messages, [
      { role: "user", text: "Hi" },
      { role: "assistant", text: "Hello." },
      { role: "assistant", text: "How can I help?" },
      { role: "user", text: "Bye" },
    ]);
  });

  it("joins system messages to the instructions, in order", async () => {
    const request = await asked(
      [
        { role: "system", content: "Answer in French." },
        { role: "user", content: "Hi" },
        { role: "system", content: "Be brief." },
      ],
      { instructions: "You are a helper." },
    );
    assert.equal(request.instructions, "You are a helper.\n\nAnswer in French.\n\nBe brief.");
    assert.deepEqual(request.messages, [{ role: "user", text: "Hi" }]);
  });

  it("keeps only the last k messages with last_k", async () => {
    const messages = ["one", "two", "three", "four"].map((content) => ({ role: "user", content }));
    const request = await asked(messages, { memory_strategy: { name: "last_k", params: { k: 2 } } });
    assert.deepEqual(
      request.messages.map((m) => m.text),
      ["three", "four"],
    );
    const all = await asked(messages, { memory_strategy: { params: { k: 10 } } });
    assert.equal(all.messages.length, 4);
  });

  it("gives user images as image URLs, inline data as data URLs, and joins the text parts", async () => {
    const request = await asked([
      {
        role: "user",
        content: [
          { type: "text", text: "What is in" },
          { type: "image_url", image_url: { url: "https://example.com/cat.png", detail: "low" } },
          { type: "text", text: "and in this?" },
          { type: "image_data", image_data: { media_type: "image/png", data: "iVBORw0KGgo=" } },
        ],
      },
    ]);
    assert.deepEqual(request.messages, [
      {
        role: "user",
        text: "What is in\nand in this?",
        images: ["https://example.com/cat.png", "data:image/png;base64,iVBORw0KGgo="],
      },
    ]);
  });

  it("offers the tools as functions, keeping JSON Schema keys the document does not name", async () => {
    const model = scripted([calls([["search", '{"q":"x"}']])]);
    await execute(
      {
        model: "gpt-4",
        messages: [{ role: "user", content: "go" }],
        tools: [
          {
            name: "search",
            description: "Search the web",
            arguments: {
              type: "object",
              properties: {
                q: { type: "string", description: "the query", examples: ["cats"] },
                tags: { type: "array", description: "tags", items: { type: "string" }, default: null },
              },
              required: ["q"],
              additionalProperties: false,
            },
          },
        ],
      },
      { resolve: () => model },
    );
    assert.deepEqual(model.requests[0].tools, [
      {
        type: "function",
        function: {
          name: "search",
          description: "Search the web",
          parameters: {
            type: "object",
            properties: {
              q: { type: "string", description: "the query", examples: ["cats"] },
              tags: { type: "array", description: "tags", items: { type: "string" } },
            },
            required: ["q"],
            additionalProperties: false,
          },
        },
      },
    ]);
    assert.equal(model.requests[0].answer, false);
  });

  it("passes every model parameter, topP/topK in either spelling", async () => {
    const request = await asked([{ role: "user", content: "x" }], {
      model_parameters: {
        temperature: 0.7,
        max_tokens: 100,
        stop_sequences: ["END"],
        top_p: 0.9,
        top_k: 40,
        frequency_penalty: 0.5,
        presence_penalty: -0.5,
        reasoning_effort: "low",
      },
    });
    assert.deepEqual(request.parameters, {
      temperature: 0.7,
      maxTokens: 100,
      stop: ["END"],
      topP: 0.9,
      topK: 40,
      frequencyPenalty: 0.5,
      presencePenalty: -0.5,
      reasoningEffort: "low",
    });
    const camel = await asked([{ role: "user", content: "x" }], { model_parameters: { topP: 0.5, topK: 3 } });
    assert.deepEqual(camel.parameters, { temperature: 0.2, topP: 0.5, topK: 3 });
  });
});
