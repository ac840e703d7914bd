import assert from "node:assert/strict";
import type { Item } from "../../src/protocol/rows";
import { chromiumPanels, type Panel } from "./page";
import { item, snapshot } from "./stream";

/** The texts of the items shown, in order. */
function shown(panel: Panel): Promise<string[]> {
  return panel.page.$$eval(".items > [data-item]", (views) =>
    views.map((view) => (view as HTMLElement).innerText.trim()),
  );
}

/** A row as a corrupt journal line or a newer version could give it: a kind this panel has no view for. */
function corrupt(id: string, chat: string): Item {
  return { ...item(id, "user", {}, chat), kind: "widget" as Item["kind"] };
}

describe("an item whose view cannot be drawn", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  beforeEach(async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "" }));
  });

  it("shows a line in its place when the conversation opens, and the other items around it", async () => {
    await panel.send({
      type: "opened",
      chat: "c1",
      items: [
        item("m1", "user", { text: "First question" }, "c1"),
        corrupt("m2", "c1"),
        item("m3", "user", { text: "Second question" }, "c1"),
      ],
      blocks: {},
    });
    await panel.settled();
    const texts = await shown(panel);
    assert.equal(texts.length, 3, texts.join(" | "));
    assert.match(texts[0], /First question/);
    assert.equal(texts[1], "This item could not be shown");
    assert.match(texts[2], /Second question/);
    assert.deepEqual(panel.errors, []);
  });

  it("shows a line in its place when the row comes in, and the items that come after it", async () => {
    await panel.send({
      type: "opened",
      chat: "c1",
      items: [item("m1", "user", { text: "First" }, "c1")],
      blocks: {},
    });
    await panel.send(
      { type: "rows", table: "items", put: [corrupt("m2", "c1")], delete: [] },
      { type: "rows", table: "items", put: [item("m3", "user", { text: "After it" }, "c1")], delete: [] },
    );
    await panel.settled();
    const texts = await shown(panel);
    assert.equal(texts.length, 3, texts.join(" | "));
    assert.equal(texts[1], "This item could not be shown");
    assert.match(texts[2], /After it/);
    // Once its row can be shown, the item shows.
    await panel.send({
      type: "rows",
      table: "items",
      put: [item("m2", "user", { text: "Repaired" }, "c1")],
      delete: [],
    });
    await panel.settled();
    assert.match((await shown(panel))[1], /Repaired/);
    assert.deepEqual(panel.errors, []);
  });
});
