/** The endpoint check learns whether an endpoint holds an answer to a JSON Schema in response_format. */
import assert from "node:assert/strict";
import { learned, markdown, probe, type Report } from "../../../src/agent";
import { formatted, schemaOf } from "../../fixtures/format-reply";
import { answer, httpError, openaiServer, type FixtureServer } from "../../fixtures/openai-server";
import { table } from "./report-table";

describe("agent: probe of response_format (JSON Schema)", () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await openaiServer();
    server.models = [{ id: "m", object: "model", context_length: 4096 }];
    // A model without native calls (llama.cpp without --jinja): it refuses the tools field.
    server.rejectTools = "tools param requires --jinja flag";
  });
  afterEach(() => server.close());

  const check = (): Promise<Report> => probe({ baseURL: server.baseURL, model: "m" });
  /** The plain answer, the tool described, the image, and then the format check's reply. */
  const script = (...format: Parameters<FixtureServer["script"]>) =>
    server.script(answer("ready"), answer("no call"), answer("Red"), ...format);

  it("an endpoint that honours it: learned, so text-call runs are held to the tools' schemas", async () => {
    script(formatted('{"answer": "Hello"}', "Hello!"));
    const report = await check();
    assert.equal(report.format?.ok, true);
    assert.match(report.format?.note ?? "", /^It holds its answer to a JSON Schema in response_format/);
    assert.equal(learned(report).jsonSchema, true);
    assert.equal(learned(report).textTools, true, "the model that called no tool is held to them");
    // The check asks in the shape Tandem sends, and says nothing of JSON in its prompt.
    const asked = server.requests.at(-1)!;
    assert.deepEqual((schemaOf(asked)?.anyOf as { properties: { tool?: unknown } }[])[1].properties.tool, {
      const: "echo",
    });
    assert.doesNotMatch(JSON.stringify(asked.body.messages), /json/i);
    const md = markdown(report);
    assert.equal(table(md).find((row) => row[0] === "JSON Schema output")?.[1], "✅ yes");
    assert.ok(md.includes("the answer held to the tools' schemas (`response_format`)"));
  });

  it("an endpoint that ignores it (plain text back): learned as not honoured", async () => {
    script(answer("Hello!"));
    const report = await check();
    assert.deepEqual([report.format?.ok, learned(report).jsonSchema], [false, false]);
    assert.equal(report.format?.note, 'It ignores response_format: it answered in plain text ("Hello!").');
  });

  it("an endpoint that answers JSON off the schema, or refuses the field: not honoured", async () => {
    script(formatted('{"greeting": "Hello"}', "Hello!"));
    const off = await check();
    assert.equal(off.format?.ok, false);
    assert.match(off.format?.note ?? "", /^Its answer is JSON but not of the schema it was given/);
    script(httpError(400, "response_format is not supported"));
    const refused = await check();
    assert.equal(refused.format?.ok, false);
    assert.equal(
      refused.format?.note,
      "It refuses response_format with a JSON Schema (400 response_format is not supported).",
    );
  });
});
