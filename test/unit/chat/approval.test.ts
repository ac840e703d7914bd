import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import { DECLINED, type Tool } from "../../../src/agent/types";
import {
  allowedTool,
  listed,
  offered,
  verdict,
  type Decision,
  type Question,
  type Rules,
} from "../../../src/chat/approval/approval";
import { asked, item } from "../../../src/chat/make";
import { Waiting } from "../../../src/chat/runner/approve";
import type { Item } from "../../../src/chat/row-schemas";
import { answerOf, answered, bench, gate, hostOf, until, type Bench } from "./runner-fixture";

const rules = (over: Partial<Rules> = {}): Rules => ({
  tools: "",
  approve: "",
  always: new Set(),
  trusted: true,
  ...over,
});
const reads = { name: "read_page", readOnly: true };
const writes = { name: "write_file", readOnly: false };

describe("approval: the rules", () => {
  it("allows a read-only tool, asks for one that writes, and asks for a read-only tool the assistant lists", () => {
    assert.equal(verdict(reads, rules()), "allowed");
    assert.equal(verdict(writes, rules()), "ask");
    assert.equal(verdict(reads, rules({ approve: "other, read_page" })), "ask");
  });

  it("allows a writing tool the person allowed for the conversation, except one asked about every time", () => {
    assert.equal(verdict(writes, rules({ always: new Set(["write_file"]) })), "allowed");
    const command = { name: "run_command", readOnly: false };
    assert.equal(verdict(command, rules({ always: new Set(["run_command"]) })), "ask");
    assert.equal(
      verdict(writes, rules({ always: new Set(["write_file"]), askEvery: new Set(["write_file"]) })),
      "ask",
    );
  });

  it("refuses a tool the assistant may not use, and a writing tool in an untrusted workspace", () => {
    assert.equal(verdict(writes, rules({ tools: "read_page" })), "refused");
    assert.equal(verdict(reads, rules({ tools: "read_page" })), "allowed");
    assert.equal(verdict(writes, rules({ trusted: false })), "refused");
    assert.equal(verdict(writes, rules({ trusted: false, always: new Set(["write_file"]) })), "refused");
    assert.equal(verdict(reads, rules({ trusted: false })), "allowed");
  });

  it("reads lists by commas with spaces and blanks, and a trailing * as a prefix", () => {
    assert.equal(listed("github_search", " github_* ,, x"), true);
    assert.equal(listed("gitlab_search", "github_*"), false);
    assert.equal(allowedTool("anything", " , "), true, "a list of blanks is all tools");
    assert.equal(allowedTool("write_file", "write"), false, "no partial names without *");
  });

  it("offers only the tools not refused, and marks one that needs the person as not read-only", () => {
    const make = (name: string, readOnly: boolean): Tool => ({
      name,
      description: name,
      parameters: {},
      readOnly,
      run: async () => name,
    });
    const tools = [make("read_page", true), make("write_file", false), make("search", true)];
    const out = offered(
      tools,
      rules({ tools: "read_page,write_file", approve: "read_page", trusted: false }),
    );
    assert.deepEqual(
      out.map((t) => [t.name, t.readOnly]),
      [["read_page", false]],
    );
  });
});

