/**
 * The fixed part of the panel's requests (instructions, project instructions, skills, memories and
 * tool schemas) on small and large windows, measured on what the fixture server received for "hi"
 * with the panel's whole tool set: `BENCH budget window=W fixed_tokens=N tools=K share=S`, with
 * `unfitted_tokens`, what the same instructions and every tool would take unfitted (the baseline).
 * Goals: ≤ 700 tokens at 2,048, ≤ 1,024 at 4,096, a share ≤ 0.25 of larger windows.
 */
import { rm } from "node:fs/promises";
import { measured } from "../src/chat/runner/fit";
import { panelRequest } from "../test/fixtures/panel-budget";
import { panelWorkspace } from "../test/fixtures/panel-tools";

async function main(): Promise<void> {
  const { root, tools } = panelWorkspace();
  await rm(root, { recursive: true, force: true });
  for (const window of [2048, 4096, 8192, 32768]) {
    const m = await panelRequest(window);
    if (!m.requests.length) throw new Error(`nothing was sent on the ${window}-token window: ${m.said}`);
    const system = (m.requests[0].body.messages as { role: string; content: string }[])[0].content;
    console.log(
      `BENCH budget window=${window} fixed_tokens=${m.fixed} tools=${m.tools} share=${(m.fixed / window).toFixed(3)} unfitted_tokens=${measured(system, tools)}`,
    );
  }
}

void main();
