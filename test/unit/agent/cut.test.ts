import assert from "node:assert/strict";
import { agent, run } from "../../../src/agent";
import { condensingOf } from "../../../src/agent/condense-turn";
import { cutNotice, type Cut } from "../../../src/agent/cut";
import { endpoint } from "../../../src/agent/endpoint";
import { factsKey, memoryFacts } from "../../../src/agent/facts";
import type { Request } from "../../../src/agent/types";
import { asOllama } from "../../fixtures/model-servers";
import {
  answer,
  openaiServer,
  promptTokens,
  type FixtureServer,
  type Reply,
} from "../../fixtures/openai-server";

/** An answer that reports the prompt tokens the server counted of the request (a cutting server caps them). */
const counted =
  (text: string): Reply =>
  (request) =>
    answer(text, { prompt: promptTokens(request.body), completion: 3 });

/** A request whose message is about `tokens` tokens. */
function asking(tokens: number): Request {
  return {
    instructions: "Answer briefly.",
    messages: [{ role: "user", text: "word ".repeat(Math.round((tokens * 4) / 5)) }],
    tools: [],
    answer: false,
  };
}

describe("agent: a prompt the server cut without a word", () => {
  let server: FixtureServer;
  beforeEach(async () => (server = await openaiServer()));
  afterEach(() => server.close());

  it("is noticed from the count the server reports; the window becomes what it held, for this model and the next", async () => {
    server.models = [{ id: "m", object: "model" }];
    server.cut = 4096;
    server.script(counted("Short."));
    const facts = memoryFacts();
    const model = endpoint({ baseURL: server.baseURL, model: "m", facts });
    const turn = await model.turn(asking(7000), () => true);
    assert.equal(server.truncated, 1);
    assert.equal(turn.input, 4096, "the server reported what it kept");
    assert.equal(turn.cut?.held, 4096);
    assert.ok(turn.cut!.sent > 6500, `Tandem's count of what it sent: ${turn.cut?.sent}`);
    assert.equal(turn.window, 4096);
    assert.equal(await model.window!(), 4096);
    assert.deepEqual(facts.get(factsKey(server.baseURL, "m")), { window: 4096, held: 4096 });
    // A later run makes a new model object for the same endpoint: it fits the held window at once.
    assert.equal(await endpoint({ baseURL: server.baseURL, model: "m", facts }).window!(), 4096);
  });

  it("a prompt read whole, or counted a little differently, is no cut", async () => {
    server.models = [{ id: "m", object: "model", context_length: 32_768 }];
    server.script((request) => answer("Whole.", { prompt: Math.round(promptTokens(request.body) * 0.85) }));
    const model = endpoint({ baseURL: server.baseURL, model: "m" });
    const turn = await model.turn(asking(6000), () => true);
    assert.equal(turn.cut, undefined);
    assert.equal(turn.window, 32_768);
  });

  it("on Ollama, the notice names OLLAMA_CONTEXT_LENGTH and num_ctx", async () => {
    // An older Ollama serves 2k by default; Tandem assumes the documented 4k until it sees the cut.
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    server.cut = 2048;
    server.script(counted("Short."));
    const model = endpoint({ baseURL: server.baseURL, model: "qwen2.5:0.5b" });
    assert.equal(await model.window!(), 4096);
    const turn = await model.turn(asking(3000), () => true);
    assert.deepEqual({ ...turn.cut, sent: 0 }, { sent: 0, held: 2048, kind: "ollama", trained: 32_768 });
    const notice = cutNotice(turn.cut as Cut);
    assert.ok(notice.includes("the model read 2,048"), notice);
    assert.ok(notice.includes("OLLAMA_CONTEXT_LENGTH=16384"), notice);
    assert.ok(
      notice.includes("PARAMETER num_ctx 16384") && notice.includes("/set parameter num_ctx 16384"),
      notice,
    );
  });

  it("in a run, the rounds after the cut fit what the server held, and condensing is told", async () => {
    server.models = [{ id: "m", object: "model" }];
    server.cut = 2048;
    const model = endpoint({ baseURL: server.baseURL, model: "m" });
    const a = agent(model, "Answer briefly.");
    const cuts: Cut[] = [];
    condensingOf(a).cut = (cut) => cuts.push(cut);
    server.script(
      counted("First."),
      counted("Second."),
      counted("Summary of the earlier turns."),
      counted("Third."),
    );
    await run(a, "word ".repeat(3000));
    assert.equal(cuts.length, 1);
    assert.equal(a.window, 2048);
    await run(a, "And now?");
    const last = server.requests.at(-1)!;
    assert.ok(promptTokens(last.body) <= 2048, `the next request fits: ${promptTokens(last.body)}`);
    assert.equal(server.truncated, 1);
  });

  it("a refusal in llama.cpp's words is met by fitting the window it names", async () => {
    server.models = [{ id: "m", object: "model" }];
    server.window = 2048;
    server.refusal = "llamacpp";
    server.script(counted("Summary."), counted("Fitted."));
    const a = agent(endpoint({ baseURL: server.baseURL, model: "m" }), "Answer briefly.");
    a.history = Array.from({ length: 12 }, (_, i) => [
      { role: "user" as const, text: `Question ${i}: ${"detail ".repeat(120)}` },
      { role: "assistant" as const, text: `Answer ${i}: ${"reply ".repeat(100)}` },
    ]).flat();
    const out = await run(a, "One more?");
    assert.equal(out, "Fitted.");
    assert.equal(server.overflowed, 1);
    assert.equal(a.window, 2048);
  });
});
