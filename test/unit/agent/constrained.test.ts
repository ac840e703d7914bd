/**
 * Tool calls valid by construction: a model without native calls, at an endpoint that honours
 * `response_format`, is held to "an answer, or one of these tools with arguments of its schema" —
 * through the real openai SDK against the fixture server.
 */
import assert from "node:assert/strict";
import { z } from "zod";
import { agent, endpoint, tool, type Piece, type Tool } from "../../../src/agent";
import { constrainedSchema } from "../../../src/agent/constrained";
import { AnswerStream } from "../../../src/agent/constrained-stream";
import { factsKey, memoryFacts, type Facts, type Learned } from "../../../src/agent/facts";
import { formatted, schemaOf } from "../../fixtures/format-reply";
import {
  answer,
  calling,
  finish,
  openaiServer,
  text,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, fast, joined } from "./helpers";

/** A read tool of the zod kind every Tandem tool is; it records the paths it read. */
function reader(read: string[]): Tool {
  return tool(
    "read_file",
    "Reads a file of the workspace.",
    z.object({
      path: z.string().min(1).describe("The file."),
      startLine: z.number().int().min(1).optional(),
    }),
    ({ path }) => {
      read.push(path);
      return `the text of ${path}`;
    },
    { readOnly: true },
  );
}

