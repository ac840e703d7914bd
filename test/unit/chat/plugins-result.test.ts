import assert from "node:assert/strict";
import {
  NAME_LIMIT,
  parametersOf,
  resultText,
  RESULT_LIMIT,
  sanitised,
  toolNames,
} from "../../../src/chat/plugins/result";
import { commandLine, sourceOf, splitCommand } from "../../../src/chat/plugins/source";

const NAME = /^[a-zA-Z0-9_-]{1,64}$/;

describe("plugin tool names", () => {
  it("prefix each tool with its plugin and keep only the characters model APIs accept", () => {
    const names = toolNames("my files", ["read.file", "write file", "ünïcode", "ok-name_1"]);
    assert.deepEqual(names, [
      "my_files_read_file",
      "my_files_write_file",
      "my_files__n_code",
      "my_files_ok-name_1",
    ]);
    for (const name of names) assert.match(name, NAME);
  });

  it("cut long names to 64 characters and keep two long names apart", () => {
    const long = "x".repeat(100);
    const names = toolNames("plugin", [`${long}a`, `${long}b`]);
    assert.equal(names[0].length, NAME_LIMIT);
    assert.equal(names[1].length, NAME_LIMIT);
    assert.notEqual(names[0], names[1]);
    for (const name of names) assert.match(name, NAME);
  });

  it("number names that sanitise to the same text", () => {
    assert.deepEqual(toolNames("p", ["a.b", "a b", "a_b"]), ["p_a_b", "p_a_b_2", "p_a_b_3"]);
  });

  it("never give an empty name", () => {
    assert.equal(sanitised(""), "_");
  });
});

describe("plugin tool schemas", () => {
  it("are object schemas without $schema", () => {
    const schema = parametersOf({
      $schema: "http://json-schema.org/draft-07/schema#",
      type: "object",
      properties: { q: { type: "string" } },
      required: ["q"],
    });
    assert.deepEqual(schema, { type: "object", properties: { q: { type: "string" } }, required: ["q"] });
    assert.deepEqual(parametersOf(undefined), { type: "object", properties: {} });
  });
});

describe("plugin results", () => {
  it("join text and summarise images, audio, links and resources", () => {
    const text = resultText({
      content: [
        { type: "text", text: "first" },
        { type: "image", data: "A".repeat(4000), mimeType: "image/png" },
        { type: "audio", data: "AAAA", mimeType: "audio/wav" },
        { type: "resource_link", name: "readme", uri: "file:///readme.md", description: "the readme" },
        { type: "resource", resource: { uri: "mem://note", mimeType: "text/plain", text: "note body" } },
        { type: "resource", resource: { uri: "mem://blob", mimeType: "application/zip", blob: "AAAA" } },
      ],
    });
    assert.equal(
      text,
      [
        "first",
        "[image: image/png, 3 KB]",
        "[audio: audio/wav, 3 bytes]",
        "[resource link: readme file:///readme.md — the readme]",
        "[resource: mem://note, text/plain]\nnote body",
        "[resource: mem://blob, application/zip, 3 bytes]",
      ].join("\n"),
    );
  });

  it("give structured content as JSON when there is no content", () => {
    assert.equal(resultText({ content: [], structuredContent: { sum: 3 } }), '{"sum":3}');
  });

  it("throw the tool's own text when it reports an error", () => {
    assert.throws(
      () => resultText({ content: [{ type: "text", text: "disk full" }], isError: true }),
      /^Error: disk full$/,
    );
    assert.throws(() => resultText({ content: [], isError: true }), /failed without saying why/);
  });

  it("cut a huge text and say so", () => {
    const text = resultText({ content: [{ type: "text", text: "y".repeat(RESULT_LIMIT + 50) }] });
    assert.ok(text.length < RESULT_LIMIT + 100);
    assert.match(text, /50 more characters cut/);
  });
});

describe("plugin sources", () => {
  it("split command lines as a shell quotes them", () => {
    assert.deepEqual(splitCommand(`npx -y  "@scope/server x" 'it''s' a\\ b "q\\"t"`), [
      "npx",
      "-y",
      "@scope/server x",
      "its",
      "a b",
      'q"t',
    ]);
    assert.deepEqual(splitCommand(`cmd ""`), ["cmd", ""]);
    assert.throws(() => splitCommand(`node "unclosed`), /unclosed " quote/);
  });

  it("write command lines a person can paste back", () => {
    const words = ["node", "/srv/my server.js", "it's"];
    assert.equal(commandLine(words), `node '/srv/my server.js' 'it'\\''s'`);
    assert.deepEqual(splitCommand(commandLine(words)), words);
  });

  it("read a row's address as HTTP, a bare host as https, and anything else as a command", () => {
    const context = { key: "k", trusted: true, approveStart: () => true, cwd: "/ws" };
    assert.deepEqual(sourceOf({ name: "a", address: "http://x.example.com/mcp", header: "X-Key" }, context), {
      name: "a",
      address: "http://x.example.com/mcp",
      header: "X-Key",
      key: "k",
      allowPrivate: undefined,
      lookup: undefined,
      localOnly: undefined,
    });
    const bare = sourceOf({ name: "b", address: "mcp.example.com/mcp", header: "" }, context);
    assert.equal("address" in bare && bare.address, "https://mcp.example.com/mcp");
    const program = sourceOf(
      { name: "c", address: "npx -y @modelcontextprotocol/server-memory", header: "" },
      context,
    );
    assert.ok("command" in program);
    assert.equal(program.command, "npx");
    assert.deepEqual(program.args, ["-y", "@modelcontextprotocol/server-memory"]);
    assert.equal(program.cwd, "/ws");
    const forced = sourceOf({ name: "d", address: "stdio:server.py", header: "" }, context);
    assert.ok("command" in forced && forced.command === "server.py");
    assert.throws(() => sourceOf({ name: "e", address: "  ", header: "" }, context), /no address or command/);
  });
});
