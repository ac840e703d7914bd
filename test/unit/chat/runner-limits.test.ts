import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import { asked } from "../../../src/chat/make";
import { answerOf, answered, bench, hostOf, type Bench } from "./runner-fixture";

const look = tool("look", "Looks.", z.object({}), () => "seen", { readOnly: true });

describe("chat runner: a run a limit ended", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  it("says the round limit ended it (the answer asked for was empty), with the limit to continue from", async () => {
    // The model keeps calling; asked to answer at the limit, it writes nothing.
    const model = scripted([calls([["look", "{}"]]), calls([["look", "{}"]]), says("")], "m1");
    b = await bench(
      hostOf({ default: model }, { tools: () => Promise.resolve([look]), limits: { rounds: 2 } }),
    );
    const chat = b.chat();
    const user = asked("Look around", chat);
    await b.store.putDurable("items", user);
    await answered(b.store, user.id);
    const answer = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      answer.map((i) => [i.kind, i.kind === "error" ? i.name : i.state, i.text]),
      [
        ["call", "done", ""],
        ["call", "done", ""],
        ["error", "rounds", "Stopped: the 2-round limit was reached."],
      ],
    );
  });

  it("says the time limit cut the turn", async () => {
    // A turn that never ends by itself: only the deadline stops it.
    const endless = {
      name: "slow",
      turn: (request: { signal?: AbortSignal }) =>
        new Promise<never>((_, reject) =>
          request.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        ),
    };
    b = await bench(hostOf({ default: endless }, { limits: { maxMs: 1000 } }));
    const chat = b.chat();
    const user = asked("Think long", chat);
    await b.store.putDurable("items", user);
    await answered(b.store, user.id);
    const note = answerOf(b.store, chat, user.id).find((i) => i.kind === "error");
    assert.deepEqual([note?.name, note?.text], ["time", "Stopped: the time limit of 1 second was reached."]);
  });

  it("says the answer was cut off at the model's output limit, after the half it wrote", async () => {
    // A server that ends the answer at its most tokens per answer says "length".
    const short = {
      name: "short",
      turn: async (_request: unknown, each: (piece: { kind: "text"; text: string }) => unknown) => {
        each({ kind: "text", text: "The start of a long" });
        return {
          text: "The start of a long",
          reasoning: "",
          calls: [],
          details: [],
          tokens: 5,
          input: 9,
          window: 0,
          finish: "length",
        };
      },
    };
    b = await bench(hostOf({ default: short }));
    const chat = b.chat();
    const user = asked("Tell me everything", chat);
    await b.store.putDurable("items", user);
    await answered(b.store, user.id);
    assert.deepEqual(
      answerOf(b.store, chat, user.id).map((i) => [i.kind, i.kind === "error" ? i.name : "", i.text]),
      [
        ["text", "", "The start of a long"],
        [
          "error",
          "output",
          "Stopped: the answer reached the model's output limit (its most tokens per answer) and was cut off.",
        ],
      ],
    );
  });
});
