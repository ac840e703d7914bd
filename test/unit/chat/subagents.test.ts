import assert from "node:assert/strict";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { calls, says, scripted, type Script } from "../../../src/agent/scripted";
import type { Model, Request, Turn } from "../../../src/agent/types";
import { asked } from "../../../src/chat/make";
import { checked, type Item } from "../../../src/chat/row-schemas";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { answerOf, bench, gate, hostOf, until, type Bench } from "./runner-fixture";

/** A turn of `script` that logs "start NAME" as it begins and "end NAME" once its text is out. */
function logged(log: string[], name: string, turn: Turn): Script {
  return async () => {
    log.push(`start ${name}`);
    await Promise.resolve();
    return turn;
  };
}

/** The delegate call of the answer to `user`. */
function delegateCall(b: Bench, chat: string, user: Item): Item | undefined {
  return answerOf(b.store, chat, user.id).find((i) => i.kind === "call" && i.name === "delegate");
}

const twoTasks = JSON.stringify({
  tasks: [
    { task: "Where is the greeting written?", model: "sub-a" },
    { task: "What does the config say?", model: "sub-b" },
  ],
});

describe("chat rows: a call's subagents", () => {
  const call = { ...asked("x", "c1"), kind: "call" as const, name: "delegate", done: true };

  it("loads a call stored before subagents were kept, and one with them; refuses a subagent of no known state", () => {
    assert.equal(checked("items", call).subagents, undefined);
    const subagent = {
      task: "t",
      model: "",
      state: "done",
      rounds: 1,
      usage: { input: 1, output: 1, cached: 0 },
      steps: [{ kind: "call", name: "read_file", input: "{}", text: "ok", failed: false }],
      report: "r",
    };
    assert.deepEqual(checked("items", { ...call, subagents: [subagent] }).subagents, [subagent]);
    assert.throws(
      () => checked("items", { ...call, subagents: [{ ...subagent, state: "asleep" }] }),
      /state/,
    );
  });
});

