// An answer the server cuts off at its most tokens per answer (`finish_reason: "length"`): the run
// says so instead of passing the half answer off as finished, and a call cut off while its
// arguments streamed is neither offered for approval nor run.
import assert from "node:assert/strict";
import { z } from "zod";
import { agent, CUT_OFF_CALL, limitNote, run, tool, type Model, type Piece } from "../../../src/agent";
import { LIMIT_NOTES } from "../../../src/protocol/rows";
import {
  answer,
  finish,
  parallel,
  text,
  toolCall,
  usage,
  type FixtureServer,
} from "../../fixtures/openai-server";
import { collect, servedModel } from "./helpers";

const LIMITS = { rounds: 16, maxTokens: 0, maxMs: 0 };

describe("agent: an answer cut off at the model's output limit", () => {
  let server: FixtureServer;
  let model: Model;
  beforeEach(async () => ({ server, model } = await servedModel()));
  afterEach(() => server.close());

  /** A `write` tool that records what it wrote, with every approval asked recorded too. */
  function writer() {
    const wrote: string[] = [];
    const asked: string[] = [];
    const write = tool(
      "write",
      "Writes a file.",
      z.object({ path: z.string(), content: z.string() }),
      (i) => {
        wrote.push(`${i.path}: ${i.content}`);
        return "written";
      },
    );
    const a = agent(model, "", [write]);
    a.approve = (call) => {
      asked.push(call.arguments);
      return true;
    };
    return { a, wrote, asked };
  }

  it("stops with a note the person can Continue from, keeping the half answer", async () => {
    server.script({
      events: [...text("The first half of a long expl", 4), finish("length"), usage(40, 12)],
    });
    const a = agent(model);
    const { answer: out, pieces } = await collect(a, "Explain it all");
    assert.equal(out, "The first half of a long expl");
    assert.deepEqual(pieces.at(-1), { kind: "stopped", text: out, limit: "output" });
    assert.deepEqual(a.history.at(-1), { role: "assistant", text: out });
    assert.equal(
      limitNote("output", LIMITS),
      "Stopped: the answer reached the model's output limit (its most tokens per answer) and was cut off.",
    );
    // The panel offers Continue under a limit's note.
    assert.ok(LIMIT_NOTES.includes("output"));
  });

  it("an answer the provider's content filter ended says so beside what came", async () => {
    server.script({ events: [...text("Part of an answ", 4), finish("content_filter")] });
    const { answer: out, pieces } = await collect(agent(model), "hi");
    assert.equal(out, "Part of an answ");
    assert.deepEqual(
      pieces.filter((p) => p.kind === "note"),
      [{ kind: "note", text: "The provider of m1 ended the answer here with its content filter." }],
    );
    assert.deepEqual(pieces.at(-1), { kind: "done", text: out, limit: undefined });
  });

  it("an answer that ends as it should is done, as before", async () => {
    server.script({ events: [...text("All of it.", 3), finish("stop"), usage(10, 4)] });
    const { pieces } = await collect(agent(model), "hi");
    assert.deepEqual(pieces.at(-1), { kind: "done", text: "All of it.", limit: undefined });
  });

  it("a call cut off in its arguments is not asked about nor run; the model is told to write in parts", async () => {
    const cut = '{"path":"notes.md","content":"A long text that the limit cuts in the mid';
    server.script(
      { events: [...toolCall(0, "c1", "write", cut, 7), finish("length")] },
      answer("I will write it in parts."),
    );
    const { a, wrote, asked } = writer();
    const { answer: out, pieces } = await collect(a, "Write the notes");
    assert.equal(out, "I will write it in parts.");
    assert.deepEqual(wrote, [], "nothing was written");
    assert.deepEqual(asked, [], "the person was not asked to approve a half call");
    const failed = pieces.find((p): p is Extract<Piece, { kind: "failed" }> => p.kind === "failed");
    assert.equal(failed?.text, CUT_OFF_CALL);
    // What the model reads back: its call without the broken JSON, and why it did not run.
    const messages = server.requests[1].body.messages as Array<Record<string, unknown>>;
    const call = messages.find((m) => m.role === "assistant") as {
      tool_calls: { function: { arguments: string } }[];
    };
    assert.equal(call.tool_calls[0].function.arguments, "{}");
    const result = messages.find((m) => m.role === "tool") as { content: string; tool_call_id: string };
    assert.equal(result.tool_call_id, "c1");
    assert.equal(result.content, CUT_OFF_CALL);
    assert.match(result.content, /write a long file in parts/);
  });

  it("the whole calls of a cut-off answer run as usual beside the one that was cut", async () => {
    server.script(
      {
        events: [
          ...parallel([
            ["c1", "write", '{"path":"a.txt","content":"whole"}'],
            ["c2", "write", '{"path":"b.txt","content":"cut in the mi'],
          ]),
          finish("length"),
        ],
      },
      answer("Done with a.txt."),
    );
    const { a, wrote, asked } = writer();
    await run(a, "Write both");
    assert.deepEqual(wrote, ["a.txt: whole"]);
    assert.equal(asked.length, 1, "only the whole call was offered for approval");
    const tools = (server.requests[1].body.messages as Array<Record<string, unknown>>).filter(
      (m) => m.role === "tool",
    );
    assert.deepEqual(
      tools.map((m) => [m.tool_call_id, m.content]),
      [
        ["c1", "written"],
        ["c2", CUT_OFF_CALL],
      ],
    );
  });

  it("a call whose arguments came whole before the limit runs, after approval", async () => {
    server.script(
      { events: [...toolCall(0, "c1", "write", '{"path":"c.txt","content":"all"}', 5), finish("length")] },
      answer("Written."),
    );
    const { a, wrote, asked } = writer();
    assert.equal(await run(a, "Write c"), "Written.");
    assert.deepEqual(wrote, ["c.txt: all"]);
    assert.equal(asked.length, 1);
  });
});