describe("approval: asking the person", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  const question: Question = {
    text: "Tandem wants to run write_file",
    short: "Tandem wants to run write_file",
    long: false,
    always: "Always Allow in This Conversation",
  };

  /** A call waiting to be asked about, and every change of its row from now on. */
  async function waiting(): Promise<{ call: Item; waits: Waiting; rows: Item[] }> {
    b = await bench(hostOf({}));
    const call = { ...item("call", "", "c1"), name: "write_file", input: "{}", state: "running" as const };
    b.store.put("items", call);
    const rows: Item[] = [];
    b.store.follow({ table: "items", key: call.id }, (c) => c.row && rows.push(c.row));
    return { call, waits: new Waiting(b.store), rows };
  }

  it("takes the editor's answer when it comes first, asks once, and writes the answer on the item once", async () => {
    const { call, waits, rows } = await waiting();
    const seen: Item[] = [];
    const answer = await waits.ask(
      call.id,
      question,
      async (c) => {
        seen.push(c);
        return true;
      },
      new AbortController().signal,
      assert.fail,
    );
    assert.equal(answer, true);
    assert.deepEqual(
      seen.map((c) => [c.id, c.state, c.text, c.always]),
      [[call.id, "approval", question.text, question.always]],
      "the person was asked once, while the call waited",
    );
    assert.deepEqual(
      rows.map((r) => [r.state, r.always]),
      [
        ["approval", "Always Allow in This Conversation"],
        ["approved", undefined],
      ],
    );
  });

  it("takes the panel's decide when it comes first, dismisses the notification, and a late answer changes nothing", async () => {
    const { call, waits, rows } = await waiting();
    const notification = gate<Decision>();
    let dismissed = false;
    const asking = waits.ask(
      call.id,
      question,
      (_c, signal) => {
        signal.addEventListener("abort", () => (dismissed = true));
        return notification.promise;
      },
      new AbortController().signal,
      assert.fail,
    );
    assert.equal(waits.decide(call.id, false), true);
    assert.equal(await asking, false);
    assert.equal(dismissed, true);
    notification.open("always");
    await notification.promise;
    assert.equal(waits.decide(call.id, true), false, "a second answer does not count");
    assert.deepEqual(
      rows.map((r) => r.state),
      ["approval", "declined"],
      "the late notification answer does not win",
    );
  });

  it("leaves the panel to decide when the notification fails, and gives up when the run halts", async () => {
    const { call, waits, rows } = await waiting();
    const halt = new AbortController();
    const problems: string[] = [];
    const asking = waits.ask(
      call.id,
      question,
      () => Promise.reject(new Error("no window")),
      halt.signal,
      (text) => problems.push(text),
    );
    await until(() => problems.length > 0, "the failed notification to be told");
    halt.abort();
    assert.equal(await asking, undefined);
    assert.equal(waits.decide(call.id, true), false, "nothing waits after the halt");
    assert.deepEqual(
      rows.map((r) => r.state),
      ["approval"],
      "nothing was decided",
    );
    assert.deepEqual(problems, ["The approval question could not be shown: no window"]);
  });
});

