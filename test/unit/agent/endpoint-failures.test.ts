import assert from "node:assert/strict";
import { agent, endpoint, run, RunError, type Model, type Piece } from "../../../src/agent";
import {
  answer,
  drop,
  finish,
  httpError,
  malformed,
  openaiServer,
  stall,
  streamError,
  text,
  usage,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, fast, joined, servedModel } from "./helpers";

describe("agent: endpoint failures and stops", () => {
  let server: FixtureServer;
  let model: Model;
  beforeEach(async () => ({ server, model } = await servedModel()));
  afterEach(() => server.close());

  it("retries 429 honouring Retry-After, and 5xx, before any piece was shown", async () => {
    server.script(
      httpError(429, "slow down", { "retry-after": "0.15" }),
      httpError(503, "busy"),
      answer("finally"),
    );
    const t0 = Date.now();
    const { answer: out, pieces } = await collect(agent(model), "hi");
    assert.equal(out, "finally");
    assert.ok(Date.now() - t0 >= 140, "waited as Retry-After asked");
    assert.equal(server.requests.length, 3);
    assert.ok(!pieces.some((p) => p.kind === "error"));
  });

  it("retries a connection dropped before any piece, at most 3 times, then says why", async () => {
    server.script({ events: [drop()] }, answer("back"));
    assert.equal((await collect(agent(model), "hi")).answer, "back");
    server.script(
      httpError(500, "e1"),
      httpError(500, "e2"),
      httpError(500, "e3"),
      httpError(500, "e4"),
      answer("never"),
    );
    const pieces: Piece[] = [];
    await assert.rejects(run(agent(model), "hi", { each: (p) => pieces.push(p) }), RunError);
    assert.equal(server.requests.length, 2 + 4);
    assert.deepEqual(pieces, [{ kind: "error", text: `The endpoint ${server.baseURL} failed (500): e4` }]);
  });

  it("ends with an error piece, not a retry, when the stream fails after a piece was shown", async () => {
    server.script({ events: [...text("Half an ans", 4), streamError("upstream overloaded")] });
    const pieces: Piece[] = [];
    await assert.rejects(run(agent(model), "hi", { each: (p) => pieces.push(p) }), /upstream overloaded/);
    assert.equal(server.requests.length, 1);
    assert.equal(joined(pieces, "text"), "Half an ans");
    assert.deepEqual(pieces.at(-1), {
      kind: "error",
      text: "The model m1 failed in the middle of its answer: upstream overloaded",
    });
    server.script({ events: [...text("abc", 1), drop()] });
    await assert.rejects(run(agent(model), "hi"), /dropped in the middle of the answer/);
  });

  it("explains 401, 404 and context-length errors at once, without retrying", async () => {
    server.script(httpError(401, "invalid key"));
    await assert.rejects(run(agent(model), "hi"), /refused the API key \(401\): invalid key/);
    server.script(httpError(404, "model 'm1' not found"));
    await assert.rejects(run(agent(model), "hi"), (e: Error) =>
      e.message.startsWith(`The model m1 is not served at ${server.baseURL}`),
    );
    server.script(httpError(400, "This model's maximum context length is 4096 tokens."));
    await assert.rejects(run(agent(model), "hi"), /too long for the context window of the model m1/);
    assert.equal(server.requests.length, 3);
  });

  it("fails a stalled stream after the idle time, and a malformed chunk with a message", async () => {
    const quick = endpoint({
      baseURL: server.baseURL,
      model: "m1",
      ...fast,
      idleMs: 80,
      retry: { attempts: 0 },
    });
    server.script({ events: [...text("wait", 2), stall()] });
    await assert.rejects(run(agent(quick), "hi"), /sent nothing for/);
    assert.equal(await server.closes(), undefined);
    server.script({ events: [...text("x", 1), malformed()] });
    await assert.rejects(run(agent(quick), "hi"), /not JSON/);
  });

  it("stops in the middle of a stream: the server sees the socket close, the history keeps the text", async () => {
    server.script({ events: [...text("Once upon a time", 4), stall()] });
    const a = agent(model);
    let texts = 0;
    a.stop = () => texts >= 2;
    const pieces: Piece[] = [];
    const out = await run(a, "story", {
      each: (p) => {
        pieces.push(p);
        if (p.kind === "text") texts++;
      },
    });
    assert.equal(out, "Once upo");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: "Once upo" });
    await server.closes();
    assert.equal(server.closed, 1);
    assert.deepEqual(a.history.at(-1), { role: "assistant", text: "Once upo" });
  });

  it("stops a stalled stream from an AbortSignal", async () => {
    server.script({ events: [...text("Hi", 1), stall()] });
    const controller = new AbortController();
    const pieces: Piece[] = [];
    const done = run(agent(model), "hi", {
      signal: controller.signal,
      each: (p) => {
        pieces.push(p);
        // Stopped once the answer's text has come, while the stream stalls.
        if (pieces.filter((q) => q.kind === "text").length === 2) controller.abort();
      },
    });
    assert.equal(await done, "Hi");
    await server.closes();
    assert.equal(pieces.at(-1)?.kind, "stopped");
  });
});

describe("agent: endpoint without a server", () => {
  it("says it cannot reach an address where nothing listens", async () => {
    const gone = await openaiServer();
    const baseURL = gone.baseURL;
    await gone.close();
    const m = endpoint({ baseURL, model: "m", window: 0, retry: { baseMs: 1, attempts: 1 } });
    await assert.rejects(run(agent(m), "hi"), (e: Error) =>
      e.message.startsWith(`Cannot reach the endpoint ${baseURL}`),
    );
  });

  it("the usage chunk alone is read", async () => {
    const server = await openaiServer();
    try {
      server.script({ events: [...text("ok"), finish(), usage(3, 1)] });
      const a = agent(endpoint({ baseURL: server.baseURL, model: "m", window: 0 }));
      await run(a, "hi");
      assert.deepEqual([a.tokens, a.input], [1, 3]);
    } finally {
      await server.close();
    }
  });
});
