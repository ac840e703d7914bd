import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, tool } from "../../../src/agent";
import { asked } from "../../../src/chat/make";
import { deaf } from "../agent/helpers";
import { answerOf, bench, hostOf, type Bench } from "./runner-fixture";

const echo = tool("echo", "Echo.", z.object({}), () => "echoed", { readOnly: true });

describe("chat runner: settings the model cannot apply", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  it("the panel's answer keeps the note as a quiet item, before the words it is about", async () => {
    // One round: the answer the limit asks for is capped (max_tokens), which this model cannot apply.
    const model = deaf([calls([["echo", "{}"]]), says("Done."), says("A title")]);
    b = await bench(hostOf({ default: model }, { tools: () => [echo], limits: { rounds: 1 } }));
    const chat = b.chat();
    const user = asked("Go", chat);
    await b.send(user);
    const items = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      items.map((i) => [i.kind, i.name, i.kind === "call" ? i.state : i.text]),
      [
        ["call", "echo", "done"],
        ["error", "note", "Copilot GPT-4o cannot apply these settings, so they were left out: max_tokens."],
        ["text", "", "Done."],
        ["error", "rounds", "Stopped: the 1-round limit was reached."],
      ],
    );
  });
});
