/** When the demo model calls a tool and what its grammars allow, without the runtime. */
import assert from "node:assert/strict";
import {
  answerGrammar,
  argumentsGrammar,
  LABEL,
  plannedCall,
  WORDS,
} from "../../../scripts/demo-model/grammar.mjs";

const readFile = {
  type: "function",
  function: {
    name: "read_file",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, startLine: { type: "integer" } },
      required: ["path"],
    },
  },
};
const createFile = {
  type: "function",
  function: {
    name: "create_file",
    parameters: {
      type: "object",
      properties: { path: { type: "string" }, content: { type: "string" }, overwrite: { type: "boolean" } },
      required: ["path", "content", "overwrite"],
    },
  },
};
const tools = [readFile, createFile];
const asking = (content: unknown, extra: Record<string, unknown> = {}) => ({
  tools,
  messages: [{ role: "user", content }],
  ...extra,
});

describe("the demo model's grammars", () => {
  it("answers in words of its vocabulary, after the demo label", () => {
    const grammar = answerGrammar();
    assert.match(grammar, new RegExp(`^root ::= ${JSON.stringify(LABEL)} " " sentence`));
    const words = /^word ::= (.*)$/m.exec(grammar)?.[1].split(" | ");
    assert.deepEqual(
      words,
      WORDS.map((w) => JSON.stringify(w)),
    );
  });

  it("calls the read tool on the file the person names, README.md when none", () => {
    assert.equal(plannedCall(asking("Please read src/math.ts"))?.name, "read_file");
    assert.match(plannedCall(asking("Please read src/math.ts"))?.grammar ?? "", /"\\"src\/math\.ts\\""/);
    assert.match(plannedCall(asking("show me the readme"))?.grammar ?? "", /"\\"README\.md\\""/);
    // A path the schema does not mark required is still given (the panel's read_file also reads attachments).
    const loose = {
      type: "function",
      function: {
        name: "read_file",
        parameters: { type: "object", properties: { name: { type: "string" }, path: { type: "string" } } },
      },
    };
    const looseCall = plannedCall({ tools: [loose], messages: [{ role: "user", content: "read a.md" }] });
    assert.match(looseCall?.grammar ?? "", /^root ::= "\{" "\\"path\\":" "\\"a\.md\\"" "\}"$/m);
    // Text parts count; a path that climbs out is not taken as a name.
    const parts = [{ type: "text", text: "open ../../etc/passwd" }];
    assert.match(plannedCall(asking(parts))?.grammar ?? "", /"\\"README\.md\\""/);
  });

  it("calls the write tool with a sentence for its content and false for its flags", () => {
    const call = plannedCall(asking("Write notes.md, then read it"));
    assert.equal(call?.name, "create_file");
    assert.match(call?.grammar ?? "", /"\\"overwrite\\":" "false"/);
    assert.match(call?.grammar ?? "", /"\\"content\\":" quoted/);
    assert.match(call?.grammar ?? "", /"\\"path\\":" "\\"notes\.md\\""/);
  });

  it("writes no call when none is asked for, offered or allowed", () => {
    assert.equal(plannedCall(asking("Hello there")), undefined);
    assert.equal(plannedCall({ messages: [{ role: "user", content: "read a.md" }] }), undefined);
    assert.equal(plannedCall(asking("read a.md", { tool_choice: "none" })), undefined);
    // After the tool's result the model answers in words.
    const after = {
      tools,
      messages: [
        { role: "user", content: "read a.md" },
        { role: "tool", tool_call_id: "c", content: "text" },
      ],
    };
    assert.equal(plannedCall(after), undefined);
    // A tool whose required input the demo cannot write is not called.
    const nested = { type: "object", properties: { edits: { type: "array" } }, required: ["edits"] };
    assert.equal(argumentsGrammar(nested, "a.md"), undefined);
    const onlyNested = [{ type: "function", function: { name: "write_many", parameters: nested } }];
    assert.equal(
      plannedCall({ tools: onlyNested, messages: [{ role: "user", content: "write a.md" }] }),
      undefined,
    );
  });
});
