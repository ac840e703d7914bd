import assert from "node:assert/strict";
import { agent } from "../../../src/agent/agent";
import {
  cut,
  cuttable,
  estimate,
  messageTokens,
  newestTurn,
  shape,
  stub,
  summaryInput,
  roomOf,
  tooLarge,
  withSummary,
  type Measure,
} from "../../../src/agent/condense";
import { windowIn } from "../../../src/agent/condense-turn";
import { endpoint } from "../../../src/agent/endpoint";
import { run } from "../../../src/agent/run";
import { calls, says, scripted } from "../../../src/agent/scripted";
import type { Message, Piece, Request, Turn } from "../../../src/agent/types";
import { finalAnswer, logPart, readLog, scriptLongTask } from "../../fixtures/long-task";
import { openaiServer, promptTokens, type FixtureServer } from "../../fixtures/openai-server";

const KB = (n: number, c = "x"): string => c.repeat(n * 1024);

/** A history of `rounds` read_file rounds of `kb` KB each after a first message. */
function rounds(n: number, kb: number): Message[] {
  const out: Message[] = [{ role: "user", text: "Read every file." }];
  for (let i = 0; i < n; i++) {
    out.push({
      role: "assistant",
      text: "",
      calls: [{ id: `c${i}`, name: "read_file", arguments: JSON.stringify({ path: `src/f${i}.ts` }) }],
    });
    out.push({ role: "tool", call: `c${i}`, name: "read_file", text: KB(kb, String(i % 10)) });
  }
  return out;
}

const measure = (budget: number): Measure => ({ budget, fixed: 50, ratio: 1 });

