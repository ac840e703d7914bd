import assert from "node:assert/strict";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoint } from "../../../src/agent/endpoint";
import { calls, says, scripted } from "../../../src/agent/scripted";
import type { Request, Turn } from "../../../src/agent/types";
import { asked } from "../../../src/chat/make";
import { fingerprint } from "../../../src/chat/runner/summary";
import { costOf, pricesFor } from "../../../src/chat/runner/usage";
import { finalAnswer, logPart, readLog, scriptLongTask } from "../../fixtures/long-task";
import { answer, openaiServer, promptTokens, type FixtureServer } from "../../fixtures/openai-server";
import { answerOf, bench, gate, hostOf, transcript, until, type Bench } from "./runner-fixture";

/** A scripted model with a 2k window whose summary requests are answered with `summary` and counted. */
function small(turns: Turn[], summary = "The person asked about the weather; it was sunny.") {
  const summaries: Request[] = [];
  let next = 0;
  const model = scripted(
    Array.from({ length: 40 }, () => (request: Request): Turn => {
      if (request.summary) {
        summaries.push(request);
        return says(summary);
      }
      const turn = turns[next++];
      if (!turn) throw new Error("no turn left");
      return { ...turn, window: 2048 };
    }),
  );
  // Its window is known before its first turn, as an endpoint's is from its model list.
  return { model: Object.assign(model, { window: () => Promise.resolve(2048) }), summaries };
}

