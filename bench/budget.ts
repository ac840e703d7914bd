/**
 * The fixed part of the panel's requests (instructions, project instructions, skills, memories and
 * tool schemas) on small and large windows, measured on what the fixture server received for "hi"
 * with the panel's whole tool set: `BENCH budget window=W fixed_tokens=N tools=K share=S`.
 * Goals: ≤ 700 tokens at 2,048, ≤ 1,024 at 4,096, a share ≤ 0.25 of any window.
 */
import { panelRequest } from "../test/fixtures/panel-budget";

async function main(): Promise<void> {
  for (const window of [2048, 4096, 8192, 32768]) {
    const measured = await panelRequest(window);
    if (!measured.requests.length)
      throw new Error(`nothing was sent on the ${window}-token window: ${measured.said}`);
    console.log(
      `BENCH budget window=${window} fixed_tokens=${measured.fixed} tools=${measured.tools} share=${(measured.fixed / window).toFixed(3)}`,
    );
  }
}

void main();