describe("chat runner: read-only subagents (delegate)", () => {
  let b: Bench | undefined;
  let root = "";
  beforeEach(async () => {
    root = await mkdtemp(join(tmpdir(), "tandem-subagents-"));
    await writeFile(join(root, "hello.ts"), 'export const greeting = "hello";\n');
    await writeFile(join(root, "config.json"), '{ "mode": "fast" }\n');
  });
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await rm(root, { recursive: true, force: true });
  });

  /** A bench whose workspace is `root` (its real read tools), with the models by id. */
  async function open(
    models: Record<string, Model>,
    extra: Parameters<typeof hostOf>[1] = {},
  ): Promise<Bench> {
    return bench(
      hostOf(models, {
        tools: () => workspaceTools({ root, trusted: true, localOnly: true }),
        choices: () => Object.keys(models).filter((id) => id !== "default"),
        ...extra,
      }),
    );
  }

  it("runs two subagents side by side and gives their reports back as the call's result, with their usage", async () => {
    const log: string[] = [];
    const subA = scripted(
      [
        logged(log, "a", {
          ...calls([["read_file", JSON.stringify({ path: "hello.ts" })]]),
          tokens: 10,
          input: 100,
        }),
        async (request: Request) => {
          log.push("end a");
          const read = request.messages.find((m) => m.role === "tool");
          return {
            ...says(`Greeting in hello.ts:1 (${read?.text.includes("hello") ? "seen" : "unseen"})`),
            tokens: 5,
            input: 120,
          };
        },
      ],
      "sub-a",
    );
    subA.prices = { input: 1, output: 2 };
    const subB = scripted(
      [
        logged(log, "b", {
          ...calls([["read_file", JSON.stringify({ path: "config.json" })]]),
          tokens: 10,
          input: 100,
        }),
        async () => {
          log.push("end b");
          return { ...says("The config sets mode fast (config.json:1)."), tokens: 5, input: 120 };
        },
      ],
      "sub-b",
    );
    subB.prices = { input: 1, output: 2 };
    const main = scripted([
      { ...calls([["delegate", twoTasks]]), tokens: 20, input: 200 },
      { ...says("Both reported."), tokens: 7 },
    ]);
    b = await open({ default: main, "sub-a": subA, "sub-b": subB });
    const chat = b.chat();
    const user = await b.send(asked("Look into the greeting and the config", chat));

    // Both started before either ended.
    assert.ok(log.indexOf("start a") < log.indexOf("end a") && log.indexOf("start b") < log.indexOf("end a"));
    assert.ok(log.indexOf("start a") < log.indexOf("end b") && log.indexOf("start b") < log.indexOf("end b"));
    const call = delegateCall(b, chat, user);
    assert.equal(call?.state, "done");
    assert.match(
      call?.output ?? "",
      /\[Subagent 1 of 2, done, 2 rounds\] Task: Where is the greeting written\?\nGreeting in hello.ts:1 \(seen\)/,
    );
    assert.match(call?.output ?? "", /\[Subagent 2 of 2, done, 2 rounds\][^\n]*\nThe config sets mode fast/);
    // What the main model read back is the reports.
    const result = main.requests[1].messages.at(-1);
    assert.equal(result?.role === "tool" && result.text, call?.output);
    // Stored on the call, typed: each subagent's model, rounds, tokens, cost and transcript.
    const [a, bee] = call?.subagents ?? [];
    assert.deepEqual(
      [a?.model, a?.state, a?.rounds, a?.usage, a?.steps.map((s) => [s.kind, s.name, s.failed])],
      [
        "sub-a",
        "done",
        2,
        { input: 220, output: 15, cached: 0, cost: 0.00025 },
        [["call", "read_file", false]],
      ],
    );
    assert.match(a?.steps[0].text ?? "", /greeting = "hello"/);
    assert.equal(bee?.report, "The config sets mode fast (config.json:1).");
    // Added to the conversation's total: the main model's two turns and both subagents'.
    const total = b.store.get("contexts", chat)?.total;
    assert.equal(total?.output, 20 + 7 + 15 + 15);
    // The answer's own usage line counts them too.
    const usage = answerOf(b.store, chat, user.id).findLast((i) => i.kind === "text")?.usage;
    assert.equal(usage?.output, 20 + 7 + 15 + 15);
  });

  it("gives a subagent only the reading tools: a call by name of one it does not have is refused by the core", async () => {
    const sub = scripted(
      [calls([["create_file", JSON.stringify({ path: "x.txt", content: "x" })]]), says("I could not write.")],
      "sub-a",
    );
    const main = scripted([
      calls([["delegate", JSON.stringify({ tasks: [{ task: "t", model: "sub-a" }] })]]),
      says("ok"),
    ]);
    b = await open({ default: main, "sub-a": sub });
    const chat = b.chat();
    const user = await b.send(asked("Go", chat));
    const offered = sub.requests[0].tools.map((t) => t.function.name).sort();
    assert.deepEqual(offered, ["list_files", "read_file", "search_text"]);
    const step = delegateCall(b, chat, user)?.subagents?.[0].steps[0];
    assert.equal(step?.failed, true);
    assert.match(step?.text ?? "", /There is no tool named "create_file"/);
  });

  it("holds a subagent to its limits, and its tokens count against the answer's token limit", async () => {
    // The subagent keeps calling: its own round limit ends it (at most 2 rounds here).
    const looping: Script[] = Array.from({ length: 10 }, () => ({
      ...calls([["list_files", JSON.stringify({ glob: "*" })]]),
      tokens: 400,
    }));
    const sub = scripted(looping, "sub-a");
    const main = scripted([
      { ...calls([["delegate", JSON.stringify({ tasks: [{ task: "list", model: "sub-a" }] })]]), tokens: 10 },
      says("the answer asked for at the limit"),
    ]);
    b = await open({ default: main, "sub-a": sub }, { limits: { rounds: 2, maxTokens: 1000 } });
    const chat = b.chat();
    const user = await b.send(asked("List", chat));
    const record = delegateCall(b, chat, user)?.subagents?.[0];
    // Rounds 1 and 2 called (800 tokens), then the round limit asked it for its answer.
    assert.equal(record?.rounds, 3);
    assert.equal(record?.usage.output, 1200);
    // The main answer's budget (1,000 tokens) was spent by its subagent: it is asked to answer at once.
    assert.equal(main.requests[1].answer, true);
    assert.match(main.requests[1].instructions, /reached its limit of tokens/);
    assert.equal(answerOf(b.store, chat, user.id).find((i) => i.kind === "error")?.name, "tokens");
  });

  it("holds a subagent to the answer's time limit: a turn that never ends is cut, the subagent stopped", async () => {
    const hung: Model = {
      name: "sub-a",
      turn: (request) =>
        new Promise<never>((_, reject) =>
          request.signal?.addEventListener("abort", () => reject(new Error("aborted"))),
        ),
    };
    const main = scripted([
      calls([["delegate", JSON.stringify({ tasks: [{ task: "think", model: "sub-a" }] })]]),
      says("the answer asked for at the limit"),
    ]);
    b = await open({ default: main, "sub-a": hung }, { limits: { maxMs: 800 } });
    const chat = b.chat();
    const user = await b.send(asked("Go", chat));
    assert.equal(delegateCall(b, chat, user)?.subagents?.[0].state, "stopped");
    assert.equal(answerOf(b.store, chat, user.id).find((i) => i.kind === "error")?.name, "time");
  });

  it("stops both subagents when the answer is stopped", async () => {
    const hung = (name: string): Model => ({
      name,
      turn: (request) =>
        new Promise<never>((_, reject) => {
          started.push(name);
          request.signal?.addEventListener("abort", () => reject(new Error("aborted")));
        }),
    });
    const started: string[] = [];
    const main = scripted([calls([["delegate", twoTasks]])]);
    const running = gate();
    b = await open(
      { default: main, "sub-a": hung("sub-a"), "sub-b": hung("sub-b") },
      { running: (_chat, on) => on && running.open() },
    );
    const chat = b.chat();
    const user = asked("Go", chat);
    b.store.put("items", user);
    await running.promise;
    await until(() => started.length === 2, "both subagents to start");
    b.runner.stop(chat);
    await until(() => b!.store.get("items", user.id)?.done === true, "the answer to end");
    await until(
      () => delegateCall(b!, chat, user)?.subagents?.every((s) => s.state === "stopped") === true,
      "both subagents to be stopped",
    );
    assert.deepEqual(
      delegateCall(b, chat, user)?.subagents?.map((s) => s.state),
      ["stopped", "stopped"],
    );
  });

  it("refuses a model that is not in the catalogue, or an address, with a clear error", async () => {
    const main = scripted([
      calls([["delegate", JSON.stringify({ tasks: [{ task: "t", model: "http://10.0.0.5:8000/v1" }] })]]),
      calls([["delegate", JSON.stringify({ tasks: [{ task: "t", model: "gpt-unknown" }] })]]),
      says("ok"),
    ]);
    b = await open({ default: main, "sub-a": scripted([], "sub-a") });
    const chat = b.chat();
    const user = await b.send(asked("Go", chat));
    const failed = answerOf(b.store, chat, user.id).filter((i) => i.kind === "call");
    assert.deepEqual(
      failed.map((i) => i.state),
      ["failed", "failed"],
    );
    assert.match(
      failed[0].text,
      /"http:\/\/10\.0\.0\.5:8000\/v1" is an address\. A subagent's model is one of the person's models/,
    );
    assert.match(
      failed[1].text,
      /There is no model "gpt-unknown" in the person's model list\. The models are: sub-a/,
    );
  });
});
