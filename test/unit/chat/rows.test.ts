import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { join } from "node:path";
import {
  asked,
  assistant,
  choiceOf,
  conversation,
  decided,
  groups,
  inUse,
  item,
  keyTime,
  newKey,
  plugin,
  retried,
  skill,
  stopped,
} from "../../../src/chat/make";
import { checked, RowError, secretKey, TABLE_NAMES, type Choice } from "../../../src/chat/row-schemas";
import { fileRef } from "../../../src/protocol/file-refs";
import { byKey } from "../../../src/protocol/keys";
import { answerKey } from "../../../src/chat/runner/answer-items";

describe("chat rows", () => {
  it("refuses a bad row with words that name the field", () => {
    const good = item("text", "hello", "c1");
    assert.throws(
      () => checked("items", { ...good, kind: "poem" }),
      (e: RowError) => /kind/.test(e.message),
    );
    assert.throws(() => checked("items", { ...good, state: "sleeping" }), /state/);
    assert.throws(() => checked("items", { ...good, done: "yes" }), /done/);
    assert.throws(() => checked("items", { ...good, extra: 1 }), /extra/);
    assert.throws(() => checked("items", { ...good, id: "" }), /id/);
    assert.throws(() => checked("items", { ...good, id: "a\nb" }), /one line/);
    const { text: _text, ...noText } = good;
    assert.throws(() => checked("items", noText), /text/);
    assert.throws(() => checked("assistants", { ...assistant("a", "x"), name: "n".repeat(81) }), /80/);
    assert.throws(() => checked("memories", { id: "m", agent: "a", text: "t", created: -1 }), /created/);
    assert.throws(() => checked("contexts", { id: "c", used: 1.5, window: 0 }), /used/);
    assert.throws(() => checked("nothing" as "items", good), /no such table/);
  });

  it("keeps a plugin's key out of its row: a flag, and a name in the secret storage", () => {
    const p = plugin("a", "https://mcp.example.com/mcp");
    assert.equal(p.secret, false);
    assert.throws(() => checked("plugins", { ...p, secret: "sk-123" }), /secret/);
    assert.equal(secretKey(p.id), `tandem.plugin.${p.id}`);
  });

  it("has the eight tables of chat.md", () => {
    assert.deepEqual([...TABLE_NAMES].sort(), [
      "assistants",
      "choices",
      "contexts",
      "conversations",
      "items",
      "memories",
      "plugins",
      "skills",
    ]);
  });
});

describe("keys", () => {
  it("sort in the order they were made, even when the clock stands still or goes back", () => {
    const made: string[] = [];
    for (let i = 0; i < 5000; i++) made.push(newKey(1_700_000_000_000));
    for (let i = 0; i < 100; i++) made.push(newKey(1_600_000_000_000));
    made.push(newKey());
    assert.deepEqual([...made].sort(), made);
    assert.equal(new Set(made).size, made.length);
  });

  it("sort in the panel as in the store: in the order they were made, an answer's items under their message", () => {
    const made: string[] = [];
    // Many in one millisecond: counters whose digits run into the time's and the tail's (a count of
    // digits, read as a number, would put 0009 after 001a).
    for (let i = 0; i < 3000; i++) {
      const key = newKey(1_700_000_000_000);
      made.push(key, answerKey(key, 0), answerKey(key, 35), answerKey(key, 36));
    }
    const shuffled = [...made].reverse();
    assert.deepEqual(shuffled.sort(byKey), made);
  });

  it("tell the time they were made", () => {
    const before = Date.now();
    const key = newKey();
    assert.ok(keyTime(key) >= before && keyTime(key) <= Date.now() + 1);
    assert.ok(Number.isNaN(keyTime("not-a-key")));
    // An answer's item is keyed after its message and carries the message's time.
    assert.equal(keyTime(`${key}.0003`), keyTime(key));
  });

  it("do not collide across two processes making keys in the same millisecond", async function () {
    this.timeout(30_000);
    const make = join(__dirname, "../../../src/chat/make.ts");
    const script = `const m = require(${JSON.stringify(make)}); const k = []; for (let i = 0; i < 2000; i++) k.push(m.newKey(1700000000000)); console.log(k.join(","));`;
    const run = async () =>
      (await promisify(execFile)(process.execPath, ["--import", "tsx", "-e", script])).stdout
        .trim()
        .split(",");
    const [a, b] = await Promise.all([run(), run()]);
    assert.equal(a.length, 2000);
    assert.equal(new Set([...a, ...b]).size, 4000);
  });
});

