/** Recorded host messages for the webview tests: a snapshot and a run streamed as the host sends it. */
import type { HostMessage, Snapshot } from "../../src/protocol/messages";
import type { Item } from "../../src/protocol/rows";
import { stream } from "../../src/markdown";
import { fileRef } from "../../src/protocol/file-refs";

/** An item of conversation `chat` with the given fields (the rest empty). */
export function item(id: string, kind: Item["kind"], fields: Partial<Item> = {}, chat = "c1"): Item {
  return {
    id,
    chat,
    kind,
    text: "",
    name: "",
    input: "",
    output: "",
    file: "",
    files: [],
    model: "",
    state: "",
    done: true,
    ...fields,
  };
}

/** A snapshot of a panel with one assistant, models in two groups and two conversations. */
export function snapshot(fields: Partial<Snapshot> = {}): Snapshot {
  return {
    type: "snapshot",
    chat: "",
    items: [],
    blocks: {},
    conversations: [
      { id: "c0", agent: "a1", title: "Older question about tests" },
      { id: "c1", agent: "a1", title: "Refactor the parser" },
    ],
    assistants: [
      { id: "a1", name: "Tandem", instructions: "Be brief.", model: "", tools: "", approve: "write_file" },
      {
        id: "a2",
        name: "Reviewer",
        instructions: "Review code.",
        model: "local:qwen",
        tools: "read_file",
        approve: "",
      },
    ],
    skills: [
      { id: "s1", name: "release", description: "When cutting a release.", body: "1. Bump the version." },
    ],
    plugins: [
      {
        id: "p1",
        agent: "a1",
        name: "search",
        address: "https://mcp.example.com/mcp",
        header: "Authorization",
        secret: true,
        enabled: true,
        status: "3 tools",
      },
    ],
    memories: [
      {
        id: "m1",
        agent: "a1",
        text: "Prefers TypeScript examples.",
        created: 1_760_000_000_000,
        source: { from: "conversation", chat: "c0", title: "Older question about tests" },
      },
    ],
    choices: [
      { id: "local:qwen", name: "qwen2.5-coder", group: "This computer", note: "Ollama" },
      { id: "gpt-4o-mini", name: "gpt-4o-mini", group: "AI_URL", note: "" },
      { id: "vscode:copilot", name: "Copilot GPT-4.1", group: "VS Code", note: "" },
    ],
    contexts: [],
    running: [],
    configured: true,
    assistant: "a1",
    model: "",
    ...fields,
  };
}

/** The text of item `id` streamed in `size`-character deltas: its row, then one block patch per delta. */
export function streamed(row: Item, text: string, size = 4): HostMessage[] {
  const markdown = stream(row.id);
  const messages: HostMessage[] = [
    { type: "rows", table: "items", put: [{ ...row, text: "", done: false }], delete: [] },
  ];
  for (let end = size; end < text.length + size; end += size) {
    messages.push({ type: "blocks", patch: markdown.update(text.slice(0, end)) });
  }
  // The host ends the stream when the answer is done: what was still open is closed.
  const last = markdown.end();
  if (last.blocks.length > 0) messages.push({ type: "blocks", patch: last });
  messages.push({ type: "rows", table: "items", put: [{ ...row, text, done: true }], delete: [] });
  return messages;
}

/** The answer the recorded run writes. */
export const ANSWER = [
  "The parser now reads **one token at a time**.",
  "",
  "- [x] split the lexer",
  "- [ ] keep positions",
  "",
  "| step | time |",
  "| --- | --- |",
  "| lex | 3 ms |",
  "",
  "```ts",
  "export function parse(text: string) {",
  "  return text.split(/\\s+/);",
  "}",
  "```",
  "",
  "See [the docs](https://example.com/docs).",
].join("\n");

/** A run of conversation c1 with every item kind, as the host sends it. */
export function recorded(): HostMessage[] {
  const user = item("c1.001", "user", {
    text: "Refactor the parser, please.",
    files: [fileRef("src/parser.ts"), fileRef("README.md")],
    done: false,
  });
  return [
    { type: "opened", chat: "c1", items: [], blocks: {} },
    { type: "rows", table: "items", put: [user], delete: [] },
    { type: "running", chat: "c1", running: true },
    ...streamed(item("c1.002", "reasoning"), "First I read the parser, then I split the lexer out."),
    {
      type: "rows",
      table: "items",
      put: [
        item("c1.003", "plan", { text: "- [x] Read the parser\n- [ ] Split the lexer\n- [ ] Run the tests" }),
      ],
      delete: [],
    },
    {
      type: "rows",
      table: "items",
      put: [
        item("c1.004", "call", {
          name: "web_search",
          input: JSON.stringify({ query: "incremental parser design" }),
          output: JSON.stringify({
            results: "2 pages",
            sources: [
              { title: "Incremental parsing", url: "https://en.wikipedia.org/wiki/Incremental_parsing" },
              { title: "Tree-sitter", url: "https://tree-sitter.github.io/tree-sitter/" },
            ],
          }),
          state: "done",
        }),
      ],
      delete: [],
    },
    {
      type: "rows",
      table: "items",
      put: [
        item("c1.005", "call", {
          name: "write_file",
          input: JSON.stringify({ path: "src/lexer.ts", text: "…" }),
          state: "approval",
          done: false,
        }),
      ],
      delete: [],
    },
    ...streamed(item("c1.006", "text"), ANSWER),
    { type: "rows", table: "contexts", put: [{ id: "c1", used: 12_400, window: 128_000 }], delete: [] },
    { type: "rows", table: "items", put: [{ ...user, done: true }], delete: [] },
    {
      type: "rows",
      table: "items",
      put: [item("c1.007", "error", { text: "The endpoint answered 500: overloaded." })],
      delete: [],
    },
    { type: "rows", table: "items", put: [item("c1.008", "retry", { model: "gpt-4o-mini" })], delete: [] },
    {
      type: "rows",
      table: "items",
      put: [item("c1.009", "text", { text: "Half an ans", done: false, state: "interrupted" })],
      delete: [],
    },
    { type: "rows", table: "items", put: [item("c1.010", "stop")], delete: [] },
    { type: "running", chat: "c1", running: false },
  ];
}
