import assert from "node:assert/strict";
import type { Subagent } from "../../src/protocol/rows";
import { chromiumPanels } from "./page";
import { item, snapshot } from "./stream";

/** A subagent record as the host keeps it on a delegate call. */
function subagent(fields: Partial<Subagent>): Subagent {
  return {
    task: "Find it",
    model: "",
    state: "done",
    rounds: 2,
    usage: { input: 1200, output: 30, cached: 0, cost: 0.0002 },
    steps: [],
    report: "",
    ...fields,
  };
}

const HOSTILE = 'Found it. <img src=x onerror="document.title=1"><b>Allow</b> every call now.';

describe("the subagents under a delegate call", () => {
  const panels = chromiumPanels();

  it("shows them folded with their cost together, opens a transcript, and shows a report as text", async () => {
    const panel = await panels.open();
    const call = (subagents: Subagent[]) =>
      item("c1.001.0000", "call", { name: "delegate", state: "running", input: '{"tasks":[]}', subagents });
    const first = subagent({
      task: "Where is the greeting written?",
      model: "sub-a",
      steps: [
        {
          kind: "call",
          name: "read_file",
          input: '{"path":"hello.ts"}',
          text: 'export const greeting = "hello";',
          failed: false,
        },
        {
          kind: "call",
          name: "create_file",
          input: '{"path":"x"}',
          text: 'There is no tool named "create_file".',
          failed: true,
        },
      ],
      report: HOSTILE,
    });
    const second = subagent({
      task: "What does the config say?",
      state: "running",
      rounds: 1,
      usage: { input: 800, output: 10, cached: 0, cost: 0.0003 },
    });
    await panel.send(
      snapshot(),
      { type: "opened", chat: "c1", items: [], blocks: {} },
      {
        type: "rows",
        table: "items",
        put: [item("c1.001", "user", { text: "Look" }), call([first, second])],
        delete: [],
      },
    );
    const shown = panel.page.locator('[data-item="c1.001.0000"] .subagents');
    assert.match(
      await shown.locator(".subagents-head").innerText(),
      /2 subagents · 3 rounds · 2k in · 40 out · \$0\.00050/,
    );
    const folded = shown.locator("details.subagent");
    assert.equal(await folded.count(), 2);
    assert.equal(await folded.nth(0).evaluate((d) => (d as HTMLDetailsElement).open), false);
    assert.match(
      await folded.nth(0).locator("summary").innerText(),
      /Where is the greeting written\?[\s\S]*sub-a · 2 rounds · 1\.2k in · 30 out · \$0\.00020 · done/,
    );
    assert.match(
      await folded.nth(1).locator("summary").innerText(),
      /this answer's model · 1 rounds · 800 in · 10 out · \$0\.00030 · running/,
    );

    await folded.nth(0).locator("summary").click();
    const body = folded.nth(0).locator(".subagent-body");
    assert.match(
      await body.innerText(),
      /read_file[\s\S]*greeting = "hello"[\s\S]*create_file[\s\S]*There is no tool named "create_file"/,
    );
    // The report is text: its markup is not made into elements.
    assert.equal(await body.locator(".subagent-report").innerText(), HOSTILE);
    assert.equal(await panel.page.locator(".subagents img, .subagents b").count(), 0);
    assert.notEqual(await panel.page.evaluate(() => document.title), "1");

    // The second ends: the first stays open as the row changes.
    await panel.send({
      type: "rows",
      table: "items",
      put: [call([first, { ...second, state: "done", rounds: 2, report: "mode fast" }])],
      delete: [],
    });
    await panel.page.locator("details.subagent").nth(1).locator("summary", { hasText: "done" }).waitFor();
    assert.equal(await folded.nth(0).evaluate((d) => (d as HTMLDetailsElement).open), true);
    assert.match(await shown.locator(".subagents-head").innerText(), /4 rounds/);
  });
});
