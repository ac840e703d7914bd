import assert from "node:assert/strict";
import { z } from "zod";
import { agent, ANSWER, ask, calls, RunError, says, scripted, title, type Piece } from "../../../src/agent";

const Person = z.object({ name: z.string(), age: z.number().int() });

describe("agent: ask", () => {
  it("returns the record the model gives through the answer tool", async () => {
    const model = scripted([calls([[ANSWER, '{"name":"Ada","age":36}']])]);
    const person = await ask(agent(model), "who?", Person);
    assert.deepEqual(person, { name: "Ada", age: 36 });
    assert.ok(model.requests[0].tools.some((t) => t.function.name === ANSWER));
    const parameters = model.requests[0].tools.find((t) => t.function.name === ANSWER)?.function.parameters;
    assert.deepEqual((parameters as { required: string[] }).required, ["name", "age"]);
  });

  it("sends an answer that does not validate back with the zod issues, then takes the valid one", async () => {
    const model = scripted([
      calls([[ANSWER, '{"name":"Ada","age":"old"}']]),
      calls([[ANSWER, '{"name":"Ada","age":36}']]),
    ]);
    const pieces: Piece[] = [];
    const person = await ask(agent(model), "who?", Person, { each: (p) => pieces.push(p) });
    assert.equal(person.age, 36);
    const back = model.requests[1].messages.at(-1);
    assert.equal(back?.role, "tool");
    assert.match(back?.text ?? "", /age: Invalid input: expected number/);
    assert.equal(pieces.filter((p) => p.kind === "failed").length, 1);
    assert.deepEqual(pieces.at(-1), { kind: "done", text: '{"name":"Ada","age":36}', limit: undefined });
  });

  it("takes a record written as JSON text by a model that does not call", async () => {
    const model = scripted([says('```json\n{"name":"Bo","age":3}\n```')]);
    assert.deepEqual(await ask(agent(model), "who?", Person), { name: "Bo", age: 3 });
  });

  it("rejects when no valid answer comes within the round limit", async () => {
    const model = scripted([says("I don't know"), calls([[ANSWER, "{}"]])]);
    const a = agent(model);
    a.rounds = 2;
    await assert.rejects(
      ask(a, "who?", Person),
      (e: unknown) => e instanceof RunError && /within the limit/.test(e.message),
    );
    assert.equal(model.requests.length, 2);
    assert.match(model.requests[1].messages[2].text, /Call the tool "answer"/);
  });
});

describe("agent: title", () => {
  it("takes one turn without tools: first line, no quotes, at most 60 characters", async () => {
    const model = scripted([
      says('"Planning a trip to Lisbon"\nMore text'),
      says(`**${"word ".repeat(30)}**`),
    ]);
    assert.equal(await title(model, "I want to go to Lisbon in May"), "Planning a trip to Lisbon");
    assert.deepEqual(model.requests[0].tools, []);
    assert.equal(model.requests[0].answer, true);
    assert.equal(model.requests[0].messages[0].text, "I want to go to Lisbon in May");
    const long = await title(model, "x");
    assert.ok(long.length <= 60, long);
    assert.ok(long.endsWith("…"));
    assert.ok(!long.includes("*"));
  });

  it("falls back to the first words when the model writes nothing", async () => {
    assert.equal(await title(scripted([says("")]), "Fix the login bug"), "Fix the login bug");
  });
});
