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
});