describe("approval: tool calls in a run", () => {
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    b = undefined;
  });

  function notes(): { tool: Tool; written: string[] } {
    const written: string[] = [];
    const t = tool("write_note", "Writes a note.", z.object({ text: z.string() }), ({ text }) => {
      written.push(text);
      return { file: `notes/${text}.md` };
    });
    return { tool: t, written };
  }

  const twice = () =>
    scripted([
      calls([["write_note", '{"text":"a"}']]),
      says("Wrote a."),
      says("Notes"),
      calls([["write_note", '{"text":"b"}']]),
      says("Wrote b."),
    ]);

  it("runs an approved call: running → approval → approved → done, with the file it made", async () => {
    const { tool: t, written } = notes();
    const states: string[] = [];
    const model = twice();
    b = await bench(hostOf({ default: model }, { tools: () => [t], approve: async () => true }));
    const chat = b.chat();
    b.store.follow({ table: "items", where: { chat, kind: "call" } }, (c) => {
      if (c.row && states.at(-1) !== c.row.state) states.push(c.row.state);
    });
    const user = await b.send(asked("Write a", chat));
    assert.deepEqual(states, ["running", "approval", "approved", "done"]);
    const [call] = answerOf(b.store, chat, user.id);
    assert.equal(call.file, "notes/a.md");
    assert.deepEqual(written, ["a"]);
  });

  it("does not run a declined call, and the model reads that it was declined", async () => {
    const { tool: t, written } = notes();
    const model = twice();
    b = await bench(hostOf({ default: model }, { tools: () => [t], approve: async () => false }));
    const chat = b.chat();
    const user = await b.send(asked("Write a", chat));
    const [call] = answerOf(b.store, chat, user.id);
    assert.equal(call.state, "declined");
    assert.deepEqual(written, []);
    assert.deepEqual(model.requests[1].messages.at(-1), {
      role: "tool",
      call: "call_0",
      name: "write_note",
      text: DECLINED,
    });
  });

  it("asks once when the person says always, for this conversation only", async () => {
    const { tool: t, written } = notes();
    let asks = 0;
    const model = twice();
    const other = scripted([calls([["write_note", '{"text":"c"}']]), says("Wrote c.")], "other");
    b = await bench(
      hostOf(
        { default: model, other },
        {
          tools: () => [t],
          approve: async (): Promise<Decision> => (++asks === 1 ? "always" : false),
        },
      ),
    );
    const chat = b.chat();
    await b.send(asked("Write a", chat));
    await b.send(asked("Write b", chat));
    assert.equal(asks, 1);
    assert.deepEqual(written, ["a", "b"]);
    const elsewhere = b.chat();
    await b.send(asked("Write c", elsewhere, "other"));
    assert.equal(asks, 2, "another conversation asks again");
    assert.deepEqual(written, ["a", "b"]);
  });

  it("takes the panel's decision (through the runner) while the notification waits", async () => {
    const { tool: t, written } = notes();
    const dismissed = gate();
    const model = twice();
    b = await bench(
      hostOf(
        { default: model },
        {
          tools: () => [t],
          approve: (_call, signal) =>
            new Promise<Decision>((resolve) =>
              signal.addEventListener("abort", () => {
                dismissed.open();
                resolve(false);
              }),
            ),
        },
      ),
    );
    const chat = b.chat();
    const user = asked("Write a", chat);
    b.store.put("items", user);
    await until(
      () => answerOf(b!.store, chat, user.id)[0]?.state === "approval",
      "the call to wait for approval",
    );
    const key = answerOf(b.store, chat, user.id)[0].id;
    assert.equal(b.runner.decide(key, "always"), true);
    assert.equal(b.runner.decide(key, false), false, "a second answer does not count");
    await dismissed.promise;
    await answered(b.store, user.id);
    assert.deepEqual(written, ["a"]);
    assert.equal(b.store.get("items", key)?.state, "done");
  });

  it("asks before a read-only tool the assistant lists under approve, and never offers a tool it does not allow", async () => {
    const read = tool("read_page", "Reads a page.", z.object({}), () => "page", { readOnly: true });
    const hidden = tool("delete_all", "Deletes.", z.object({}), () => "gone");
    let asked_ = 0;
    const model = scripted([calls([["read_page", "{}"]]), says("Read it.")]);
    b = await bench(
      hostOf(
        { default: model },
        {
          tools: () => [read, hidden],
          approve: async () => {
            asked_++;
            return true;
          },
        },
      ),
      { tools: "read_page, remember", approve: "read_page" },
    );
    const chat = b.chat();
    await b.send(asked("Read", chat));
    assert.equal(asked_, 1);
    assert.deepEqual(
      model.requests[0].tools.map((t) => t.function.name),
      ["remember", "read_page"],
    );
  });

  it("fails a call whose tool throws or whose arguments are bad, and the run goes on", async () => {
    const broken = tool(
      "broken",
      "Breaks.",
      z.object({ n: z.number() }),
      () => {
        throw new Error("disk full");
      },
      { readOnly: true },
    );
    const model = scripted([
      calls([
        ["broken", '{"n":1}'],
        ["broken", '{"n":"x"}'],
        ["nothing", "{}"],
      ]),
      says("Sorry."),
    ]);
    b = await bench(hostOf({ default: model }, { tools: () => [broken] }));
    const chat = b.chat();
    const user = await b.send(asked("Go", chat));
    const items = answerOf(b.store, chat, user.id);
    assert.deepEqual(
      items.map((i) => [i.kind, i.state]),
      [
        ["call", "failed"],
        ["call", "failed"],
        ["call", "failed"],
        ["text", ""],
      ],
    );
    assert.equal(items[0].text, "disk full");
    assert.match(items[1].text, /do not match the schema/);
    assert.match(items[2].text, /no tool named "nothing"/);
    assert.equal(items[3].text, "Sorry.");
  });
});
