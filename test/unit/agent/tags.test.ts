import assert from "node:assert/strict";
import { Tags, type Segment } from "../../../src/agent/tags";

function all(chunks: string[]): Segment[] {
  const tags = new Tags();
  const out = chunks.flatMap((c) => tags.feed(c)).concat(tags.flush());
  // Adjacent segments of one kind join, so the result does not depend on where chunks were cut.
  return out.reduce<Segment[]>((acc, s) => {
    const last = acc.at(-1);
    if (last && last.kind === s.kind && s.text && last.text) last.text += s.text;
    else acc.push({ ...s });
    return acc;
  }, []);
}

describe("agent: tags in streamed text", () => {
  const whole = 'a<think>r1</think>\nb <tool_call>{"name":"x"}</tool_call>c<thin';
  const expected: Segment[] = [
    { kind: "text", text: "a" },
    { kind: "reasoning", text: "r1" },
    { kind: "text", text: "b " },
    { kind: "call", text: '{"name":"x"}' },
    { kind: "call", text: "" },
    { kind: "text", text: "c<thin" },
  ];

  it("splits the same way wherever the chunks are cut", () => {
    for (let size = 1; size <= whole.length; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < whole.length; i += size) chunks.push(whole.slice(i, i + size));
      assert.deepEqual(all(chunks), expected, `chunks of ${size}`);
    }
  });

  it("gives an unterminated reasoning block as reasoning", () => {
    assert.deepEqual(all(["<think>still going"]), [{ kind: "reasoning", text: "still going" }]);
  });
});
