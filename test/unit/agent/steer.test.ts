import assert from "node:assert/strict";
import { z } from "zod";
import { agent, calls, run, says, scripted, tool, type Message } from "../../../src/agent";

describe("agent: steering a run", () => {
  it("gives a message sent during round 1 to round 2's request, after the round's results, without stopping its call", async () => {
    let release!: () => void;
    const running = new Promise<void>((r) => (release = r));
    let started!: () => void;
    const slowStarted = new Promise<void>((r) => (started = r));
    const slow = tool("slow", "Takes a while.", z.object({}), async () => {
      started();
      await running;
      return "slow result";
    });
    const model = scripted([calls([["slow", "{}"]]), says("Done, in French.")]);
    const a = agent(model, "", [slow]);
    const waiting: Message[] = [];
    let reads = 0;
    a.steer = () => {
      reads++;
      return waiting.splice(0);
    };
    const answer = run(a, "Summarize the file.");
    await slowStarted;
    // The person steers while the call runs: it is not stopped, and the message waits for the boundary.
    waiting.push({ role: "user", text: "Answer in French." });
    release();
    assert.equal(await answer, "Done, in French.");
    assert.equal(model.requests.length, 2);
    assert.deepEqual(
      model.requests[1].messages.map((m) => [m.role, m.text]),
      [
        ["user", "Summarize the file."],
        ["assistant", ""],
        ["tool", "slow result"],
        ["user", "Answer in French."],
      ],
    );
    assert.equal(
      model.requests[0].messages.some((m) => m.text === "Answer in French."),
      false,
    );
    // Read once, at the one boundary between rounds; never before the first turn.
    assert.equal(reads, 1);
  });

  it("reads nothing after the last round: a message sent then is left for its own answer", async () => {
    const model = scripted([says("All done.")]);
    const a = agent(model);
    let reads = 0;
    a.steer = () => {
      reads++;
      return [{ role: "user", text: "late" }];
    };
    assert.equal(await run(a, "hi"), "All done.");
    assert.equal(reads, 0);
    assert.equal(
      a.history.some((m) => m.text === "late"),
      false,
    );
  });
});
