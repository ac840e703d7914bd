import assert from "node:assert/strict";
import { says, scripted } from "../../../src/agent/scripted";
import type { Turn } from "../../../src/agent/types";
import { asked, retried, stopped } from "../../../src/chat/make";
import { bench, gate, hostOf, until, type Bench } from "./runner-fixture";

describe("chat runner: a conversation's title after a first answer that did not end well", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  it("a first answer that failed is named after a successful retry", async () => {
    const model = scripted([
      () => {
        throw new Error("the server is down");
      },
      says("Here is the plan."),
      says('"Planning a trip to Lyon"'),
    ]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    await b.send(asked("Help me plan a trip to Lyon next spring please", chat));
    await b.runner.idle();
    assert.equal(model.requests.length, 1, "no title is asked after a failed answer");
    assert.equal(b.store.get("conversations", chat)?.title, "Help me plan a trip to Lyon next spring please");
    await b.send(retried(chat));
    await until(() => b!.store.get("conversations", chat)?.title === "Planning a trip to Lyon", "the title");
    assert.equal(model.requests.length, 3);
  });

  it("a first answer that was stopped is named after a successful retry", async () => {
    const started = gate();
    const model = scripted([
      (request) => {
        started.open();
        return new Promise<Turn>((_resolve, reject) =>
          request.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        );
      },
      says("Sure."),
      says("Monads, briefly"),
    ]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    const first = asked("What is a monad", chat);
    b.store.put("items", first);
    await started.promise;
    await b.send(stopped(chat));
    await until(() => b!.store.get("items", first.id)?.done === true, "the stopped answer");
    await b.runner.idle();
    assert.equal(model.requests.length, 1, "no title is asked after a stopped answer");
    await b.send(retried(chat));
    await until(() => b!.store.get("conversations", chat)?.title === "Monads, briefly", "the title");
  });

  it("a retry of a conversation already named keeps its name", async () => {
    const model = scripted([says("Sure."), says("Monads, briefly"), says("Again.")]);
    b = await bench(hostOf({ default: model }));
    const chat = b.chat();
    await b.send(asked("What is a monad", chat));
    await until(() => b!.store.get("conversations", chat)?.title === "Monads, briefly", "the title");
    await b.send(retried(chat));
    await b.runner.idle();
    assert.equal(model.requests.length, 3, "no second title was asked");
    assert.equal(b.store.get("conversations", chat)?.title, "Monads, briefly");
  });
});
