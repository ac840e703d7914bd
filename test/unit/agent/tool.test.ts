import assert from "node:assert/strict";
import { z } from "zod";
import { schema, tool } from "../../../src/agent";

describe("agent: tool and schema", () => {
  const input = z
    .object({
      path: z.string().describe("The file to read."),
      lines: z.number().int().min(1).optional().describe("How many lines."),
      mode: z.enum(["text", "hex"]),
    })
    .describe("What to read.");

  it("takes the JSON Schema from zod, field descriptions from .describe()", () => {
    const t = tool("read", "Reads a file.", input, () => "", { readOnly: true, timeoutMs: 5 });
    assert.equal(t.name, "read");
    assert.equal(t.description, "Reads a file.");
    assert.equal(t.readOnly, true);
    assert.equal(t.timeoutMs, 5);
    const p = t.parameters as {
      type: string;
      properties: Record<string, { description?: string }>;
      required: string[];
    };
    assert.equal(p.type, "object");
    assert.equal(p.properties.path.description, "The file to read.");
    assert.equal(p.properties.lines.description, "How many lines.");
    assert.deepEqual(p.required, ["path", "mode"]);
    assert.equal("$schema" in p, false);
  });

  it("gives the schema of a union", () => {
    const s = schema(z.union([z.object({ a: z.string() }), z.object({ b: z.number() })]));
    assert.equal((s.anyOf as unknown[]).length, 2);
  });

  it("parses and validates arguments with the same schema, and answers records as JSON", async () => {
    const t = tool("read", "Reads.", input, (i) => ({ got: i.path, mode: i.mode }));
    const signal = new AbortController().signal;
    assert.equal(await t.run('{"path":"a.txt","mode":"hex"}', signal), '{"got":"a.txt","mode":"hex"}');
    await assert.rejects(t.run('{"path":', signal), /not valid JSON/);
    await assert.rejects(
      t.run("null", signal),
      /^Error: The arguments must be a JSON object, not null: null$/,
    );
    await assert.rejects(t.run('{"path":"a","mode":"bin","lines":0}', signal), (e: Error) => {
      assert.match(e.message, /- mode: /);
      assert.match(e.message, /- lines: /);
      return true;
    });
  });

  it("reads empty arguments as an empty record, and a string result as is", async () => {
    const t = tool("now", "The time.", z.object({}), () => "noon");
    assert.equal(await t.run("", new AbortController().signal), "noon");
  });
});