describe("chat runner: condensing, titles and tokens", () => {
  let b: Bench | undefined;
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await server?.close();
    server = undefined;
  });

  it("finishes a 30-round tool-using task on an 8k window with no overflow, the transcript whole", async () => {
    server = await openaiServer();
    server.window = 8192;
    server.models = [{ id: "small", context_length: 8192 }];
    scriptLongTask(server, 30);
    const model = endpoint({ baseURL: server.baseURL, model: "small", retry: { attempts: 0 } });
    b = await bench(hostOf({ default: model }, { tools: () => [readLog], limits: { rounds: 40 } }));
    const chat = b.chat();
    const user = await b.send(asked("Read all 30 parts of the log", chat));
    const answer = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      answer.filter((i) => i.kind === "error").map((i) => i.text),
      [],
    );
    assert.equal(answer.findLast((i) => i.kind === "text")?.text, finalAnswer(30));
    assert.equal(server.overflowed, 0);
    assert.ok(server.requests.every((r) => promptTokens(r.body) <= 8192));
    // The person's transcript keeps every output whole; only the model's view was condensed.
    const outputs = answer.filter((i) => i.kind === "call").map((i) => i.output);
    assert.equal(outputs.length, 30);
    outputs.forEach((output, i) => assert.equal(output, logPart(i)));
    const context = b.store.get("contexts", chat)!;
    assert.ok(
      context.used <= 8192 && context.window === 8192,
      `the meter shows the model's view: ${context.used}`,
    );
  });

  it("marks where the view was summarised, and the next message takes the summary up instead of asking again", async () => {
    const long = (i: number): string => `Question ${i}: ${"tell me more about the weather ".repeat(20)}`;
    const { model, summaries } = small([says("First."), says("Second."), says("Third.")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    // A long earlier conversation, as stored items.
    for (let i = 0; i < 12; i++) {
      const u = { ...asked(long(i), chat), done: true };
      b.store.put("items", u);
      b.store.put("items", {
        ...asked("", chat),
        id: `${u.id}.0000`,
        kind: "text",
        text: `Answer ${i}.`,
        done: true,
      });
    }
    const first = await b.send(asked("And tomorrow?", chat));
    const marker = answerOf(b.store, chat, first.id).find((i) => i.kind === "summary");
    assert.equal(marker?.text, "The person asked about the weather; it was sunny.");
    assert.equal(summaries.length, 1);
    const sent = model.requests.filter((r) => !r.summary).at(-1)!.messages;
    assert.match(sent[0].text, /^\[Earlier turns of this conversation were condensed/);
    await b.send(asked("And the day after?", chat));
    assert.equal(summaries.length, 1, "the next run took the summary up");
    const again = model.requests.filter((r) => !r.summary).at(-1)!.messages;
    assert.match(again[0].text, /Summary of them:\]\nThe person asked about the weather/);
    assert.equal(again.at(-1)?.text, "And the day after?");
    // The stored conversation is untouched.
    assert.equal(b.store.items(chat).filter((i) => i.kind === "user").length, 14);
  });

  it("/compact summarises the conversation on demand, and the model is sent the summary from then on", async () => {
    const { model, summaries } = small([says("Sunny."), says("Rainy.")], "They asked about today: sunny.");
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    await b.send(asked(`What is the weather today? ${"Tell me in detail. ".repeat(40)}`, chat));
    await b.runner.idle();
    const viewed = b.store.get("contexts", chat)!.used;
    const compact = await b.send(asked("/compact", chat));
    assert.equal(summaries.length, 1);
    const now = b.store.get("contexts", chat)!;
    assert.ok(
      now.used > 0 && now.used < viewed,
      `the meter shows the condensed view: ${viewed} → ${now.used}`,
    );
    assert.match(
      summaries[0].messages[0].text,
      /Person: What is the weather today\? Tell me in detail\.[^\n]*\n\nAgent: Sunny\./,
    );
    assert.deepEqual(
      answerOf(b.store, chat, compact.id).map((i) => [i.kind, i.text]),
      [["summary", "They asked about today: sunny."]],
    );
    await b.send(asked("And tomorrow?", chat));
    const sent = model.requests.at(-1)!.messages;
    assert.equal(sent.length, 1);
    assert.match(
      sent[0].text,
      /Summary of them:\]\nThey asked about today: sunny\.\n\[End of the summary\. You wrote it[^\]]*\]\n\nAnd tomorrow\?$/,
    );
    assert.ok(!sent.some((m) => m.text === "/compact"), "the command is not sent to the model");
  });

  it("after a restart, the next message is sent the last /compact's summary, not the whole conversation", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tandem-compact-"));
    try {
      const before = small([says("Sunny.")], "They asked about today: sunny.");
      b = await bench(hostOf({ default: before.model }), {}, dir);
      const chat = b.chat();
      await b.send(asked("What is the weather today?", chat));
      await b.runner.idle();
      await b.send(asked("/compact", chat));
      await b.end();
      const after = small([says("Rainy.")]);
      b = await bench(hostOf({ default: after.model }), {}, dir);
      await b.send(asked("And tomorrow?", chat));
      assert.equal(after.summaries.length, 0, "no summary asked again");
      const sent = after.model.requests.at(-1)!.messages;
      assert.equal(sent.length, 1);
      assert.match(sent[0].text, /Summary of them:\]\nThey asked about today: sunny\.[\s\S]*And tomorrow\?$/);
    } finally {
      await b?.end();
      b = undefined;
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("/compact with nothing to condense says so", async () => {
    const { model } = small([]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const compact = await b.send(asked("/compact", chat));
    assert.deepEqual(transcript(b.store, chat), ["user:/compact", "error:There is nothing to condense yet."]);
    assert.equal(answerOf(b.store, chat, compact.id).length, 1);
    assert.equal(model.requests.length, 0);
  });

  it("names the conversation after the run has ended, without holding the next message", async () => {
    const titled = gate();
    const order: string[] = [];
    const model = scripted([
      () => (order.push("answer 1"), says("One.")),
      async () => {
        order.push("title asked");
        await titled.promise;
        order.push("title written");
        return says("Counting to two");
      },
      () => (order.push("answer 2"), says("Two.")),
    ]);
    b = await bench(
      hostOf({ default: model }, { running: (chat, running) => order.push(running ? "running" : "ended") }),
    );
    const chat = b.chat();
    b.store.put("items", asked("Count to one", chat));
    const second = asked("Now two", chat);
    b.store.put("items", second);
    try {
      await until(() => b!.store.get("items", second.id)?.done === true, "the second answer");
      assert.deepEqual(order, [
        "running",
        "answer 1",
        "ended",
        "title asked",
        "running",
        "answer 2",
        "ended",
      ]);
    } finally {
      titled.open();
    }
    await b.runner.idle();
    assert.equal(order.at(-1), "title written");
    assert.equal(b.store.get("conversations", chat)?.title, "Counting to two");
  });

  it("writes each answer's tokens and cost, and the conversation's total, when prices are known", async () => {
    const turn = (input: number, tokens: number, cached: number): Turn => ({
      ...says("ok"),
      input,
      tokens,
      cached,
      window: 32_000,
    });
    const model = Object.assign(
      scripted([
        { ...calls([["noop", "{}"]]), input: 1000, tokens: 50, window: 32_000 },
        turn(1200, 80, 1000),
        says("T"),
        turn(2000, 10, 0),
      ]),
      { prices: { input: 3, output: 15, cached: 0.3 } },
    );
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const first = await b.send(asked("Hi", chat));
    await b.runner.idle();
    const usage = answerOf(b.store, chat, first.id).findLast((i) => i.kind === "text")?.usage;
    const expected = { input: 2200, output: 130, cached: 1000 };
    assert.deepEqual(usage, { ...expected, cost: costOf(expected, model.prices) });
    // 1200 read fresh at $3, 1000 from the cache at $0.30, 130 written at $15 (per million).
    assert.equal(usage?.cost, 0.00585);
    await b.send(asked("Again", chat));
    const second = { input: 2000, output: 10, cached: 0 };
    assert.deepEqual(b.store.get("contexts", chat)?.total, {
      input: 4200,
      output: 140,
      cached: 1000,
      cost: costOf(expected, model.prices) + costOf(second, model.prices),
    });
    assert.equal(b.store.get("contexts", chat)?.used, 2010, "the meter shows the last turn's view");
  });

  it("takes the prices an endpoint's model list gives (OpenRouter's pricing), reading the list once", async () => {
    server = await openaiServer();
    server.models = [
      {
        id: "paid",
        context_length: 32_000,
        pricing: { prompt: "0.000003", completion: "0.000015", input_cache_read: "0.0000003" },
      },
    ];
    server.script(answer("Hello.", { prompt: 1000, completion: 100 }), answer("Title"));
    const model = endpoint({ baseURL: server.baseURL, model: "paid", retry: { attempts: 0 } });
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const user = await b.send(asked("Hi", chat));
    const text = answerOf(b.store, chat, user.id).findLast((i) => i.kind === "text");
    assert.deepEqual(text?.usage, { input: 1000, output: 100, cached: 0, cost: 0.0045 });
    assert.equal(server.all.filter((r) => r.path === "/v1/models").length, 1);
  });

  it("reads an endpoint's prices setting by model id, with care", () => {
    const setting = { "gpt-4o": { input: 2.5, output: 10, cached: 1.25 }, "*": { input: 1, output: 2 } };
    assert.deepEqual(pricesFor(setting, "gpt-4o"), { input: 2.5, output: 10, cached: 1.25 });
    assert.deepEqual(pricesFor(setting, "other"), { input: 1, output: 2 });
    assert.equal(pricesFor({ m: { input: "2", output: 1 } }, "m"), undefined);
    assert.equal(pricesFor({ m: { input: -1, output: 1 } }, "m"), undefined);
    assert.equal(pricesFor({ m: { input: 1, output: 1 } }, "__proto__"), undefined);
    assert.equal(pricesFor(undefined, "m"), undefined);
    assert.equal(pricesFor([], "m"), undefined);
  });

  it("fingerprints what messages say, not their ids", () => {
    const live = [
      { role: "user" as const, text: "read" },
      {
        role: "assistant" as const,
        text: "",
        calls: [{ id: "call_0", name: "read_log", arguments: '{"part":0}' }],
      },
      { role: "tool" as const, call: "call_0", name: "read_log", text: "x" },
    ];
    const rebuilt = [
      live[0],
      { ...live[1], calls: [{ id: "call_01ABC", name: "read_log", arguments: '{"part":0}' }] },
      { ...live[2], call: "call_01ABC" },
    ];
    assert.equal(fingerprint(live), fingerprint(rebuilt));
    assert.notEqual(fingerprint(live), fingerprint([...live.slice(0, 2), { ...live[2], text: "y" }]));
  });
});
