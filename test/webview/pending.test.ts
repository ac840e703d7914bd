import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { snapshot } from "./stream";

describe("the panel's pending bar", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  it("lists the files the agent changed, asks the host to review, keep or undo, and hides when none is left", async () => {
    panel = await panels.open();
    await panel.send(snapshot({ configured: true }));
    const bar = panel.page.getByRole("region", { name: "Pending changes" });
    assert.equal(await bar.isVisible(), false);
    await panel.send({
      type: "pending",
      files: [
        { path: "/w/src/a.ts", shown: "src/a.ts" },
        { path: "/w/notes/<b>.md", shown: "notes/<b>.md" },
      ],
    });
    await bar.waitFor();
    assert.match(await bar.innerText(), /2 files changed by Tandem/);
    // A file name is text, never markup.
    assert.equal(await bar.locator("b").count(), 0);
    await bar.getByRole("button", { name: "notes/<b>.md" }).click();
    await bar.getByRole("button", { name: "Review" }).click();
    await bar.getByRole("button", { name: "Keep All" }).click();
    await bar.getByRole("button", { name: "Undo All" }).click();
    assert.deepEqual((await panel.posted()).slice(-4), [
      { type: "pendingAction", action: "review", path: "/w/notes/<b>.md" },
      { type: "pendingAction", action: "review", path: "" },
      { type: "pendingAction", action: "keepAll", path: "" },
      { type: "pendingAction", action: "undoAll", path: "" },
    ]);
    await panel.send({ type: "pending", files: [] });
    await bar.waitFor({ state: "hidden" });
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  });
});
