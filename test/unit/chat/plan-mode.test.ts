import assert from "node:assert/strict";
import { z } from "zod";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { tool } from "../../../src/agent/tool";
import { asked } from "../../../src/chat/make";
import { checked } from "../../../src/chat/row-schemas";
import { PLAN_INSTRUCTIONS } from "../../../src/chat/runner/prepare";
import { answerOf, bench, hostOf } from "./runner-fixture";

describe("Plan mode: an answer in a Plan conversation only reads", () => {
  /** A workspace of one file: a tool that reads it and one that writes it, which records what it wrote. */
  function workspace() {
    const written: string[] = [];
    const tools = [
      tool("read_file", "Reads a file.", z.object({ path: z.string() }), () => "the file", {
        readOnly: true,
      }),
      tool("create_file", "Writes a file.", z.object({ path: z.string() }), ({ path }) => {
        written.push(path);
        return "written";
      }),
    ];
    return { written, tools };
  }

  it("offers no tool that writes, refuses the write it calls anyway, and offers it again out of Plan", async () => {
    const { written, tools } = workspace();
    const model = scripted([
      calls([
        ["read_file", JSON.stringify({ path: "a.ts" })],
        ["create_file", JSON.stringify({ path: "b.ts" })],
      ]),
      says("# Plan\n\n1. Change b.ts"),
      says("Title"),
      says("Done."),
    ]);
    const b = await bench(hostOf({ default: model }, { tools: () => tools, approve: async () => "always" }));
    try {
      const chat = b.chat();
      b.store.put("conversations", { ...b.store.get("conversations", chat)!, mode: "plan" });
      const first = await b.send(asked("Plan the change.", chat));
      const offered = model.requests[0].tools.map((t) => t.function.name);
      assert.ok(offered.includes("read_file"), offered.join());
      assert.ok(offered.includes("update_plan"), offered.join());
      assert.ok(!offered.includes("create_file"), offered.join());
      assert.ok(!offered.includes("remember"), offered.join());
      assert.ok(model.requests[0].instructions.includes(PLAN_INSTRUCTIONS));
      const [read, write] = answerOf(b.store, chat, first.id).filter((i) => i.kind === "call");
      assert.equal(read.state, "done");
      assert.notEqual(write.state, "done");
      assert.deepEqual(written, []);

      b.store.put("conversations", { ...b.store.get("conversations", chat)!, mode: undefined });
      await b.send(asked("Now do it.", chat));
      const again = model.requests[3].tools.map((t) => t.function.name);
      assert.ok(again.includes("create_file"), again.join());
      assert.ok(!model.requests[3].instructions.includes(PLAN_INSTRUCTIONS));
    } finally {
      await b.end();
    }
  });

  it("a conversation row of before Plan mode loads as usual, and a mode it does not know is refused", () => {
    assert.equal(checked("conversations", { id: "c1", agent: "a1", title: "" }).mode, undefined);
    assert.throws(() => checked("conversations", { id: "c1", agent: "a1", title: "", mode: "yolo" }));
  });
});
