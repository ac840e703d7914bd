import assert from "node:assert/strict";
import { agent, endpoint, memoryFacts, run, type Piece } from "../../../src/agent";
import { Stops } from "../../../src/agent/sampling";
import { finish, openaiServer, text, usage, type FixtureServer } from "../../fixtures/openai-server";
import { fast, joined } from "./helpers";

describe("agent: stop sequences Tandem applies itself", () => {
  let server: FixtureServer;
  beforeEach(async () => (server = await openaiServer()));
  afterEach(() => server.close());
  const model = (id: string) =>
    endpoint({ baseURL: server.baseURL, apiKey: "k", model: id, facts: memoryFacts(), ...fast });

  it("an OpenAI reasoning model is not sent `stop`: its streamed answer ends before the stop sequence", async () => {
    // "END" comes split across pieces, and the server would go on after it.
    server.script({
      events: [...text("The plan: EN"), ...text("D and what follows."), finish(), usage(5, 9)],
    });
    const a = agent(model("o3-mini"));
    a.parameters = { stop: ["END"] };
    const pieces: Piece[] = [];
    const out = await run(a, "go", { each: (p) => pieces.push(p) });
    assert.equal(server.requests[0].body.stop, undefined, "the family refuses it: not sent");
    assert.equal(out, "The plan: ");
    assert.equal(joined(pieces, "text"), "The plan: ", "nothing of the stop sequence or after it is shown");
    assert.deepEqual(a.history.at(-1), { role: "assistant", text: "The plan: " });
  });

  it("a server that ignores a stop it was sent is held to it too", async () => {
    server.script({ events: [...text("one\n\nSTOP two", 2), finish()] });
    const a = agent(model("m1"));
    a.parameters = { stop: ["\n\nSTOP"] };
    const out = await run(a, "go");
    assert.deepEqual(server.requests[0].body.stop, ["\n\nSTOP"]);
    assert.equal(out, "one");
  });

  it("holds back only what may begin a stop sequence, and gives it when it does not", () => {
    const stops = new Stops(["END", "</s>"]);
    assert.equal(stops.feed("a tale E"), "a tale ");
    assert.equal(stops.feed("ND and on"), "", "completes END: nothing more");
    assert.equal(stops.ended, true);
    assert.equal(stops.feed("more"), "");
    const other = new Stops(["END"]);
    assert.equal(other.feed("the E"), "the ");
    assert.equal(other.feed("nd"), "End");
    assert.equal(other.feed(" of it EN"), " of it ");
    assert.equal(other.flush(), "EN", "a beginning that never completed is given at the end");
    assert.equal(new Stops([""]).feed("text"), "text", "an empty stop sequence stops nothing");
  });
});