describe("agent: tool calls held to their schemas (response_format)", () => {
  let server: FixtureServer;
  let facts: Facts;
  const key = (): string => factsKey(server.baseURL, "m1");
  const model = () => endpoint({ baseURL: server.baseURL, model: "m1", ...fast, facts, key: key() });
  const knowing = (learned: Learned) => facts.set(key(), learned);
  beforeEach(async () => {
    server = await openaiServer();
    facts = memoryFacts();
  });
  afterEach(() => server.close());

  it("builds one schema: an answer, or each tool by its const name with its own zod-derived arguments", () => {
    const read = reader([]);
    const schema = constrainedSchema([
      {
        type: "function",
        function: { name: read.name, description: read.description, parameters: read.parameters },
      },
    ]);
    assert.deepEqual(schema, {
      anyOf: [
        {
          type: "object",
          properties: { answer: { type: "string" } },
          required: ["answer"],
          additionalProperties: false,
        },
        {
          type: "object",
          properties: { tool: { const: "read_file" }, arguments: read.parameters },
          required: ["tool", "arguments"],
          additionalProperties: false,
        },
      ],
    });
  });

  it("sends the schema as response_format, reads the JSON back as a call, runs it, then streams the answer", async () => {
    knowing({ textTools: true, jsonSchema: true });
    server.script(
      formatted('{"tool": "read_file", "arguments": {"path": "README.md"}}', "plain"),
      formatted('{"answer": "It says \\"hi\\"\\nand \\u00e9t\\u00e9 \\ud83d\\ude00."}', "plain", 3),
    );
    const read: string[] = [];
    const { answer, pieces } = await collect(agent(model(), "Be brief.", [reader(read)]), "read README.md");
    assert.deepEqual(read, ["README.md"]);
    const calls = pieces.flatMap((p) => (p.kind === "call" ? [p.call] : []));
    assert.deepEqual(
      calls.map((c) => [c.name, JSON.parse(c.arguments)]),
      [["read_file", { path: "README.md" }]],
    );
    // The answer is the string the JSON holds, shown as it streamed (escapes split across chunks).
    assert.equal(answer, 'It says "hi"\nand été 😀.');
    const texts = pieces.filter((p): p is Extract<Piece, { kind: "text" }> => p.kind === "text");
    assert.ok(texts.length > 5, "the answer came in pieces");
    assert.equal(joined(pieces, "text"), answer, "no JSON is shown");
    const [first, second] = server.requests.map((r) => r.body);
    assert.equal(first.tools, undefined, "no native tools field");
    const schema = schemaOf(server.requests[0]) as { anyOf: { properties: Record<string, unknown> }[] };
    assert.deepEqual(schema.anyOf[1].properties.tool, { const: "read_file" });
    const system = (first.messages as { role: string; content: string }[])[0].content;
    assert.match(system, /Reply with one JSON object/);
    assert.match(system, /- read_file: Reads a file of the workspace\./);
    // The call goes back as the JSON the model wrote, its result as the next message.
    const history = second.messages as { role: string; content: string }[];
    assert.deepEqual(
      history.slice(2).map((m) => [m.role, m.content]),
      [
        ["assistant", '{"tool":"read_file","arguments":{"path":"README.md"}}'],
        ["user", '<tool_response name="read_file">\nthe text of README.md\n</tool_response>'],
      ],
    );
  });

  it("a malformed constrained reply ends the run with a clear message, nothing run", async () => {
    knowing({ textTools: true, jsonSchema: true });
    server.script(formatted('{"tool": "read_file", "arguments": {"path": "READ', "plain"));
    const read: string[] = [];
    const { pieces } = await collect(agent(model(), "", [reader(read)]), "read README.md").catch(
      (error: unknown) => ({ pieces: [{ kind: "error", text: String(error) }] as Piece[] }),
    );
    const error = pieces.find((p) => p.kind === "error");
    assert.match(
      error?.kind === "error" ? error.text : "",
      /The model's reply does not follow the JSON format its endpoint was asked to hold it to \(it is not complete JSON\): \{"tool": "read_file", "arguments": \{"path": "READ/,
    );
    assert.deepEqual(read, []);
  });

  it("a call of a tool it was not given is said, not run", async () => {
    knowing({ textTools: true, jsonSchema: true });
    server.script(formatted('{"tool": "delete_all", "arguments": {}}', "plain"));
    const { pieces } = await collect(agent(model(), "", [reader([])]), "go").catch((error: unknown) => ({
      pieces: [{ kind: "error", text: String(error) }] as Piece[],
    }));
    const error = pieces.find((p) => p.kind === "error");
    assert.match(
      error?.kind === "error" ? error.text : "",
      /it calls delete_all, which is not one of its tools/,
    );
  });

  it("an endpoint that ignores the format: its text is the answer, and text calls are used from then on", async () => {
    knowing({ textTools: true, jsonSchema: true });
    server.script(() => ({ events: [{ delta: { content: "Just words." } }, { finish: "stop" }] }));
    const { answer } = await collect(agent(model(), "", [reader([])]), "hi");
    assert.equal(answer, "Just words.");
    assert.equal(facts.get(key())?.jsonSchema, false);
  });

  it("an endpoint that ignores the format while the model writes a text call: the call still runs", async () => {
    knowing({ textTools: true, jsonSchema: true });
    const read: string[] = [];
    server.script(
      {
        events: [
          ...text('<tool_call>\n{"name": "read_file", "arguments": {"path": "a.md"}}\n</tool_call>', 5),
          finish(),
        ],
      },
      answer("Read it."),
    );
    const { answer: said } = await collect(agent(model(), "", [reader(read)]), "read a.md");
    assert.deepEqual([read, said], [["a.md"], "Read it."]);
    // Learned at the first turn: the second was asked as a text call, without the format.
    assert.equal(schemaOf(server.requests[1]), undefined);
  });

  it("native calls that keep missing their schema: the next turns are held to it", async () => {
    knowing({ jsonSchema: true });
    const read: string[] = [];
    server.script(
      calling([["c1", "read_file", '{"file": "README.md"}']]),
      calling([["c2", "read_file", '{"path": ""}']]),
      formatted('{"tool": "read_file", "arguments": {"path": "README.md"}}', "plain"),
      formatted('{"answer": "Done."}', "plain"),
    );
    const { answer } = await collect(agent(model(), "", [reader(read)]), "read README.md");
    assert.equal(answer, "Done.");
    assert.deepEqual(read, ["README.md"]);
    assert.equal(facts.get(key())?.constrain, true);
    assert.deepEqual(
      server.requests.map((r) => [Array.isArray(r.body.tools), schemaOf(r) !== undefined]),
      [
        [true, false],
        [true, false],
        [false, true],
        [false, true],
      ],
    );
  });

  it("decodes the answer string as it comes, whatever the chunks cut", () => {
    const stream = new AnswerStream();
    const whole = '{ "answer" : "a\\"b\\\\c\\u0041\\ud83d\\ude00d" }';
    const out = [...whole].map((c) => stream.feed(c)).join("");
    assert.equal(out, 'a"b\\cA😀d');
    assert.equal(stream.state, "ended");
    const call = new AnswerStream();
    assert.equal(call.feed('{"tool": "x", "arguments": {"answer": "no"}}'), "");
    assert.equal(call.state, "other");
  });
});
