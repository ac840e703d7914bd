import assert from "node:assert/strict";
import { z } from "zod";
import { agent, FINAL_TOKENS, run, tool, type Model, type Piece } from "../../../src/agent";
import { limitNote } from "../../../src/agent/limit-note";
import {
  answer,
  calling,
  finish,
  stall,
  text,
  toolCall,
  usage,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, servedModel } from "./helpers";

const echo = tool("echo", "Echo.", z.object({}), () => "echoed", { readOnly: true });

describe("agent: limits that hold inside a turn", () => {
  let server: FixtureServer;
  let model: Model;
  beforeEach(async () => ({ server, model } = await servedModel()));
  afterEach(() => server.close());

  it("the deadline cuts a streaming turn: the server sees the client leave before its reply ends", async () => {
    // The reply sends a piece, then waits until the client leaves: only the deadline can end the turn.
    server.script({ events: [...text("one "), stall(), ...text("two"), finish()] });
    const a = agent(model);
    a.maxMs = 1000;
    const seen: Piece[] = [];
    const out = await run(a, "go", { each: (p) => seen.push(p) });
    assert.deepEqual(seen.at(-1), { kind: "stopped", text: out, limit: "time" });
    await server.closes();
    assert.equal(server.closed, 1, "the client left before the reply ended");
    assert.ok(!out.includes("two"));
    assert.equal(server.requests.length, 1, "no answer is asked after the time is up");
  });

  it("counts tokens from the stream when no usage comes, and cuts the turn at maxTokens", async () => {
    // About 1,000 tokens (4,000 characters) in pieces of 100, without a usage chunk; the server
    // waits after the second piece until the client leaves, so only a cut ends the turn.
    const pieces = text("word ".repeat(800), 100);
    server.script({ events: [...pieces.slice(0, 2), stall(), ...pieces.slice(2), finish()] });
    const a = agent(model);
    a.maxTokens = 10;
    const { answer: out, pieces: seen } = await collect(a, "go");
    assert.deepEqual(seen.at(-1), { kind: "stopped", text: out, limit: "tokens" });
    assert.equal(out.length, 100, "cut after the piece that reached the limit");
    await server.closes();
    assert.equal(a.tokens, 25, "estimated from the 100 characters written");
  });

  it("caps the answer a limit asks for, and says which limit ended the run", async () => {
    server.script(calling([["c1", "echo", "{}"]]), answer("Here is what I have."));
    const a = agent(model, "", [echo]);
    a.rounds = 1;
    const { pieces } = await collect(a, "go");
    const final = server.requests[1].body;
    assert.equal(final.max_tokens, FINAL_TOKENS);
    assert.equal(final.tool_choice, "none");
    assert.deepEqual(pieces.at(-1), { kind: "done", text: "Here is what I have.", limit: "rounds" });
  });

  it("the capped answer keeps a smaller cap the person set", async () => {
    server.script(calling([["c1", "echo", "{}"]]), answer("Short."));
    const a = agent(model, "", [echo]);
    a.rounds = 1;
    a.parameters = { maxTokens: 200 };
    await run(a, "go");
    assert.equal(server.requests[1].body.max_tokens, 200);
  });

  it("counts a call's arguments as they stream: the limit cuts the call, which does not run", async () => {
    // About 1,000 tokens of arguments in pieces of 100 characters; the server waits after the
    // second piece until the client leaves, so only a cut ends the turn.
    const big = JSON.stringify({ text: "word ".repeat(800) });
    const events = toolCall(0, "c1", "write", big, 100);
    server.script({ events: [...events.slice(0, 3), stall(), ...events.slice(3), finish("tool_calls")] });
    const ran: string[] = [];
    const write = tool("write", "Writes.", z.object({ text: z.string() }), ({ text }) => {
      ran.push(text);
      return "written";
    });
    const a = agent(model, "", [write]);
    a.maxTokens = 10;
    a.approve = () => true;
    const { pieces } = await collect(a, "go");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: "", limit: "tokens", call: { name: "write" } });
    assert.deepEqual(ran, [], "the call did not run");
    assert.ok(!pieces.some((p) => p.kind === "call"), "no call was shown");
    await server.closes();
    assert.equal(server.requests.length, 1, "no answer was asked after the limit");
    assert.equal(
      limitNote("tokens", a, { name: "write" }),
      "Stopped: the limit of 10 tokens was reached while the model was writing a call of write, which did not run.",
    );
  });

  it("a call written as text counts too", async () => {
    const big = JSON.stringify({ name: "write", arguments: { text: "word ".repeat(800) } });
    const events = text(`<tool_call>${big}</tool_call>`, 100);
    server.script({ events: [...events.slice(0, 3), stall(), ...events.slice(3), finish()] });
    const write = tool("write", "Writes.", z.object({ text: z.string() }), () => "written");
    const a = agent(model, "", [write]);
    a.maxTokens = 10;
    const { pieces } = await collect(a, "go");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: "", limit: "tokens", call: { name: "" } });
    assert.equal(server.requests.length, 1);
  });

  it("no answer is asked once the time is up: the run stops with the time's note", async () => {
    // The tool outlasts the run's time; the answer a limit would ask for has no time left.
    const slow = tool(
      "slow",
      "Waits until stopped.",
      z.object({}),
      (_input, signal) =>
        new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve("late"))),
      { readOnly: true },
    );
    server.script(calling([["c1", "slow", "{}"]]), answer("An answer after the time."));
    const a = agent(model, "", [slow]);
    a.maxMs = 300;
    const { pieces } = await collect(a, "go");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: "", limit: "time" });
    assert.equal(server.requests.length, 1, "no answer was asked after the time was up");
  });

  it("the answer a limit asks for is cut when the run's time runs out", async () => {
    // The rounds run out with time left; the answer then stalls until the client leaves.
    server.script(calling([["c1", "echo", "{}"]]), {
      events: [...text("So far "), stall(), ...text("and more."), finish(), usage(5, 3)],
    });
    const a = agent(model, "", [echo]);
    a.rounds = 1;
    a.maxMs = 1000;
    const { answer: out, pieces } = await collect(a, "go");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: out, limit: "time" });
    assert.equal(out, "So far ");
    await server.closes();
    assert.equal(server.closed, 1, "the client left the answer at the deadline");
  });
});
