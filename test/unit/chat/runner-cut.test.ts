import assert from "node:assert/strict";
import { endpoint } from "../../../src/agent/endpoint";
import { memoryFacts } from "../../../src/agent/facts";
import { asked } from "../../../src/chat/make";
import { CUT_NOTICE } from "../../../src/protocol/rows";
import { finalAnswer, readLog, scriptLongTask } from "../../fixtures/long-task";
import { asOllama } from "../../fixtures/model-servers";
import { answer, openaiServer, promptTokens, type FixtureServer } from "../../fixtures/openai-server";
import { answerOf, bench, hostOf, until, type Bench } from "./runner-fixture";

describe("chat runner: a model server that cuts prompts without a word", () => {
  let b: Bench | undefined;
  let server: FixtureServer | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await server?.close();
    server = undefined;
  });

  it("a 60-round task on a silently cutting 4k server: the cut is noticed, said once, and every later request fits", async function () {
    this.timeout(150_000);
    server = await openaiServer();
    // A server in front of the model says nothing of its window (Tandem assumes 8k) and cuts at 4k.
    server.models = [{ id: "small", object: "model" }];
    server.cut = 4096;
    scriptLongTask(server, 60);
    const model = endpoint({ baseURL: server.baseURL, model: "small", retry: { attempts: 0 } });
    b = await bench(hostOf({ default: model }, { tools: () => [readLog], limits: { rounds: 70 } }));
    const chat = b.chat();
    const user = asked("Read all 60 parts of the log", chat);
    b.store.put("items", user);
    // Sixty rounds through the SDK take a while on a loaded machine: waited for, however long.
    await until(() => b!.store.get("items", user.id)?.done === true, "the 60-round answer", 120_000);
    const items = answerOf(b.store, chat, user.id);
    assert.equal(items.findLast((i) => i.kind === "text")?.text, finalAnswer(60));
    const notices = items.filter((i) => i.kind === "error");
    assert.equal(notices.length, 1, notices.map((i) => i.text).join("\n"));
    assert.equal(notices[0].name, CUT_NOTICE);
    assert.ok(notices[0].text.includes("the model read 4,096"), notices[0].text);
    assert.ok(
      notices[0].text.includes("raise the context length in the model server's settings"),
      notices[0].text,
    );
    // What the server recorded: a few requests were cut before the count showed it, none after.
    const sizes = server.requests.map((r) => promptTokens(r.body));
    const lastOver = sizes.findLastIndex((n) => n > 4096);
    assert.ok(server.truncated >= 1 && server.truncated <= 2, `cut ${server.truncated} times`);
    assert.equal(sizes.filter((n) => n > 4096).length, server.truncated);
    assert.ok(lastOver < 12, `the last request over 4k was request ${lastOver} of ${sizes.length}`);
    assert.ok(sizes.length > 60);
    assert.equal(b.store.get("contexts", chat)?.window, 4096, "the meter shows the window really served");
  });

  it("on Ollama, the conversation says the fix, and the next message is fitted from its first request", async () => {
    server = await openaiServer();
    // An older Ollama cuts at its 2k default; Tandem assumed the 4k its documentation names.
    asOllama(server, "qwen2.5:0.5b", { trained: 32_768 });
    server.cut = 2048;
    const counted = (text: string) => (request: { body: Record<string, unknown> }) =>
      answer(text, { prompt: promptTokens(request.body), completion: 3 });
    // The answer, the conversation's title, then the summary the fitted view needs, and the answer.
    server.script(
      counted("It is long."),
      counted("Long text"),
      counted("Summary: a long text."),
      counted("Yes."),
    );
    const facts = memoryFacts();
    const model = endpoint({ baseURL: server.baseURL, model: "qwen2.5:0.5b", facts });
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const first = await b.send(asked(`Is this long? ${"a long sentence of words ".repeat(500)}`, chat));
    const notice = answerOf(b.store, chat, first.id).find((i) => i.name === CUT_NOTICE);
    assert.ok(notice, "a notice in the conversation");
    assert.ok(notice.text.includes("Tandem now fits every request to 2,048 tokens"), notice.text);
    assert.ok(notice.text.includes("OLLAMA_CONTEXT_LENGTH=16384"), notice.text);
    assert.ok(notice.text.includes("/set parameter num_ctx 16384"), notice.text);
    const before = server.requests.length;
    const second = await b.send(asked("And is it short?", chat));
    const items2 = answerOf(b.store, chat, second.id);
    assert.equal(
      items2.findLast((i) => i.kind === "text")?.text,
      "Yes.",
      JSON.stringify(items2.map((i) => [i.kind, i.text.slice(0, 200)])),
    );
    const later = server.requests.slice(before).map((r) => promptTokens(r.body));
    assert.ok(later.length > 0 && later.every((n) => n <= 2048), `later requests: ${later.join(", ")}`);
    assert.equal(server.truncated, 1);
  });
});
