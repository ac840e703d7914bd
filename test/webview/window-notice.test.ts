import assert from "node:assert/strict";
import { chromiumPanels } from "./page";
import { item, snapshot } from "./stream";

describe("a prompt the model server cut", () => {
  const panels = chromiumPanels();

  it("is said as a warning in the conversation with its fix, not as a failure, and Retry asks again", async () => {
    const panel = await panels.open();
    const said =
      "The model server cut the last request without saying so: Tandem sent about 6,200 tokens and the model read 4,096. To serve more, start Ollama with OLLAMA_CONTEXT_LENGTH=16384 in its environment.";
    await panel.send(
      snapshot(),
      { type: "opened", chat: "c1", items: [], blocks: {} },
      {
        type: "rows",
        table: "items",
        put: [
          item("c1.001", "user", { text: "Read the log" }),
          item("c1.001.0000", "text", { text: "It is long.", done: true }),
          item("c1.001.0001", "error", { name: "window", text: said, model: "local/qwen" }),
        ],
        delete: [],
      },
    );
    const note = panel.page.locator('[data-item="c1.001.0001"]');
    assert.equal(await note.getAttribute("role"), "status");
    assert.match((await note.getAttribute("class")) ?? "", /\bwindow\b/);
    assert.doesNotMatch((await note.getAttribute("class")) ?? "", /\berror\b/);
    assert.match(await note.innerText(), /OLLAMA_CONTEXT_LENGTH=16384/);
    assert.equal(await note.getByRole("button", { name: "Continue" }).count(), 0);
    assert.equal(await note.getByRole("button", { name: "Retry", exact: true }).count(), 1);
  });
});
