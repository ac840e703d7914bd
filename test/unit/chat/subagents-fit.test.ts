import assert from "node:assert/strict";
import { panelRequest } from "../../fixtures/panel-budget";

/** The system message and the tools' names and descriptions of a request body. */
function sent(body: Record<string, unknown>): {
  system: string;
  tools: { name: string; description: string }[];
} {
  const messages = body.messages as { role: string; content: string }[];
  const tools = (body.tools as { function: { name: string; description: string } }[] | undefined) ?? [];
  return {
    system: messages.find((m) => m.role === "system")?.content ?? "",
    tools: tools.map((t) => ({ name: t.function.name, description: t.function.description })),
  };
}

describe("fitting: small windows are told to delegate reading-heavy work", () => {
  it("tells a 2k window's model to open the agents group and delegate, within the fixed budget", async () => {
    const m = await panelRequest(2048);
    const { system, tools } = sent(m.requests[0].body);
    assert.match(
      system,
      /Your window is small: hand reading-heavy work to subagents \(open_tools agents, then delegate\)\./,
    );
    const opener = tools.find((t) => t.name === "open_tools");
    assert.match(opener?.description ?? "", /agents \(delegate\)/);
    assert.ok(m.fixed <= 700, `the fixed part is ${m.fixed} tokens`);
  });

  it("tells an 8k window's model too, and sends delegate with no such line on a large window", async () => {
    const mid = await panelRequest(8192);
    const midSent = sent(mid.requests[0].body);
    assert.match(midSent.system, /Your window is small: hand reading-heavy work/);
    assert.ok(mid.fixed <= 8192 * 0.25, `the fixed part is ${mid.fixed} tokens`);
    const large = await panelRequest(32768);
    const largeSent = sent(large.requests[0].body);
    assert.ok(largeSent.tools.some((t) => t.name === "delegate"));
    assert.doesNotMatch(largeSent.system, /Your window is small/);
  });
});
