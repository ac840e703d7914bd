import assert from "node:assert/strict";
import { z } from "zod";
import {
  agent,
  calls,
  DECLINED,
  run,
  RunError,
  says,
  scripted,
  tool,
  type Piece,
  type Turn,
} from "../../../src/agent";

const wait = (ms: number): Promise<void> => new Promise((r) => setTimeout(r, ms));
const echo = tool("echo", "Says back its text.", z.object({ text: z.string() }), ({ text }) => text, {
  readOnly: true,
});

function collect(): { pieces: Piece[]; each: (p: Piece) => void; kinds: () => string[]; text: () => string } {
  const pieces: Piece[] = [];
  return {
    pieces,
    each: (p) => pieces.push(p),
    kinds: () => pieces.map((p) => p.kind),
    text: () => pieces.map((p) => (p.kind === "text" ? p.text : "")).join(""),
  };
}

describe("agent: run", () => {
  it("streams an answer in pieces of at most 4 bytes and ends with done", async () => {
    const a = agent(scripted([says("Hello, wörld! 👋🏽")]), "Be brief.");
    const seen = collect();
    const answer = await run(a, "hi", { each: seen.each });
    assert.equal(answer, "Hello, wörld! 👋🏽");
    assert.equal(seen.text(), answer);
    for (const p of seen.pieces) if (p.kind === "text") assert.ok(Buffer.byteLength(p.text) <= 4);
    assert.deepEqual(seen.pieces.at(-1), { kind: "done", text: answer, limit: undefined });
    assert.deepEqual(
      a.history.map((m) => [m.role, m.text]),
      [
        ["user", "hi"],
        ["assistant", answer],
      ],
    );
  });

  it("runs a turn's calls concurrently and gives results back in call order", async () => {
    const started: string[] = [];
    const events: string[] = [];
    // Each call waits until all three have started: calls run one after another would never get past it.
    let allIn!: () => void;
    const everyoneStarted = new Promise<void>((resolve) => (allIn = resolve));
    const slow = tool(
      "slow",
      "Waits.",
      z.object({ ms: z.number(), tag: z.string() }),
      async ({ ms, tag }) => {
        started.push(tag);
        events.push(`start ${tag}`);
        if (started.length === 3) allIn();
        await everyoneStarted;
        await wait(ms);
        events.push(`end ${tag}`);
        return tag;
      },
      { readOnly: true },
    );
    const model = scripted([
      calls([
        ["slow", '{"ms":120,"tag":"a"}'],
        ["slow", '{"ms":10,"tag":"b"}'],
        ["slow", '{"ms":60,"tag":"c"}'],
      ]),
      says("done"),
    ]);
    const a = agent(model, "", [slow]);
    const seen = collect();
    await run(a, "go", { each: seen.each });
    assert.deepEqual(started, ["a", "b", "c"]);
    assert.deepEqual(
      events.slice(0, 3),
      ["start a", "start b", "start c"],
      "every call started before any ended",
    );
    // Results appear as they finish; the model reads them in the order of the calls.
    const results = seen.pieces
      .filter((p) => p.kind === "result")
      .map((p) => (p.kind === "result" ? p.text : ""));
    assert.deepEqual(results, ["b", "c", "a"]);
    const back = model.requests[1].messages.filter((m) => m.role === "tool");
    assert.deepEqual(
      back.map((m) => [m.role === "tool" && m.call, m.text]),
      [
        ["call_0", "a"],
        ["call_1", "b"],
        ["call_2", "c"],
      ],
    );
    assert.deepEqual(seen.kinds().slice(0, 3), ["call", "call", "call"]);
  });

  it("gives the model its tools as OpenAI function objects", async () => {
    const model = scripted([says("ok")]);
    await run(agent(model, "inst", [echo]), "hi");
    assert.equal(model.requests[0].instructions, "inst");
    assert.deepEqual(model.requests[0].tools, [
      {
        type: "function",
        function: { name: "echo", description: "Says back its text.", parameters: echo.parameters },
      },
    ]);
    assert.equal(model.requests[0].answer, false);
  });

  it("answers invalid JSON, invalid fields, unknown tools and throwing tools as failed calls, and goes on", async () => {
    const boom = tool(
      "boom",
      "Fails.",
      z.object({}),
      () => {
        throw new Error("the disk is full");
      },
      { readOnly: true },
    );
    const model = scripted([
      calls([
        ["echo", "{not json"],
        ["echo", '{"text": 5}'],
        ["nope", "{}"],
        ["boom", "{}"],
      ]),
      says("sorry"),
    ]);
    const seen = collect();
    const answer = await run(agent(model, "", [echo, boom]), "go", { each: seen.each });
    assert.equal(answer, "sorry");
    const failed = seen.pieces
      .filter((p) => p.kind === "failed")
      .map((p) => (p.kind === "failed" ? p.text : ""));
    assert.equal(failed.length, 4);
    const results = model.requests[1].messages.filter((m) => m.role === "tool").map((m) => m.text);
    assert.match(results[0], /not valid JSON/);
    assert.match(results[1], /text: .*expected string/);
    assert.match(results[2], /no tool named "nope".*echo, boom/);
    assert.equal(results[3], "the disk is full");
    assert.deepEqual(seen.kinds().at(-1), "done");
  });

  it("fails a tool that hangs past its timeout, and the run goes on", async () => {
    let aborted = false;
    const hang = tool(
      "hang",
      "Never ends.",
      z.object({}),
      (_input, signal) => new Promise<string>(() => signal.addEventListener("abort", () => (aborted = true))),
      { readOnly: true, timeoutMs: 50 },
    );
    const model = scripted([calls([["hang", "{}"]]), says("moved on")]);
    const seen = collect();
    assert.equal(await run(agent(model, "", [hang]), "go", { each: seen.each }), "moved on");
    const failed = seen.pieces.find((p) => p.kind === "failed");
    assert.match(failed?.kind === "failed" ? failed.text : "", /longer than 50 ms/);
    assert.ok(aborted, "the tool's signal was aborted");
  });

  it("asks approve before a tool that writes, not before a read-only one; false gives DECLINED", async () => {
    let wrote = 0;
    const write = tool("write", "Writes.", z.object({}), () => {
      wrote++;
      return "written";
    });
    const model = scripted([
      calls([
        ["write", "{}"],
        ["echo", '{"text":"r"}'],
      ]),
      says("ok"),
    ]);
    const a = agent(model, "", [write, echo]);
    const asked: string[] = [];
    a.approve = async (call) => {
      asked.push(call.name);
      await wait(5);
      return false;
    };
    const seen = collect();
    await run(a, "go", { each: seen.each });
    assert.deepEqual(asked, ["write"]);
    assert.equal(wrote, 0);
    const results = model.requests[1].messages.filter((m) => m.role === "tool").map((m) => m.text);
    assert.deepEqual(results, [DECLINED, "r"]);
    assert.ok(seen.pieces.some((p) => p.kind === "result" && p.text === DECLINED));
  });

  it("ends at the round limit with one more turn that must answer, and says which limit", async () => {
    const model = scripted([
      calls([["echo", '{"text":"1"}']]),
      calls([["echo", '{"text":"2"}']]),
      says("final"),
    ]);
    const a = agent(model, "", [echo]);
    a.rounds = 2;
    const seen = collect();
    assert.equal(await run(a, "go", { each: seen.each }), "final");
    assert.equal(model.requests.length, 3);
    assert.equal(model.requests[2].answer, true);
    assert.match(model.requests[2].instructions, /limit of tool rounds/);
    assert.deepEqual(seen.pieces.at(-1), { kind: "done", text: "final", limit: "rounds" });
  });

  it("ignores calls made on the answering turn", async () => {
    const model = scripted([
      calls([["echo", '{"text":"1"}']]),
      { ...calls([["echo", "{}"]]), text: "still" },
    ]);
    const a = agent(model, "", [echo]);
    a.rounds = 1;
    assert.equal(await run(a, "go"), "still");
    assert.deepEqual(a.history.at(-1), { role: "assistant", text: "still" });
  });

  it("ends at maxTokens (tokens written in this run) and at maxMs", async () => {
    const big: Turn = { ...calls([["echo", '{"text":"x"}']]), tokens: 600 };
    const a = agent(scripted([big, says("short")]), "", [echo]);
    a.maxTokens = 500;
    const seen = collect();
    await run(a, "go", { each: seen.each });
    assert.deepEqual(seen.pieces.at(-1), { kind: "done", text: "short", limit: "tokens" });
    assert.equal(a.tokens, 600 + 2);

    const slow = tool("slow", "Waits.", z.object({}), () => wait(40).then(() => "ok"), { readOnly: true });
    const timedModel = scripted([calls([["slow", "{}"]]), says("too late")]);
    const b = agent(timedModel, "", [slow]);
    b.maxMs = 20;
    const timed = collect();
    await run(b, "go", { each: timed.each });
    // No time is left for an answer: none is asked, and the run ends with the time's note.
    assert.deepEqual(timed.pieces.at(-1), { kind: "stopped", text: "", limit: "time" });
    assert.equal(timedModel.requests.length, 1);
  });

  it("stops between pieces: a stopped piece with what was written, and the history keeps it", async () => {
    const a = agent(scripted([says("one two three four five six")]));
    let count = 0;
    a.stop = () => count >= 3;
    const seen = collect();
    const answer = await run(a, "go", {
      each: (p) => {
        seen.each(p);
        if (p.kind === "text") count++;
      },
    });
    assert.equal(answer, "one two thre");
    assert.deepEqual(seen.pieces.at(-1), { kind: "stopped", text: "one two thre" });
    assert.equal(seen.kinds().filter((k) => k === "text").length, 3);
    assert.deepEqual(a.history.at(-1), { role: "assistant", text: "one two thre" });
  });

  it("stops on an AbortSignal while tools run, and keeps the conversation well formed", async () => {
    const slow = tool(
      "slow",
      "Waits.",
      z.object({}),
      (_i, signal) =>
        new Promise<string>((_r, reject) => {
          signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
      { readOnly: true },
    );
    const a = agent(scripted([{ ...calls([["slow", "{}"]]), text: "Let me look." }]), "", [slow]);
    const controller = new AbortController();
    setTimeout(() => controller.abort(), 30);
    const seen = collect();
    const t0 = Date.now();
    assert.equal(await run(a, "go", { each: seen.each, signal: controller.signal }), "Let me look.");
    assert.ok(Date.now() - t0 < 500);
    assert.equal(seen.pieces.at(-1)?.kind, "stopped");
    assert.ok(!seen.kinds().includes("failed"));
    assert.deepEqual(
      a.history.map((m) => m.role),
      ["user", "assistant", "tool"],
    );
  });

  it("a stop asked while a slow approval waits ends the run", async () => {
    const write = tool("write", "Writes.", z.object({}), () => "written");
    const a = agent(scripted([calls([["write", "{}"]])]), "", [write]);
    let stop = false;
    a.stop = () => stop;
    a.approve = () => new Promise<boolean>(() => undefined);
    setTimeout(() => (stop = true), 30);
    const seen = collect();
    await run(a, "go", { each: seen.each });
    assert.equal(seen.pieces.at(-1)?.kind, "stopped");
  });

  it("ends with an error piece and rejects with RunError when the model fails", async () => {
    const a = agent(scripted([]));
    const seen = collect();
    await assert.rejects(
      run(a, "hi", { each: seen.each }),
      (e: unknown) => e instanceof RunError && /no turn 1/.test(e.message),
    );
    assert.deepEqual(seen.kinds(), ["error"]);
    assert.equal(a.history.length, 1);
  });

  it("keeps tokens, input, context and window up to date over runs", async () => {
    const turn = (text: string, tokens: number, input: number): Turn => ({
      ...says(text),
      tokens,
      input,
      window: 8192,
    });
    const a = agent(scripted([turn("a", 5, 100), turn("b", 7, 130)]));
    await run(a, "1");
    assert.deepEqual([a.tokens, a.input, a.context, a.window], [5, 100, 105, 8192]);
    await run(a, "2");
    assert.deepEqual([a.tokens, a.input, a.context, a.window], [12, 230, 137, 8192]);
    assert.equal(a.history.length, 4);
  });

  it("gives reasoning pieces before text and keeps reasoning on the message", async () => {
    const a = agent(scripted([{ ...says("42"), reasoning: "think hard" }]));
    const seen = collect();
    await run(a, "q", { each: seen.each });
    assert.deepEqual(seen.kinds(), ["reasoning", "reasoning", "reasoning", "text", "done"]);
    assert.deepEqual(a.history[1], { role: "assistant", text: "42", reasoning: "think hard" });
  });
});
