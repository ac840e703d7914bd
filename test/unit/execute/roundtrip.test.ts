/**
 * Whole round trips through the HTTP server: a scripted model, then the real `openai` SDK (the core's
 * endpoint) against the local fixture server that speaks the streaming protocol.
 */
import assert from "node:assert/strict";
import { calls, endpoint, says, scripted, type Model } from "../../../src/agent";
import {
  DEFAULT_INSTRUCTIONS,
  EXECUTE_PATH,
  ExecuteAgentResponse,
  serveExecute,
  type ExecuteServer,
} from "../../../src/execute";
import {
  answer,
  calling,
  finish,
  httpError,
  openaiServer,
  stall,
  text,
  toolCall,
  type FixtureServer,
} from "../../fixtures/openai-server";

const KEY = "round-trip-key";

const weather = {
  name: "get_weather",
  description: "The current weather in a city",
  arguments: {
    type: "object",
    properties: { city: { type: "string", description: "The city's name" } },
    required: ["city"],
  },
};

type Json = Record<string, unknown>;

/** A request of one user message with CONTENT to "gpt-4", offering TOOLS (the weather tool by default). */
const question = (content: string, tools: Json[] = [weather]): Json => ({
  model: "gpt-4",
  tools,
  messages: [{ role: "user", content }],
});

