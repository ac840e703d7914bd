import assert from "node:assert/strict";
import OpenAI from "openai";
import { z } from "zod";
import { agent, DECLINED, endpoint, run, served, tool, windowIn, type Model } from "../../../src/agent";
import {
  answer,
  calling,
  finish,
  reasoning,
  text,
  toolCall,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, joined, servedModel } from "./helpers";

describe("agent: endpoint over the openai SDK", () => {
  let server: FixtureServer;
  let model: Model;
  beforeEach(async () => ({ server, model } = await servedModel()));
  afterEach(() => server.close());

  it("streams text with stream_options.include_usage and counts the usage", async () => {
    server.script(answer("Hello there, person.", { prompt: 42, completion: 7 }));
    const a = agent(model, "Be kind.");
    const { answer: out, pieces } = await collect(a, "hi");
    assert.equal(out, "Hello there, person.");
    assert.ok(pieces.filter((p) => p.kind === "text").length > 1);
    const body = server.requests[0].body;
    assert.equal(body.model, "m1");
    assert.equal(body.stream, true);
    assert.deepEqual(body.stream_options, { include_usage: true });
    assert.deepEqual(body.messages, [
      { role: "system", content: "Be kind." },
      { role: "user", content: "hi" },
    ]);
    assert.equal(server.requests[0].headers.authorization, "Bearer k");
    assert.deepEqual([a.tokens, a.input, a.context], [7, 42, 49]);
  });

  for (const dialect of ["reasoning_content", "reasoning", "details", "think"] as const) {
    it(`turns ${dialect} into reasoning pieces, never into the answer`, async () => {
      server.script({
        events: [...reasoning("Let me think about it.", dialect, 3), ...text("Yes.", 2), finish()],
      });
      const { answer: out, pieces } = await collect(agent(model), "q");
      assert.equal(out, "Yes.");
      assert.equal(joined(pieces, "reasoning"), "Let me think about it.");
      assert.equal(joined(pieces, "text"), "Yes.");
    });
  }

  it("reads <think> split anywhere across chunks, with the blank lines after it dropped", async () => {
    const whole = "<think>plan: a<b</think>\n\nThe answer <is> 4.";
    for (const size of [1, 2, 5]) {
      server.script({ events: [...text(whole, size), finish()] });
      const { answer: out, pieces } = await collect(agent(model), "q");
      assert.equal(out, "The answer <is> 4.", `size ${size}`);
      assert.equal(joined(pieces, "reasoning"), "plan: a<b");
    }
  });

  it("keeps reasoning_details on the assistant message and sends them back on the next turn", async () => {
    const echo = tool("echo", "Echo.", z.object({ t: z.string() }), ({ t }) => t, { readOnly: true });
    server.script(
      {
        events: [
          ...reasoning("step one", "details", 4),
          ...toolCall(0, "c1", "echo", '{"t":"x"}', 3),
          finish("tool_calls"),
        ],
      },
      answer("done"),
    );
    const a = agent(model, "", [echo]);
    await run(a, "go");
    const assistant = a.history[1];
    assert.equal(assistant.role === "assistant" && assistant.reasoning, "step one");
    const details = [{ type: "reasoning.text", text: "step one", format: "fixture-v1", index: 0 }];
    assert.deepEqual(assistant.role === "assistant" && assistant.details, details);
    const sent = (server.requests[1].body.messages as Record<string, unknown>[])[1];
    assert.deepEqual(sent.reasoning_details, details);
    assert.deepEqual(sent.tool_calls, [
      { id: "c1", type: "function", function: { name: "echo", arguments: '{"t":"x"}' } },
    ]);
    assert.deepEqual((server.requests[1].body.messages as unknown[])[2], {
      role: "tool",
      tool_call_id: "c1",
      content: "x",
    });
  });

  it("reassembles 3 parallel calls with interleaved indices and arguments split anywhere", async () => {
    const seen: string[] = [];
    const note = tool(
      "note",
      "Notes.",
      z.object({ n: z.number(), s: z.string() }),
      ({ n, s }) => {
        seen.push(`${n}:${s}`);
        return `ok ${n}`;
      },
      { readOnly: true },
    );
    server.script(
      calling(
        [
          ["a", "note", '{"n":1,"s":"é,}{"}'],
          ["b", "note", '{"n":2,"s":"two"}'],
          ["c", "note", '{"n":3,"s":"3"}'],
        ],
        1,
      ),
      answer("all noted"),
    );
    const { answer: out, pieces } = await collect(agent(model, "", [note]), "go");
    assert.equal(out, "all noted");
    assert.deepEqual(seen.sort(), ["1:é,}{", "2:two", "3:3"]);
    const called = pieces.flatMap((p) => (p.kind === "call" ? [p.call] : []));
    assert.deepEqual(
      called.map((c) => c.id),
      ["a", "b", "c"],
    );
    const results = (
      server.requests[1].body.messages as { role: string; tool_call_id?: string; content: string }[]
    )
      .filter((m) => m.role === "tool")
      .map((m) => [m.tool_call_id, m.content]);
    assert.deepEqual(results, [
      ["a", "ok 1"],
      ["b", "ok 2"],
      ["c", "ok 3"],
    ]);
  });

  it("maps parameters to the request, top_k as an extra field, and tool_choice none on the answering turn", async () => {
    server.script(answer("ok"));
    const a = agent(model);
    a.parameters = {
      temperature: 0.2,
      maxTokens: 100,
      stop: ["END"],
      topP: 0.9,
      topK: 40,
      frequencyPenalty: 0.1,
      presencePenalty: 0.3,
      reasoningEffort: "low",
    };
    await run(a, "hi");
    const body = server.requests[0].body;
    assert.deepEqual(
      [
        body.temperature,
        body.max_tokens,
        body.stop,
        body.top_p,
        body.top_k,
        body.frequency_penalty,
        body.presence_penalty,
        body.reasoning_effort,
      ],
      [0.2, 100, ["END"], 0.9, 40, 0.1, 0.3, "low"],
    );
    assert.equal(body.tool_choice, undefined);
    const echo = tool("echo", "Echo.", z.object({}), () => "e", { readOnly: true });
    server.script(calling([["c", "echo", "{}"]]), answer("limited"));
    const b = agent(model, "", [echo]);
    b.rounds = 1;
    assert.equal(await run(b, "go"), "limited");
    assert.equal(server.requests[1].body.tool_choice, undefined);
    assert.equal(server.requests[2].body.tool_choice, "none");
  });

  it("falls back to tools in the instructions when the endpoint rejects `tools`, and reads calls from text", async () => {
    server.rejectTools = true;
    const echo = tool("echo", "Echo.", z.object({ t: z.string() }), ({ t }) => `echo ${t}`, {
      readOnly: true,
    });
    server.script(
      {
        events: [
          ...text('Sure. <tool_call>\n{"name": "echo", "arguments": {"t": "hi"}}\n</tool_call>', 5),
          finish(),
        ],
      },
      answer("It said echo hi."),
    );
    const { answer: out, pieces } = await collect(agent(model, "Base.", [echo]), "go");
    assert.equal(out, "It said echo hi.");
    assert.equal(joined(pieces, "text"), "Sure. It said echo hi.");
    assert.ok(pieces.some((p) => p.kind === "result" && p.text === "echo hi"));
    assert.equal(server.requests.length, 3, "one refused, then two in text mode");
    const second = server.requests[2].body;
    assert.equal(second.tools, undefined);
    const messages = second.messages as { role: string; content: string }[];
    assert.match(messages[0].content, /^Base\.\n\nYou can call tools[\s\S]*- echo: Echo\./);
    assert.match(
      messages[2].content,
      /<tool_call>\n\{"name":"echo","arguments":\{"t":"hi"\}\}\n<\/tool_call>/,
    );
    assert.deepEqual(messages[3], {
      role: "user",
      content: '<tool_response name="echo">\necho hi\n</tool_response>',
    });
  });

  it("reads a call a model writes as a whole JSON answer with native tools offered", async () => {
    const echo = tool("echo", "Echo.", z.object({ t: z.string() }), ({ t }) => t.toUpperCase(), {
      readOnly: true,
    });
    server.script(
      { events: [...text('{"name": "echo", "arguments": {"t": "yo"}}', 6), finish()] },
      answer("YO it is"),
    );
    const { answer: out, pieces } = await collect(agent(model, "", [echo]), "go");
    assert.equal(out, "YO it is");
    assert.ok(pieces.some((p) => p.kind === "result" && p.text === "YO"));
  });

  it("reads the window from GET /models once, and defaults from AI_URL, AI_API_KEY, AI_MODEL", async () => {
    server.models = [
      { id: "other", object: "model", created: 0, owned_by: "x", max_model_len: 1 },
      { id: "m2", object: "model", created: 0, owned_by: "x", max_model_len: 32768 },
    ];
    const saved = { ...process.env };
    Object.assign(process.env, { AI_URL: server.baseURL, AI_API_KEY: "env-key", AI_MODEL: "m2" });
    try {
      const m = endpoint({ retry: { baseMs: 1 } });
      assert.equal(m.name, "m2");
      server.script(answer("a"), answer("b"));
      const a = agent(m);
      await run(a, "1");
      await run(a, "2");
      assert.equal(a.window, 32768);
      assert.equal(server.all.filter((r) => r.path === "/v1/models").length, 1);
      assert.equal(server.requests[0].headers.authorization, "Bearer env-key");
      delete process.env.AI_URL;
      delete process.env.AI_MODEL;
      assert.throws(() => endpoint(), /No model is set for https:\/\/openrouter\.ai\/api\/v1/);
    } finally {
      process.env = saved;
    }
  });

  it("declines a call the person refuses: the model reads DECLINED and answers", async () => {
    let ran = false;
    const remove = tool("remove", "Deletes a file.", z.object({ path: z.string() }), () => {
      ran = true;
      return "deleted";
    });
    server.script(calling([["d1", "remove", '{"path":"a.txt"}']]), answer("I did not delete it."));
    const a = agent(model, "", [remove]);
    const asked: string[] = [];
    a.approve = (call) => {
      asked.push(call.arguments);
      return false;
    };
    const { answer: out, pieces } = await collect(a, "delete a.txt");
    assert.equal(out, "I did not delete it.");
    assert.equal(ran, false);
    assert.deepEqual(asked, ['{"path":"a.txt"}']);
    assert.ok(pieces.some((p) => p.kind === "result" && p.text === DECLINED));
    const back = (server.requests[1].body.messages as { role: string; content: string }[]).at(-1);
    assert.deepEqual(back, { role: "tool", tool_call_id: "d1", content: DECLINED });
  });

  it("served takes the API at each turn: a key that cannot be had fails that turn, the next works", async () => {
    let n = 0;
    const m = served("Shown", "m3", 0, () => {
      if (n++ === 0) throw new Error("sign-in expired");
      return new OpenAI({ baseURL: server.baseURL, apiKey: `key${n}`, maxRetries: 0 });
    });
    assert.equal(m.name, "Shown");
    await assert.rejects(run(agent(m), "hi"), /sign-in expired/);
    server.script(answer("fine"));
    assert.equal(await run(agent(m), "hi"), "fine");
    assert.equal(server.requests[0].headers.authorization, "Bearer key2");
    assert.equal(server.requests[0].body.model, "m3");
  });
});

describe("agent: windowIn", () => {
  it("reads the window as OpenRouter, vLLM, llama.cpp and LM Studio list it", () => {
    assert.equal(
      windowIn({ id: "a", context_length: 128000, top_provider: { context_length: 64000 } }),
      128000,
    );
    assert.equal(windowIn({ id: "a", top_provider: { context_length: 64000 } }), 64000);
    assert.equal(windowIn({ id: "a", max_model_len: 32768 }), 32768);
    assert.equal(windowIn({ id: "a", meta: { n_ctx_train: 131072, n_ctx: 8192 } }), 8192);
    assert.equal(windowIn({ id: "a", meta: { n_ctx_train: 4096 } }), 4096);
    assert.equal(windowIn({ id: "a", max_context_length: 16384 }), 16384);
    assert.equal(windowIn({ id: "a", owned_by: "me" }), 0);
  });
});
