/** What the demo model makes of a response_format JSON Schema for node-llama-cpp's grammar, without the runtime. */
import assert from "node:assert/strict";
import { constrainedSchema, responseFormat } from "../../../src/agent/constrained";
import type { FunctionTool } from "../../../src/agent/types";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import type { Editor } from "../../../src/chat/workspace/editor";
import { demoSchema, forGrammar, ITEMS_CAP, STRING_CAP } from "../../../scripts/demo-model/schema.mjs";

const tools: FunctionTool[] = workspaceTools({ root: "/tmp", editor: {} as Editor, trusted: true }).map(
  (t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }),
);
const asking = (text: string, last: "user" | "tool" = "user") => ({
  response_format: responseFormat(tools),
  messages: [{ role: last, content: text }],
});

describe("the demo model's JSON Schema grammar", () => {
  it("takes Tandem's schema in the grammar's subset: oneOf, required properties, short strings, numbers in range", () => {
    const grammar = forGrammar(constrainedSchema(tools)) as { oneOf: Record<string, unknown>[] };
    assert.equal(grammar.oneOf.length, tools.length + 1);
    assert.deepEqual(grammar.oneOf[0], {
      type: "object",
      properties: { answer: { type: "string", maxLength: STRING_CAP } },
      additionalProperties: false,
    });
    const read = grammar.oneOf.find(
      (o) => (o.properties as { tool?: { const: string } }).tool?.const === "read_file",
    ) as { properties: { arguments: unknown } };
    // startLine is optional: the grammar writes every property it is given, so only path is.
    assert.deepEqual(read.properties.arguments, {
      type: "object",
      properties: { path: { type: "string", minLength: 1, maxLength: STRING_CAP } },
      additionalProperties: false,
    });
    assert.deepEqual(forGrammar({ type: "integer", minimum: 1, maximum: 600 }), { const: 1 });
    assert.deepEqual(forGrammar({ type: ["string", "null"] }), {
      oneOf: [{ type: "string", maxLength: STRING_CAP }, { type: "null" }],
    });
    assert.deepEqual(forGrammar({ type: "array", items: { enum: ["a", "b"] }, maxItems: 50 }), {
      type: "array",
      items: { enum: ["a", "b"] },
      maxItems: ITEMS_CAP,
    });
    const defs = {
      $defs: { step: { type: "object", properties: { done: { type: "boolean" } }, required: ["done"] } },
    };
    assert.deepEqual(forGrammar({ ...defs, $ref: "#/$defs/step" }), {
      type: "object",
      properties: { done: { type: "boolean" } },
      additionalProperties: false,
    });
  });

  it("asked to read or write a file, takes that tool's branch with the file named; after a result, the answer", () => {
    const read = demoSchema(asking("Please read src/a.ts")) as { properties: Record<string, unknown> };
    assert.deepEqual(read.properties.tool, { const: "read_file" });
    assert.deepEqual(read.properties.arguments, {
      type: "object",
      properties: { path: { const: "src/a.ts" } },
      additionalProperties: false,
    });
    const write = demoSchema(asking("Write notes.md")) as {
      properties: { tool: unknown; arguments: { properties: Record<string, unknown> } };
    };
    assert.deepEqual(write.properties.tool, { const: "create_file" });
    assert.deepEqual(write.properties.arguments.properties.path, { const: "notes.md" });
    const answer = demoSchema(asking('<tool_response name="read_file">\ntext\n</tool_response>'));
    assert.deepEqual(Object.keys((answer as { properties: object }).properties), ["answer"]);
    // Anything else: the whole schema, the model choosing among its branches.
    assert.equal((demoSchema(asking("Hello")) as { oneOf: unknown[] }).oneOf.length, tools.length + 1);
    assert.equal(demoSchema({ messages: [{ role: "user", content: "read a.md" }] }), undefined);
  });
});