async function call(server: ExecuteServer, body: Json): Promise<{ status: number; body: Json }> {
  const res = await fetch(`${server.url}${EXECUTE_PATH}`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${KEY}` },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Json };
}

// The client's side of the loop: it keeps the history and runs the tool the agent asks for.
async function converse(
  server: ExecuteServer,
  question: string,
): Promise<{ answer: string; history: Json[] }> {
  const history: Json[] = [{ role: "user", content: question }];
  for (let step = 0; step < 4; step++) {
    const { status, body } = await call(server, { model: "gpt-4", tools: [weather], messages: history });
    assert.equal(status, 200, JSON.stringify(body));
    const response = ExecuteAgentResponse.parse(body);
    if (response.action === "content") return { answer: response.context.content ?? "", history };
    const request = response.context.tool_request;
    assert.ok(request);
    const { city } = JSON.parse(request.arguments) as { city: string };
    history.push({ role: "agent", tool_request: request });
    history.push({ role: "tool", name: request.name, content: `${city}: 21°C, sunny` });
  }
  throw new Error("the agent never answered");
}

describe("execute: round trips with a scripted model", () => {
  let server: ExecuteServer;
  let model: ReturnType<typeof scripted>;
  let turns: Parameters<typeof scripted>[0];

  beforeEach(async () => {
    turns = [];
    model = scripted(turns);
    server = await serveExecute({ key: KEY, config: { resolve: () => model } });
  });

  afterEach(() => server.close());

  it("answers with content", async () => {
    turns.push(says("It is sunny in Paris."));
    const { status, body } = await call(server, question("Weather?"));
    assert.equal(status, 200);
    assert.deepEqual(body, {
      action: "content",
      context: { content: "It is sunny in Paris.", tool_request: null },
    });
  });

  it("asks for a tool with its arguments as a JSON string", async () => {
    turns.push(calls([["get_weather", '{"city":"Paris"}']]));
    const { body } = await call(server, question("Weather?"));
    assert.deepEqual(body, {
      action: "tool_request",
      context: { content: null, tool_request: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    });
  });

  it("goes round the client's loop: tool request, the client's result, then content", async () => {
    turns.push(calls([["get_weather", '{"city":"Lyon"}']]), (request) =>
      says(`Lyon is ${request.messages.at(-1)?.text.split(": ")[1]}.`),
    );
    const { answer: said, history } = await converse(server, "What is the weather in Lyon?");
    assert.equal(said, "Lyon is 21°C, sunny.");
    assert.equal(history.length, 3);
    assert.deepEqual(model.requests[1].messages.slice(1), [
      {
        role: "assistant",
        text: "",
        calls: [{ id: "call_1", name: "get_weather", arguments: '{"city":"Lyon"}' }],
      },
      { role: "tool", call: "call_1", name: "get_weather", text: "Lyon: 21°C, sunny" },
    ]);
  });
});

describe("execute: round trips with the openai SDK against the fixture server", () => {
  let fixture: FixtureServer;
  let server: ExecuteServer;
  let model: Model;

  beforeEach(async () => {
    fixture = await openaiServer();
    model = endpoint({ baseURL: fixture.baseURL, apiKey: "fixture-key", model: "fixture-model", window: 0 });
    server = await serveExecute({
      key: KEY,
      config: {
        models: { "gpt-4": "fixture-model" },
        resolve: (id) => (id === "fixture-model" ? model : undefined),
      },
    });
  });

  afterEach(async () => {
    await server.close();
    await fixture.close();
  });

  const sent = (index = 0) => fixture.requests[index].body;

  it("answers with content, having sent the instructions, the tools and temperature 0.2", async () => {
    fixture.script(answer("Sunny in Paris."));
    const { status, body } = await call(server, question("Weather?"));
    assert.equal(status, 200);
    assert.deepEqual(body, {
      action: "content",
      context: { content: "Sunny in Paris.", tool_request: null },
    });
    assert.equal(sent().model, "fixture-model");
    assert.equal(sent().temperature, 0.2);
    assert.deepEqual(sent().messages, [
      { role: "system", content: DEFAULT_INSTRUCTIONS },
      { role: "user", content: "Weather?" },
    ]);
    assert.deepEqual(sent().tools, [
      {
        type: "function",
        function: {
          name: "get_weather",
          description: "The current weather in a city",
          parameters: {
            type: "object",
            properties: { city: { type: "string", description: "The city's name" } },
            required: ["city"],
          },
        },
      },
    ]);
  });

  it("asks for a tool with the streamed arguments joined into one JSON string", async () => {
    fixture.script(calling([["call_x", "get_weather", '{"city": "São Paulo"}']], 3));
    const { body } = await call(server, question("Weather?"));
    assert.deepEqual(body, {
      action: "tool_request",
      context: { content: null, tool_request: { name: "get_weather", arguments: '{"city": "São Paulo"}' } },
    });
  });

  it("answers a call cut off at the model's output limit with 502, not half its JSON", async () => {
    fixture.script({
      events: [...toolCall(0, "call_x", "get_weather", '{"city": "São Pa', 4), finish("length")],
    });
    const { status, body } = await call(server, question("Weather?"));
    assert.equal(status, 502);
    assert.equal(
      body.detail,
      "The model's answer was cut off at its output limit while it wrote a call of get_weather: raise the model's max tokens or ask for less at once.",
    );
    // Content cut off is still the model's answer: the API has no field to say more.
    fixture.script({ events: [...text("Half of it", 3), finish("length")] });
    assert.deepEqual((await call(server, question("Weather?"))).body, {
      action: "content",
      context: { content: "Half of it", tool_request: null },
    });
  });

  it("goes round the client's loop, the tool result sent back paired with its call", async () => {
    fixture.script(calling([["call_x", "get_weather", '{"city":"Oslo"}']]), answer("Oslo is sunny, 21°C."));
    const { answer: said } = await converse(server, "Weather in Oslo?");
    assert.equal(said, "Oslo is sunny, 21°C.");
    const messages = sent(1).messages as Json[];
    assert.deepEqual(messages.slice(1), [
      { role: "user", content: "Weather in Oslo?" },
      {
        role: "assistant",
        content: null,
        tool_calls: [
          { id: "call_1", type: "function", function: { name: "get_weather", arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: "tool", tool_call_id: "call_1", content: "Oslo: 21°C, sunny" },
    ]);
  });

  it("cuts the history to the last k messages", async () => {
    fixture.script(answer("ok"));
    const messages = ["one", "two", "three", "four", "five"].map((content) => ({ role: "user", content }));
    await call(server, {
      model: "gpt-4",
      tools: [],
      messages,
      memory_strategy: { name: "last_k", params: { k: 2 } },
    });
    assert.deepEqual(sent().messages, [
      { role: "system", content: DEFAULT_INSTRUCTIONS },
      { role: "user", content: "four" },
      { role: "user", content: "five" },
    ]);
  });

  it("sends the images of user content parts to the model as image parts", async () => {
    fixture.script(answer("A cat and a dot."));
    const { status } = await call(server, {
      model: "gpt-4",
      tools: [],
      messages: [
        {
          role: "user",
          content: [
            { type: "text", text: "What are these?" },
            { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
            {
              type: "image_data",
              image_data: { type: "base64", media_type: "image/png", data: "iVBORw0KGgo=" },
            },
          ],
        },
      ],
    });
    assert.equal(status, 200);
    assert.deepEqual((sent().messages as Json[])[1], {
      role: "user",
      content: [
        { type: "text", text: "What are these?" },
        { type: "image_url", image_url: { url: "https://example.com/cat.jpg" } },
        { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw0KGgo=" } },
      ],
    });
  });

  it("passes the model parameters, top_k as an extra body field", async () => {
    fixture.script(answer("ok"));
    await call(server, {
      ...question("x", []),
      model_parameters: {
        temperature: 0.9,
        max_tokens: 64,
        stop_sequences: ["END"],
        topP: 0.8,
        topK: 20,
        frequency_penalty: 0.1,
      },
    });
    const body = sent();
    assert.deepEqual(
      [body.temperature, body.max_tokens, body.stop, body.top_p, body.top_k, body.frequency_penalty],
      [0.9, 64, ["END"], 0.8, 20, 0.1],
    );
  });

  it("answers the endpoint's refusal with 502 and the endpoint's message", async () => {
    fixture.script(httpError(400, "this model does not exist"));
    const { status, body } = await call(server, question("x", []));
    assert.equal(status, 502);
    assert.match(String(body.detail), /^The model failed: .*this model does not exist/);
    assert.doesNotMatch(String(body.detail), /\n|\bat .*\.ts:\d+/);
  });

  it("stops the model's turn when the client goes away", async () => {
    let asked!: () => void;
    const received = new Promise<void>((resolve) => (asked = resolve));
    fixture.script(() => {
      asked();
      return { events: [stall()] };
    });
    const client = new AbortController();
    const pending = fetch(`${server.url}${EXECUTE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: JSON.stringify(question("x", [])),
      signal: client.signal,
    });
    await received;
    client.abort();
    await assert.rejects(pending);
    await fixture.closes();
    assert.equal(fixture.closed, 1);
  });

  it("answers a turn under way with 503 when the server closes", async () => {
    let asked!: () => void;
    const received = new Promise<void>((resolve) => (asked = resolve));
    fixture.script(() => {
      asked();
      return { events: [stall()] };
    });
    const pending = call(server, question("x", []));
    await received;
    await server.close();
    assert.deepEqual(await pending, { status: 503, body: { detail: "The request was cancelled." } });
  });
});