describe("constructors", () => {
  it("make the person's items of a conversation", () => {
    const q = asked("What is 2+2?", "c1", "local:llama3", [fileRef("a.pdf")]);
    assert.deepEqual(
      { kind: q.kind, text: q.text, chat: q.chat, model: q.model, files: q.files, done: q.done },
      {
        kind: "user",
        text: "What is 2+2?",
        chat: "c1",
        model: "local:llama3",
        files: [{ path: "a.pdf", name: "a.pdf", kind: "pdf" }],
        done: false,
      },
    );
    assert.equal(retried("c1", "gpt-x").kind, "retry");
    assert.equal(retried("c1", "gpt-x").model, "gpt-x");
    assert.equal(stopped("c1").kind, "stop");
    assert.ok(asked("a", "c1").id < asked("b", "c1").id, "a later item sorts after");
  });

  it("decides a call, and only a call", () => {
    const call = { ...item("call", "", "c1"), name: "write_file", state: "approval" as const };
    assert.equal(call.state, "approval");
    assert.equal(decided(call, true).state, "approved");
    assert.equal(decided(call, false).state, "declined");
    assert.equal(item("call", "").state, "running");
    assert.throws(() => decided(item("text", "hi"), true), /only a call/);
  });

  it("makes an agent, a conversation and an empty skill", () => {
    assert.deepEqual(assistant("a1", "Helper"), {
      id: "a1",
      name: "Helper",
      instructions: "",
      model: "",
      tools: "",
      approve: "",
    });
    assert.throws(() => assistant("a1", "x".repeat(81)), RowError);
    const c = conversation("a1");
    assert.equal(c.agent, "a1");
    const s = skill();
    assert.deepEqual({ ...s, id: "" }, { id: "", name: "", description: "", body: "" });
    assert.ok(s.id.length > 0);
  });

  it("names a plugin after its site", () => {
    const name = (address: string) => plugin("a1", address).name;
    assert.equal(name("https://mcp.example.com/mcp"), "example");
    assert.equal(name("http://127.0.0.1:3001/mcp"), "127_0_0_1");
    assert.equal(name("http://[::1]:8080/sse"), "__1");
    assert.equal(name("https://api.github.com/mcp"), "github");
    assert.equal(name("https://mcp.example.co.uk/"), "example");
    assert.equal(name("http://localhost:3000/mcp"), "localhost");
    assert.equal(name("mcp.deepwiki.com/mcp"), "deepwiki");
    assert.equal(name("npx -y @modelcontextprotocol/server-everything"), "server_everything");
    const p = plugin("a1", "https://mcp.example.com/mcp");
    assert.deepEqual([p.agent, p.enabled, p.status, p.header], ["a1", true, "", ""]);
  });

  it("refuses a plugin address it cannot name or reach", () => {
    assert.throws(() => plugin("a1", "  "), /needs an address/);
    assert.throws(() => plugin("a1", "ftp://files.example.com"), /http or https/);
    assert.throws(() => plugin("a1", "http://exa mple.com"), /not an address/);
  });
});

describe("models and sources", () => {
  const models: Choice[] = [
    choiceOf("gpt-4.1"),
    choiceOf("local:llama3.2"),
    choiceOf("vscode:copilot/gpt-4o"),
    choiceOf("local:qwen3"),
  ];

  it("says where a model runs by its id", () => {
    assert.deepEqual(choiceOf("local:llama3.2"), {
      id: "local:llama3.2",
      name: "llama3.2",
      group: "This computer",
      note: "",
    });
    assert.equal(choiceOf("vscode:copilot/gpt-4o").group, "VS Code");
    assert.equal(choiceOf("openai/gpt-4.1").group, "Endpoint");
    assert.equal(choiceOf("openai/gpt-4.1").name, "openai/gpt-4.1");
    assert.equal(choiceOf("gpt-4.1", true).note, "default");
    assert.throws(() => choiceOf(""), /not empty/);
  });

  it("lists the groups in the order they first come", () => {
    assert.deepEqual(groups(models), ["Endpoint", "This computer", "VS Code"]);
    assert.deepEqual(groups([]), []);
  });

  it("names the model an agent answers with: its own, else the default", () => {
    const agents = [assistant("a1", "First"), { ...assistant("a2", "Second"), model: "local:qwen3" }];
    assert.equal(inUse(models, agents, "a2"), "qwen3");
    assert.equal(inUse(models, agents, "a1", "local:llama3.2"), "llama3.2");
    assert.equal(inUse(models, agents, "", ""), "gpt-4.1");
    assert.equal(inUse(models, [{ ...agents[0], model: "local:gone" }], ""), "gone");
    assert.equal(inUse([], [], ""), "");
  });
});
