import assert from "node:assert/strict";
import { z } from "zod";
import { agent, FINAL_TOKENS, run, tool, type Model, type Piece } from "../../../src/agent";
import { answer, calling, finish, stall, text, type FixtureServer } from "../../fixtures/openai-server";
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
});
