import assert from "node:assert/strict";
import { z } from "zod";
import { agent, endpoint, memoryFacts, run, tool, type Facts, type Message } from "../../../src/agent";
import { body } from "../../../src/agent/wire";
import { historyBefore } from "../../../src/chat/runner/history";
import type { Item } from "../../../src/chat/row-schemas";
import {
  answer,
  finish,
  openaiServer,
  reasoning,
  text,
  toolCall,
  usage,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, fast, joined } from "./helpers";

const echo = tool("echo", "Echo.", z.object({ t: z.string() }), ({ t }) => `echo ${t}`, { readOnly: true });

/** A turn that reasons in `field`, then calls echo. */
function thinksThenCalls(field: "reasoning_content" | "reasoning", thought: string) {
  return {
    events: [
      ...reasoning(thought, field, 3),
      ...toolCall(0, "c1", "echo", '{"t":"x"}', 4),
      finish("tool_calls"),
    ],
  };
}

type Wired = { role: string; tool_calls?: unknown[] } & Record<string, unknown>;

describe("agent: reasoning that continues", () => {
  let server: FixtureServer;
  let facts: Facts;
  beforeEach(async () => {
    server = await openaiServer();
    facts = memoryFacts();
  });
  afterEach(() => server.close());
  const model = () => endpoint({ baseURL: server.baseURL, apiKey: "k", model: "m1", facts, ...fast });

  for (const field of ["reasoning_content", "reasoning"] as const) {
    it(`sends ${field} back on the tool-call turn, in the field it streamed in`, async () => {
      server.requireReasoning = field;
      server.script(thinksThenCalls(field, "I should echo."), answer("done"));
      assert.equal(await run(agent(model(), "", [echo]), "go"), "done");
      assert.equal(server.requests.length, 2, "no request was refused");
      const sent = server.requests[1].body.messages as Wired[];
      const call = sent.find((m) => m.role === "assistant" && m.tool_calls)!;
      assert.equal(call[field], "I should echo.");
    });
  }

  it("learns the field from a 400 that names it, once: the next run sends it from the start", async () => {
    server.requireReasoning = "reasoning_content";
    // The model streams no reasoning, so only the refusal tells what the server wants.
    server.script(
      { events: [...toolCall(0, "c1", "echo", '{"t":"x"}'), finish("tool_calls")] },
      answer("one"),
      { events: [...toolCall(0, "c2", "echo", '{"t":"y"}'), finish("tool_calls")] },
      answer("two"),
    );
    assert.equal(await run(agent(model(), "", [echo]), "go"), "one");
    assert.equal(server.requests.length, 3, "the call, the refused answer, the answer with the field");
    const retried = server.requests[2].body.messages as Wired[];
    assert.equal(retried.find((m) => m.tool_calls)!.reasoning_content, "");
    // A new model object (a new run in the panel builds one) knows it already.
    assert.equal(await run(agent(model(), "", [echo]), "again"), "two");
    assert.equal(server.requests.length, 5, "no refused request in the second run");
  });

  it("shows reasoning sent in both fields of one chunk once (mlx-vlm), and keeps it once", async () => {
    server.script({
      events: [
        { delta: { reasoning_content: "abc", reasoning: "abc" } },
        { delta: { reasoning_content: "de", reasoning: "de" } },
        ...text("ok"),
        finish(),
        usage(5, 3),
      ],
    });
    const a = agent(model());
    const { pieces } = await collect(a, "go");
    assert.equal(joined(pieces, "reasoning"), "abcde");
    assert.equal((a.history[1] as Extract<Message, { role: "assistant" }>).reasoning, "abcde");
  });

  it("reads a lone </think> (the template opened <think>): reasoning before it, the tag never shown", async () => {
    server.script(
      { events: [...text("plan it</think>\n\nThe answer.", 3), finish(), usage(5, 3)] },
      { events: [...text("more thought</think>Second.", 4), finish(), usage(5, 3)] },
    );
    const a = agent(model());
    const first = await collect(a, "go");
    assert.equal(first.answer, "The answer.");
    assert.ok(!joined(first.pieces, "text").includes("</think>"));
    // What was streamed as the answer before the tag is taken back, then given as reasoning.
    const at = first.pieces.findIndex((p) => p.kind === "retracted");
    assert.deepEqual(first.pieces[at], { kind: "retracted", text: "plan it" });
    assert.equal(joined(first.pieces.slice(0, at), "text"), "plan it");
    assert.equal(joined(first.pieces.slice(at), "text"), "The answer.");
    assert.equal((a.history[1] as Extract<Message, { role: "assistant" }>).reasoning, "plan it");
    assert.equal(facts.get(`${server.baseURL} m1`)?.opens, true);
    // Learned: the next answer is read as reasoning from its first piece.
    const second = await collect(agent(model()), "again");
    assert.equal(second.answer, "Second.");
    assert.equal(joined(second.pieces, "reasoning"), "more thought");
    assert.equal(joined(second.pieces, "text"), "Second.");
  });

  it("forgets a lone </think> it was wrong about: an answer that never closes is the answer", async () => {
    server.script(
      // A model quoting the tag in its first answer makes it look opened by the template…
      { events: [...text("Close it with </think> and go on.", 5), finish()] },
      // …but the next answer never closes one: it is read as the answer, and the mistake unlearned.
      { events: [...text("Plain words.", 5), finish()] },
      { events: [...text("More words.", 5), finish()] },
    );
    await collect(agent(model()), "one");
    assert.equal(facts.get(`${server.baseURL} m1`)?.opens, true);
    const second = await collect(agent(model()), "two");
    assert.equal(second.answer, "Plain words.");
    assert.equal(facts.get(`${server.baseURL} m1`)?.opens, false);
    const third = await collect(agent(model()), "three");
    assert.equal(joined(third.pieces, "text"), "More words.");
  });

  it("history rebuilt from stored items sends the reasoning with its tool-call turn", async () => {
    const row = (id: string, kind: Item["kind"], extra: Partial<Item> = {}): Item => ({
      id,
      chat: "c",
      kind,
      text: "",
      name: "",
      input: "",
      output: "",
      file: "",
      files: [],
      model: "",
      state: "",
      done: true,
      ...extra,
    });
    const items = [
      row("a", "user", { text: "go" }),
      row("a.0000", "reasoning", { text: "Let me look." }),
      row("a.0001", "call", { name: "echo", input: '{"t":"x"}', output: "echo x", state: "done" }),
      row("a.0002", "reasoning", { text: "Got it." }),
      row("a.0003", "text", { text: "It says x." }),
      row("b", "user", { text: "next" }),
    ];
    const history = await historyBefore(items, items[5], () => Promise.resolve({ text: "", images: [] }));
    const wired = body(
      { instructions: "", messages: [...history, { role: "user", text: "next" }], tools: [], answer: false },
      "m",
      { textTools: false, baseURL: "http://127.0.0.1:1/v1", learned: { reasoning: "reasoning_content" } },
    ).messages;
    assert.deepEqual(
      wired.map((m) => [m.role, "reasoning_content" in m ? m.reasoning_content : undefined]),
      [
        ["user", undefined],
        ["assistant", "Let me look."],
        ["tool", undefined],
        // An older answer's reasoning is not sent again: templates drop it.
        ["assistant", undefined],
        ["user", undefined],
      ],
    );
  });
});