describe("condense: estimates, stubs and what to cut", () => {
  it("estimates four characters a token, with pictures and calls counted", () => {
    assert.equal(estimate("abcdefgh"), 2);
    assert.equal(estimate("abcdefghi"), 3);
    assert.equal(messageTokens({ role: "user", text: "abcd" }), 5);
    assert.equal(messageTokens({ role: "user", text: "abcd", images: ["data:image/png;base64,AAAA"] }), 1005);
    assert.ok(
      messageTokens({
        role: "assistant",
        text: "",
        calls: [{ id: "1", name: "read_file", arguments: "{}" }],
      }) > 4,
    );
  });

  it("writes a stub the model can act on: the tool, what it read, the size, and how to see it again", () => {
    const call = { id: "c", name: "read_file", arguments: '{"path":"src/a.ts"}' };
    assert.equal(
      stub("read_file", call, 5325),
      "[output of read_file src/a.ts, 5.2 KB, condensed — call read_file again to see it]",
    );
    assert.equal(
      stub("search", { id: "c", name: "search", arguments: '{"query":"useState"}' }, 900),
      "[output of search useState, 900 bytes, condensed — call search again to see it]",
    );
  });

  it("sends a history that fits as it is", () => {
    const history = rounds(3, 1);
    const view = shape(history, undefined, measure(100_000));
    assert.deepEqual(view.messages, history);
    assert.equal(view.stubbed, 0);
  });

  it("stubs old tool outputs oldest first, only as far as needed, never the newest turn's", () => {
    const history = rounds(6, 4);
    const whole = shape(history, undefined, measure(1e9)).tokens;
    // Room for all but about two outputs.
    const view = shape(history, undefined, measure(whole - 1800));
    const tools = view.messages.filter((m) => m.role === "tool");
    assert.equal(view.stubbed, 2);
    assert.match(tools[0].text, /^\[output of read_file src\/f0\.ts, 4\.0 KB, condensed/);
    assert.match(tools[1].text, /^\[output of read_file src\/f1\.ts/);
    assert.equal(tools[2].text, KB(4, "2"));
    assert.ok(view.tokens <= whole - 1800);
    // Even a tiny budget leaves the newest result whole.
    const tight = shape(history, undefined, measure(10));
    assert.equal(tight.messages.at(-1)?.text, KB(4, "5"));
    assert.equal(tight.stubbed, 5);
    // The history itself is untouched.
    assert.equal(history[2].text, KB(4, "0"));
  });

  it("finds the newest turn and never cuts between a call and its result", () => {
    const history = rounds(3, 1);
    assert.equal(newestTurn(history), 5);
    assert.equal(
      newestTurn([...history, { role: "assistant", text: "done" }, { role: "user", text: "more" }]),
      8,
    );
    assert.equal(cuttable(history, 2), false);
    assert.equal(cuttable(history, 3), true);
  });

  it("cuts so the kept part takes at most half the budget, keeping the newest turn", () => {
    // Talk, not tool outputs: nothing to stub, so the cut decides.
    const history: Message[] = [];
    for (let i = 0; i < 20; i++)
      history.push(
        { role: "user", text: `q${i} ${"why ".repeat(100)}` },
        { role: "assistant", text: `a${i}` },
      );
    history.push({ role: "user", text: "now" });
    const k = cut(history, undefined, measure(4000));
    assert.ok(k !== undefined && k > 0 && k <= newestTurn(history));
    const kept = shape(history, { count: k, text: "" }, measure(2000));
    assert.ok(kept.tokens <= 2000, `${kept.tokens} kept`);
    // One message earlier would not fit the half any more.
    assert.ok(shape(history, { count: k - 1, text: "" }, measure(2000)).tokens > 2000);
    // Nothing to cut once the summary reaches the newest turn.
    assert.equal(cut(history, { count: newestTurn(history), text: "s" }, measure(4000)), undefined);
    // With tool outputs, stubs make room first: the cut summarises only the first message.
    assert.equal(cut(rounds(20, 2), undefined, measure(4000)), 1);
  });

  it("puts the summary first, joined to the person's message when one follows", () => {
    const joined = withSummary("They asked for X.", [{ role: "user", text: "Go on" }]);
    assert.equal(joined.length, 1);
    assert.match(
      joined[0].text,
      /condensed\. Summary of them:\]\nThey asked for X\.\n\[End of the summary\. You wrote it[^\]]*\]\n\nGo on$/,
    );
    const alone = withSummary("S", [{ role: "assistant", text: "a" }]);
    assert.deepEqual(
      alone.map((m) => m.role),
      ["user", "assistant"],
    );
  });

  it("gives the summariser a transcript within its budget, the newest lines kept", () => {
    const history = rounds(30, 4);
    const text = summaryInput(history, "Earlier: the person asked to read files.", 1, 61, 1500);
    assert.ok(text.length <= 1500 * 4, `${text.length} characters`);
    assert.match(text, /^Summary of what came before:\nEarlier: the person asked/);
    assert.match(text, /older entries left out/);
    assert.match(text, /Result of read_file src\/f29\.ts/);
    const small = summaryInput(rounds(2, 1), "", 0, 5, 10_000);
    assert.match(
      small,
      /^Person: Read every file\.\n\nAgent: \[calls read_file\(\{"path":"src\/f0\.ts"\}\)\]/,
    );
  });

  it("says what takes the room when a request cannot fit, with figures and what to do, and reads the window an overflow names", () => {
    const tools = Array.from({ length: 40 }, (_, i) => ({
      type: "function" as const,
      function: { name: `tool_${i}`, description: "d".repeat(1000), parameters: {} },
    }));
    const messages: Message[] = [
      { role: "user", text: "earlier question" },
      { role: "assistant", text: "earlier answer" },
      { role: "user", text: `read this\n\n<file name="a.txt">\n${"x".repeat(4000)}\n</file>` },
    ];
    const room = roomOf("Be brief.", tools, messages);
    assert.deepEqual(room, {
      instructions: 7,
      tools: room.tools,
      count: 40,
      attachments: 1008,
      message: 7,
      earlier: 16,
    });
    assert.ok(room.tools > 10_000, `${room.tools}`);
    assert.equal(
      tooLarge(8192, room),
      `This request does not fit the model's 8192-token window: the instructions take 7 tokens, 40 tools ${room.tools}, attachments 1008, the message and its tool outputs 7, earlier turns 16. Give the assistant fewer tools (its tools list, the setting tandem.tools.alwaysOffered), or choose a model with a larger window.`,
    );
    assert.match(
      tooLarge(8192, { ...room, tools: 0, count: 0 }),
      /attachments 1008.*\. Attach less, or choose a model with a larger window\.$/,
    );
    assert.equal(windowIn("This model's maximum context length is 8192 tokens. However, you…"), 8192);
    assert.equal(windowIn("the request exceeds the available context size"), 0);
  });
});

