import assert from "node:assert/strict";
import { chromiumPanels } from "./page";
import { item, snapshot } from "./stream";

describe("a run a limit ended", () => {
  const panels = chromiumPanels();

  it("says which limit ended it, as a note, and Continue sends a follow-up with the same model", async () => {
    const panel = await panels.open();
    await panel.send(
      snapshot(),
      { type: "opened", chat: "c1", items: [], blocks: {} },
      {
        type: "rows",
        table: "items",
        put: [
          item("c1.001", "user", { text: "Look at every file" }),
          item("c1.001.0000", "call", { name: "list_files", state: "done", output: "a.ts" }),
          item("c1.001.0001", "error", {
            name: "rounds",
            text: "Stopped: the 16-round limit was reached.",
            model: "local/qwen",
          }),
        ],
        delete: [],
      },
    );
    const note = panel.page.locator('[data-item="c1.001.0001"]');
    assert.equal(await note.getAttribute("role"), "status");
    assert.match(await note.innerText(), /Stopped: the 16-round limit was reached\./);
    assert.equal(await note.getByRole("button", { name: "Retry" }).count(), 0);
    await note.getByRole("button", { name: "Continue" }).click();
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "send",
      chat: "c1",
      text: "Continue",
      files: [],
      model: "local/qwen",
      assistant: "",
    });
  });

  it("shows the same failing call a limit ended, and an answer cut off at the output limit, as notes with Continue, and a note of settings with no button", async () => {
    const panel = await panels.open();
    await panel.send(
      snapshot(),
      { type: "opened", chat: "c1", items: [], blocks: {} },
      {
        type: "rows",
        table: "items",
        put: [
          item("c1.001", "user", { text: "Read it" }),
          item("c1.001.0000", "error", {
            name: "note",
            text: "Copilot cannot apply these settings, so they were left out: temperature.",
          }),
          item("c1.001.0001", "error", {
            name: "repeats",
            text: "Stopped: the model called read_file three times with the same arguments and got the same error each time: gone",
          }),
          item("c1.001.0002", "error", {
            name: "output",
            text: "Stopped: the answer reached the model's output limit (its most tokens per answer) and was cut off.",
          }),
        ],
        delete: [],
      },
    );
    const note = panel.page.locator('[data-item="c1.001.0000"]');
    assert.equal(await note.getAttribute("role"), "status");
    assert.match(await note.innerText(), /left out: temperature\./);
    assert.equal(await note.getByRole("button").count(), 0, "nothing to retry or continue");
    const repeats = panel.page.locator('[data-item="c1.001.0001"]');
    assert.equal(await repeats.getAttribute("role"), "status");
    assert.equal(await repeats.getByRole("button", { name: "Continue" }).count(), 1);
    assert.equal(await repeats.getByRole("button", { name: "Retry" }).count(), 0);
    // An answer cut off at the model's output limit goes on from where it stopped.
    const cut = panel.page.locator('[data-item="c1.001.0002"]');
    assert.equal(await cut.getAttribute("role"), "status");
    assert.match(await cut.innerText(), /cut off\./);
    assert.equal(await cut.getByRole("button", { name: "Continue" }).count(), 1);
  });
});
