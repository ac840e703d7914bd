import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import { asked } from "../../../src/chat/make";
import { PanelView } from "../../../src/chat/panel/view";
import { recordingHost } from "../../fixtures/view-host";
import { answerOf, answered, bench, gate, hostOf, transcript, until, type Bench } from "./runner-fixture";

describe("chat runner: steering a run", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  /** A conversation already named, so no title is asked and the model's turns are only the answers'. */
  function named(bench: Bench): string {
    const chat = bench.chat();
    bench.store.put("conversations", { ...bench.store.get("conversations", chat)!, title: "Named" });
    return chat;
  }

  it("gives a message sent during round 1 to round 2, lets round 1's call finish, and answers it once", async () => {
    const started = gate();
    const release = gate();
    const slow = tool(
      "slow",
      "Reads slowly.",
      z.object({}),
      async () => {
        started.open();
        await release.promise;
        return "the file's text";
      },
      { readOnly: true },
    );
    const model = scripted([calls([["slow", "{}"]]), says("Résumé en français.")]);
    b = await bench(hostOf({ default: model }, { tools: () => [slow] }));
    const chat = named(b);
    const first = asked("Summarize the file.", chat);
    b.store.put("items", first);
    await started.promise;
    const steer = asked("Answer in French.", chat);
    assert.equal(await b.runner.steer(steer), true, "the run going on takes it");
    release.open();
    await answered(b.store, first.id);
    await b.runner.idle();
    // Round 2 was asked with round 1's result and then the person's message.
    assert.deepEqual(
      model.requests[1].messages.map((m) => [m.role, m.text]),
      [
        ["user", "Summarize the file."],
        ["assistant", ""],
        ["tool", "the file's text"],
        ["user", "Answer in French."],
      ],
    );
    // The person sees their message in the transcript, and what came after it reads under it.
    assert.deepEqual(transcript(b.store, chat), [
      "user:Summarize the file.",
      "call:slow/done",
      "user:Answer in French.",
      "text:Résumé en français.",
    ]);
    assert.deepEqual(
      answerOf(b.store, chat, steer.id).map((i) => i.text),
      ["Résumé en français."],
    );
    assert.equal(b.store.get("items", steer.id)?.done, true);
    // Not answered twice: the model was asked two turns, no more (a third would fail the script).
    assert.equal(model.requests.length, 2);
    assert.equal(
      b.store.items(chat).some((i) => i.kind === "error"),
      false,
    );
  });

  it("answers a message that came after the run's last round on its own, once the run ended", async () => {
    const writing = gate();
    const release = gate();
    const model = scripted([
      async () => {
        writing.open();
        await release.promise;
        return says("First answer.");
      },
      says("Second answer."),
    ]);
    b = await bench(hostOf({ default: model }));
    const chat = named(b);
    const first = asked("One", chat);
    b.store.put("items", first);
    await writing.promise;
    const late = asked("Two", chat);
    // The run goes on (its last turn streams), so it is steered, but no round boundary comes.
    assert.equal(await b.runner.steer(late), true);
    release.open();
    await answered(b.store, late.id);
    await b.runner.idle();
    assert.equal(model.requests.length, 2);
    assert.deepEqual(
      model.requests[1].messages.map((m) => [m.role, m.text]),
      [
        ["user", "One"],
        ["assistant", "First answer."],
        ["user", "Two"],
      ],
    );
    assert.deepEqual(transcript(b.store, chat), [
      "user:One",
      "text:First answer.",
      "user:Two",
      "text:Second answer.",
    ]);
  });

  it("with no run going on a steered message is an ordinary message", async () => {
    const model = scripted([says("Hello.")]);
    b = await bench(hostOf({ default: model }));
    const chat = named(b);
    const user = asked("Hi", chat);
    assert.equal(await b.runner.steer(user), false);
    await answered(b.store, user.id);
    await until(() => !b!.runner.running(chat), "the run to end");
    assert.deepEqual(transcript(b.store, chat), ["user:Hi", "text:Hello."]);
  });

  it("from the panel, Send now with no run going on (it ended first) sends an ordinary message, once", async () => {
    const model = scripted([says("Hello.")]);
    b = await bench(hostOf({ default: model }));
    const chat = named(b);
    const view = new PanelView(b.store, b.runner, recordingHost());
    await view.receive({ type: "steer", chat, text: "Hi", files: [], model: "" });
    const user = b.store.items(chat).find((i) => i.kind === "user" && i.text === "Hi");
    assert.ok(user, "the message is stored");
    await answered(b.store, user.id);
    await until(() => !b!.runner.running(chat), "the run to end");
    assert.deepEqual(transcript(b.store, chat), ["user:Hi", "text:Hello."]);
  });
});
