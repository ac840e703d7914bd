import assert from "node:assert/strict";
import { fixedTokens } from "../../../src/agent/condense";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import type { Turn } from "../../../src/agent/types";
import { mkdtemp, readFile, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asked, conversation, retried, stopped } from "../../../src/chat/make";
import { serveConversations } from "../../../src/chat/runner/runner";
import { Store } from "../../../src/chat/store/store";
import { chatPath } from "../../../src/chat/store/listing";
import { CUT_SHORT } from "../../../src/chat/runner/answer-items";
import { z } from "zod";
import { answerOf, answered, bench, gate, hostOf, transcript, until, type Bench } from "./runner-fixture";
import { fileRef } from "../../../src/protocol/file-refs";

describe("chat runner: answering", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  it("writes a message's answer as reasoning and text items, marks it done and writes the Context row", async () => {
    const turn: Turn = {
      ...says("Hello **there**, how can I help?"),
      reasoning: "The person greets me.",
      input: 120,
      tokens: 30,
      window: 8192,
    };
    const model = scripted([turn], "m1");
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const user = asked("Hi", chat);
    await b.store.putDurable("items", user);
    await answered(b.store, user.id);
    const answer = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      answer.map((i) => [i.kind, i.text, i.done]),
      [
        ["reasoning", "The person greets me.", true],
        ["text", "Hello **there**, how can I help?", true],
      ],
    );
    assert.ok(
      answer.every((i) => i.id > user.id),
      "the answer sorts after its message",
    );
    assert.deepEqual(b.store.get("contexts", chat), {
      id: chat,
      used: 150,
      window: 8192,
      total: { input: 120, output: 30, cached: 0 },
      // What every request carried (instructions and tools), for the meter.
      fixed: fixedTokens(model.requests[0].instructions, model.requests[0].tools),
    });
    assert.deepEqual(answer[1].usage, {
      input: 120,
      output: 30,
      cached: 0,
    });
    assert.equal(model.requests[0].messages.at(-1)?.role, "user");
    assert.equal(b.runner.running(chat), false);
  });

  it("lets the store coalesce a growing answer: far fewer journal lines than pieces", async () => {
    const long = "word ".repeat(2000);
    const model = scripted([says(long), says("Title")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const user = await b.send(asked("Write a lot", chat));
    await b.runner.idle();
    await b.store.flush();
    // The answer's lines, in its conversation's own journal (the main one keeps the list).
    const answerId = answerOf(b.store, chat, user.id)[0].id;
    const lines = (await readFile(chatPath(b.dir, chat), "utf8"))
      .split("\n")
      .filter((line) => line.includes(answerId));
    assert.equal(answerOf(b.store, chat, user.id)[0].text, long);
    assert.ok(
      lines.length > 0 && lines.length < 20,
      `${lines.length} journal lines for ${long.length / 4} pieces`,
    );
  });

  it("answers two conversations side by side while one conversation's messages wait their turn", async () => {
    const bDone = gate();
    const order: string[] = [];
    const slow = scripted(
      [
        async () => {
          order.push("A1 start");
          await bDone.promise;
          order.push("A1 end");
          return says("first answer");
        },
        says("A title"),
        (request) => {
          order.push("A2 start");
          const seen = request.messages.map((m) => `${m.role}:${m.text}`);
          assert.deepEqual(seen, ["user:one", "assistant:first answer", "user:two"]);
          return says("second answer");
        },
      ],
      "slow",
    );
    const quick = scripted([() => (order.push("B"), says("other chat")), says("B title")], "quick");
    b = await bench(hostOf({ default: slow, quick }));
    const a = b.chat();
    const c = b.chat();
    const a1 = asked("one", a);
    const a2 = asked("two", a);
    const b1 = asked("hello", c, "quick");
    b.store.put("items", a1);
    b.store.put("items", a2);
    await b.send(b1);
    assert.equal(b.store.get("items", a1.id)?.done, false, "A1 is still running while B was answered");
    bDone.open();
    await answered(b.store, a2.id);
    assert.deepEqual(order, ["A1 start", "B", "A1 end", "A2 start"]);
    // Each answer reads under its own message though both messages came before either answer.
    assert.deepEqual(transcript(b.store, a), [
      "user:one",
      "text:first answer",
      "user:two",
      "text:second answer",
    ]);
  });

  it("gives a follow-up turn the earlier tool calls and their results exactly", async () => {
    const lookup = tool(
      "lookup",
      "Looks a word up.",
      z.object({ word: z.string() }),
      ({ word }) => `${word}: a greeting`,
      {
        readOnly: true,
      },
    );
    const model = scripted([
      {
        ...says("Let me look."),
        calls: calls([["lookup", '{"word":"hello"}']]).calls,
        reasoning: "I should check.",
      },
      says("It is a greeting."),
      says("Words"),
      says("You asked about hello."),
    ]);
    b = await bench(hostOf({ default: model }, { tools: () => [lookup] }));
    const chat = b.chat();
    await b.send(asked("What is hello?", chat));
    await b.send(asked("What did I ask?", chat));
    const history = model.requests[3].messages;
    assert.equal(history.length, 5);
    const [u, call, result, answer, now] = history;
    assert.deepEqual(u, { role: "user", text: "What is hello?" });
    assert.equal(call.role, "assistant");
    assert.equal(call.role === "assistant" && call.text, "Let me look.");
    assert.equal(call.role === "assistant" && call.reasoning, "I should check.");
    const made = call.role === "assistant" ? call.calls : undefined;
    assert.equal(made?.length, 1);
    assert.equal(made?.[0].name, "lookup");
    assert.equal(made?.[0].arguments, '{"word":"hello"}');
    assert.deepEqual(result, { role: "tool", call: made?.[0].id, name: "lookup", text: "hello: a greeting" });
    assert.deepEqual(answer, { role: "assistant", text: "It is a greeting." });
    assert.deepEqual(now, { role: "user", text: "What did I ask?" });
  });

  it("retry answers the last message again from the model it names and keeps the old answer above", async () => {
    const first = scripted(
      [says("Paris, I think."), says("Capitals"), says("Next: you said Lyon.")],
      "first",
    );
    const other = scripted([says("Lyon.")], "other");
    b = await bench(hostOf({ default: first, other }));
    const chat = b.chat();
    const user = await b.send(asked("Capital?", chat));
    const again = await b.send(retried(chat, "other"));
    assert.deepEqual(transcript(b.store, chat), [
      "user:Capital?",
      "text:Paris, I think.",
      "retry:",
      "text:Lyon.",
    ]);
    assert.equal(answerOf(b.store, chat, again.id)[0].model, "other");
    // The retried model reads the message alone, not the answer it replaces.
    assert.deepEqual(
      other.requests[0].messages.map((m) => m.text),
      ["Capital?"],
    );
    await b.send(asked("And then?", chat));
    assert.deepEqual(
      first.requests[2].messages.map((m) => `${m.role}:${m.text}`),
      ["user:Capital?", "assistant:Lyon.", "user:And then?"],
      "a follow-up reads the latest answer",
    );
    assert.equal(b.store.get("items", user.id)?.done, true);
  });

  it("stop ends the run, keeps what was written, and the next message is answered", async () => {
    const started = gate();
    const wait = tool(
      "wait",
      "Waits.",
      z.object({}),
      (_input, signal) =>
        new Promise<string>((_resolve, reject) => {
          started.open();
          signal.addEventListener("abort", () => reject(new Error("aborted")));
        }),
      { readOnly: true },
    );
    const model = scripted([
      { ...says("Working on it."), calls: calls([["wait", "{}"]]).calls },
      says("Next one."),
    ]);
    // The first message is stopped, so no title is asked: the second turn answers the next message.
    b = await bench(hostOf({ default: model }, { tools: () => [wait] }));
    const chat = b.chat();
    const user = asked("Do the long thing", chat);
    b.store.put("items", user);
    await started.promise;
    assert.equal(b.runner.running(chat), true);
    const stop = stopped(chat);
    b.store.put("items", stop);
    await answered(b.store, user.id);
    await answered(b.store, stop.id);
    const answer = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      answer.map((i) => [i.kind, i.kind === "call" ? i.state : i.text]),
      [
        ["text", "Working on it."],
        ["call", "failed"],
      ],
    );
    assert.equal(answer[1].text, CUT_SHORT);
    assert.ok(answer.every((i) => i.done));
    const next = await b.send(asked("Something else", chat));
    assert.equal(answerOf(b.store, chat, next.id)[0].text, "Next one.");
  });

  it("writes an error item that says why when the model fails, and when its model is not available", async () => {
    const failing = scripted([
      () => {
        throw new Error("The endpoint answered 503: upstream is down");
      },
    ]);
    b = await bench(hostOf({ default: failing }));
    const chat = b.chat();
    await b.send(asked("Hi", chat));
    assert.deepEqual(transcript(b.store, chat), [
      "user:Hi",
      "error:The endpoint answered 503: upstream is down",
    ]);
    const gone = await b.send(asked("Hi again", chat, "nowhere:model"));
    const error = answerOf(b.store, chat, gone.id);
    assert.equal(error.length, 1);
    assert.equal(error[0].kind, "error");
    assert.match(error[0].text, /nowhere:model is not available/);
  });

  it("writes an error item when the editor's tools cannot be read, and answers the next message", async () => {
    let broken = true;
    const model = scripted([says("Now it works."), says("Title")]);
    b = await bench(
      hostOf(
        { default: model },
        {
          tools: () => {
            if (broken) throw new Error("the workspace is gone");
            return [];
          },
        },
      ),
    );
    const chat = b.chat();
    await b.send(asked("Hi", chat));
    assert.deepEqual(transcript(b.store, chat), [
      "user:Hi",
      "error:The answer failed: the workspace is gone",
    ]);
    broken = false;
    const next = await b.send(asked("Again", chat));
    assert.equal(answerOf(b.store, chat, next.id)[0].text, "Now it works.");
  });

  it("says a missing attachment in an error item instead of answering without it", async () => {
    const model = scripted([says("never")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const user = asked("Read this", chat, "", [fileRef(`${b.dir}/missing.txt`, "missing.txt")]);
    await b.send(user);
    const [error] = answerOf(b.store, chat, user.id);
    assert.equal(error.kind, "error");
    assert.match(error.text, /Cannot read missing\.txt: the file does not exist/);
    assert.equal(model.requests.length, 0);
  });

  it("titles a conversation with the first words, then with the model's title after the first answer", async () => {
    const titled = gate();
    const model = scripted([
      says("Sure."),
      async () => {
        await titled.promise;
        return says('"Planning a trip to Lyon"');
      },
      says("Again."),
    ]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    await b.send(asked("Help me plan a trip to Lyon next spring please", chat));
    assert.equal(b.store.get("conversations", chat)?.title, "Help me plan a trip to Lyon next spring please");
    titled.open();
    await until(() => b!.store.get("conversations", chat)?.title === "Planning a trip to Lyon", "the title");
    await b.send(asked("More", chat));
    assert.equal(b.store.get("conversations", chat)?.title, "Planning a trip to Lyon", "titled once");
    assert.equal(model.requests.length, 3);
  });

  it("keeps the first words as the title when naming fails", async () => {
    const model = scripted([says("Sure.")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    await b.send(asked("What is a monad", chat));
    await b.runner.idle();
    assert.equal(model.requests.length, 2, "the title was asked");
    assert.equal(b.store.get("conversations", chat)?.title, "What is a monad");
  });

  it("marks a run the runner's closing cut short as interrupted", async () => {
    const never = scripted([
      (request) =>
        new Promise<Turn>((_resolve, reject) =>
          request.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        ),
    ]);
    b = await bench(hostOf({ default: never }));
    const chat = b.chat();
    const user = asked("Hi", chat);
    b.store.put("items", user);
    await until(() => never.requests.length === 1, "the model to be asked");
    await b.runner.close();
    assert.equal(b.store.get("items", user.id)?.done, true);
    const [error] = answerOf(b.store, chat, user.id);
    assert.equal(error.kind, "error");
    assert.equal(error.state, "interrupted");
  });

  it("stops a message whose stop came right after it, before its answer began", async () => {
    const model = scripted([says("never")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const user = asked("Oops", chat);
    const stop = stopped(chat);
    b.store.put("items", user);
    b.store.put("items", stop);
    await answered(b.store, user.id);
    await answered(b.store, stop.id);
    assert.deepEqual(answerOf(b.store, chat, user.id), []);
    assert.equal(model.requests.length, 0);
  });

  it("answers with the message's model, else the assistant's, else the default, and the assistant's instructions", async () => {
    const chosen = scripted([says("from the message's model")], "chosen");
    const own = scripted([says("from the assistant's model"), says("Title")], "own");
    const fallback = scripted([says("from the default")], "default");
    b = await bench(hostOf({ default: fallback, chosen, own }), {
      model: "own",
      instructions: "You answer in French.",
    });
    const chat = b.chat();
    await b.send(asked("Hi", chat));
    await b.send(asked("Hi again", chat, "chosen"));
    assert.deepEqual(transcript(b.store, chat), [
      "user:Hi",
      "text:from the assistant's model",
      "user:Hi again",
      "text:from the message's model",
    ]);
    assert.match(own.requests[0].instructions, /^You answer in French\./);
    assert.equal(fallback.requests.length, 0);
  });
});

describe("chat runner: serveConversations", () => {
  it("makes the first assistant when there is none and answers with it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "tandem-serve-"));
    const store = await Store.open(dir);
    const model = scripted([says("Hello."), says("Greeting")]);
    const runner = serveConversations(store, hostOf({ default: model }));
    try {
      const [made] = store.rows("assistants");
      assert.equal(made.name, "Tandem");
      const c = conversation(made.id);
      store.put("conversations", c);
      const user = asked("Hi", c.id);
      store.put("items", user);
      await answered(store, user.id);
      assert.equal(answerOf(store, c.id, user.id)[0].text, "Hello.");
      assert.match(model.requests[0].instructions, /^You are Tandem/);
    } finally {
      await runner.close();
      await store.close();
      await rm(dir, { recursive: true, force: true });
    }
  });
});