/** A scripted model with a known window that answers summary requests with `summary`. */
function windowed(
  turns: Turn[],
  window: number,
  summary = "The person asked to read every file; f0–f9 were read.",
): {
  model: ReturnType<typeof scripted>;
  summaries: Request[];
} {
  const summaries: Request[] = [];
  let next = 0;
  const model = scripted(
    Array.from({ length: turns.length * 3 }, () => (request: Request): Turn => {
      if (request.summary) {
        summaries.push(request);
        return says(summary);
      }
      return { ...turns[next++], window };
    }),
  );
  return { model, summaries };
}

describe("condense: in the run loop", () => {
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it("summarises the oldest turns with the same model when stubs are not enough, keeping the whole history", async () => {
    const { model, summaries } = windowed([says("Done.")], 2048);
    const a = agent(model);
    a.window = 2048;
    // Thirty turns of talk: nothing to stub, so only a summary makes room.
    for (let i = 0; i < 30; i++)
      a.history.push(
        { role: "user", text: `Question ${i}: ${"why ".repeat(40)}` },
        { role: "assistant", text: `Answer ${i}: ${"because ".repeat(20)}` },
      );
    const before = a.history.length;
    const answer = await run(a, "And now?");
    assert.equal(answer, "Done.");
    assert.equal(summaries.length, 1);
    assert.deepEqual(summaries[0].tools, []);
    assert.match(summaries[0].messages[0].text, /Person: Question \d+: why/);
    assert.ok(messageTokens(summaries[0].messages[0]) < 2048, "the summary request fits the window");
    const sent = model.requests.findLast((r) => !r.summary)!.messages;
    assert.match(
      sent[0].text,
      /^\[Earlier turns of this conversation were condensed\. Summary of them:\]\nThe person asked to read every file/,
    );
    assert.equal(sent.at(-1)?.text, "And now?");
    assert.ok(sent.length < 20, `${sent.length} messages sent`);
    // The history keeps everything; the summary is kept for the next rounds.
    assert.equal(a.history.length, before + 2);
    assert.equal(a.condensing?.summary?.text, "The person asked to read every file; f0–f9 were read.");
  });

  it("condenses inside a long tool-using run, not only between messages", async () => {
    const turns: Turn[] = [
      ...Array.from({ length: 12 }, (_, i) => calls([["read_log", JSON.stringify({ part: i })]])),
      says("finished"),
    ];
    const { model, summaries } = windowed(turns, 4096);
    const a = agent(model, "", [readLog]);
    a.window = 4096;
    a.rounds = 20;
    assert.equal(await run(a, "read the log"), "finished");
    const rounds = model.requests.filter((r) => !r.summary);
    for (const r of rounds) {
      const tokens = r.messages.reduce((n, m) => n + messageTokens(m), 0);
      assert.ok(tokens <= 4096 * 0.8, `a round sent ${tokens} tokens`);
    }
    const last = rounds.at(-1)!.messages;
    assert.ok(last.some((m) => m.role === "tool" && m.text.startsWith("[output of read_log")));
    assert.equal(last.at(-1)?.text, logPart(11), "the newest result is sent whole");
    assert.ok(summaries.length <= 2, `${summaries.length} summaries`);
    // Every output is whole in the history.
    assert.equal(a.history.filter((m) => m.role === "tool" && m.text.length > 2000).length, 12);
  });

  it("says so when even the newest turn is larger than the window", async () => {
    const { model } = windowed([says("never")], 1024);
    const a = agent(model);
    a.window = 1024;
    const pieces: Piece[] = [];
    await assert.rejects(
      run(a, KB(8), { each: (p) => pieces.push(p) }),
      /does not fit the model's 1024-token window/,
    );
    assert.deepEqual(pieces.at(-1), {
      kind: "error",
      text: "This request does not fit the model's 1024-token window: the instructions take 4 tokens, 0 tools 0, attachments 0, the message and its tool outputs 2052, earlier turns 0. Send a shorter message or start a new conversation, or choose a model with a larger window.",
    });
    assert.equal(model.requests.length, 0, "nothing was sent that the server would refuse");
  });

  it("with the window unknown, stubs against 8k but writes no summary", async () => {
    const turns: Turn[] = [
      ...Array.from({ length: 8 }, (_, i) => calls([["read_log", JSON.stringify({ part: i })]])),
      says("ok"),
    ];
    const { model, summaries } = windowed(turns, 0);
    const a = agent(model, "", [readLog]);
    assert.equal(await run(a, "read"), "ok");
    assert.equal(summaries.length, 0);
    assert.ok(
      model.requests
        .at(-1)!
        .messages.some((m) => m.role === "tool" && m.text.startsWith("[output of read_log")),
    );
  });

  it("a summary that fails leaves a note and the run goes on", async () => {
    let summaryAsked = 0;
    const model = scripted(
      Array.from({ length: 5 }, () => (request: Request): Turn => {
        if (request.summary) {
          summaryAsked++;
          throw new Error("the model is busy");
        }
        return { ...says("Answered."), window: 1024 };
      }),
    );
    const a = agent(model);
    a.window = 1024;
    for (let i = 0; i < 20; i++)
      a.history.push({ role: "user", text: `q${i} ${"w ".repeat(200)}` }, { role: "assistant", text: "a" });
    assert.equal(await run(a, "last"), "Answered.");
    assert.equal(summaryAsked, 1);
    assert.match(
      a.condensing?.summary?.text ?? "",
      /earlier messages were left out to fit the model's window[\s\S]*The person first asked: q0/,
    );
  });

  it("calibrates its estimate by the prompt tokens the server reports", async () => {
    // The server counts twice what chars/4 says: the next view must leave room accordingly.
    const model = scripted(
      Array.from({ length: 6 }, (_, i) => (request: Request): Turn => {
        const estimated = request.messages.reduce((n, m) => n + messageTokens(m), 0);
        const turn = i < 4 ? calls([["read_log", JSON.stringify({ part: i })]]) : says("ok");
        return { ...turn, input: estimated * 2, window: 8192 };
      }),
    );
    const a = agent(model, "", [readLog]);
    a.window = 8192;
    await run(a, "read");
    assert.ok((a.condensing?.ratio ?? 1) > 1.8, `ratio ${a.condensing?.ratio}`);
    const last = model.requests.at(-1)!;
    assert.ok(last.messages.some((m) => m.role === "tool" && m.text.startsWith("[output of read_log")));
  });

  it("learns the window from the server's refusal and sends the request again, condensed", async () => {
    server = await openaiServer();
    server.window = 2500;
    const model = endpoint({ baseURL: server.baseURL, model: "m1", window: 0, retry: { baseMs: 1 } });
    scriptLongTask(server, 3);
    const a = agent(model, "", [readLog]);
    assert.equal(await run(a, "read the log"), finalAnswer(3));
    assert.equal(server.overflowed, 1);
    assert.equal(a.window, 2500);
    // Only the refused request was over the window; the one sent again fit.
    assert.equal(server.requests.filter((r) => promptTokens(r.body) > 2500).length, 1);
  });

  it("finishes the long task on an 8k window with no overflow (the benchmark, 30 rounds)", async () => {
    server = await openaiServer();
    server.window = 8192;
    server.models = [{ id: "small", context_length: 8192 }];
    scriptLongTask(server, 30);
    const a = agent(endpoint({ baseURL: server.baseURL, model: "small", retry: { attempts: 0 } }), "", [
      readLog,
    ]);
    a.rounds = 31;
    assert.equal(await run(a, "read all 30 parts"), finalAnswer(30));
    assert.equal(server.overflowed, 0);
    assert.ok(Math.max(...server.requests.map((r) => promptTokens(r.body))) <= 8192);
  });
});
