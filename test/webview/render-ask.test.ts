/**
 * A long conversation as the host opens it: every row, the words (blocks) of the newest answers
 * only. The panel asks for the blocks of the answers it shows without them, once, and shows them
 * when they come.
 */
import assert from "node:assert/strict";
import { keyed } from "../../src/markdown";
import type { ChatOpened, PanelMessage } from "../../src/protocol/messages";
import { chromiumPanels, type Panel } from "./page";
import { longConversation, longId } from "./long";
import { snapshot } from "./stream";

const COUNT = 3000;

/** The conversation as the host sends it: rows without their words, blocks of the last 60 items only. */
function asOpened(): { opened: ChatOpened; texts: Map<string, string> } {
  const opened = longConversation(COUNT);
  const texts = new Map<string, string>();
  const newest = new Set(opened.items.slice(-60).map((i) => i.id));
  for (const row of opened.items) {
    if (row.kind !== "text") continue;
    texts.set(row.id, row.text);
    row.text = "";
    if (!newest.has(row.id)) delete opened.blocks[row.id];
  }
  return { opened, texts };
}

/** The ids the panel asked blocks for so far. */
async function askedIds(panel: Panel): Promise<string[]> {
  return (await panel.posted())
    .filter((m): m is Extract<PanelMessage, { type: "render" }> => m.type === "render")
    .flatMap((m) => m.ids);
}

describe("a long conversation's words, asked for as they are shown", () => {
  const panels = chromiumPanels();

  it("asks only for the answers it shows without words, once each, and shows them when they come", async () => {
    const panel = await panels.open({ height: 720 });
    const { opened, texts } = asOpened();
    await panel.send(snapshot({ chat: "" }), opened);
    await panel.settled();
    // At the newest items every answer shown has its blocks: nothing is asked.
    assert.deepEqual(await askedIds(panel), []);

    // Scrolled to the top: the first answers are shown and asked for, not the thousands between.
    await panel.page.evaluate(() => (document.querySelector(".transcript")!.scrollTop = 0));
    const first = longId(1);
    await panel.page.waitForFunction(() => document.querySelector('[data-item="m000000.1"]') !== null);
    let asked: string[] = [];
    for (let i = 0; i < 50 && !asked.includes(first); i++) {
      await panel.settled();
      asked = await askedIds(panel);
    }
    assert.ok(asked.includes(first), asked.join(", "));
    assert.ok(asked.length < 100, `${asked.length} asked`);
    assert.equal(new Set(asked).size, asked.length, "each once");
    assert.ok(
      asked.every((id) => texts.has(id)),
      "only answers",
    );

    // The host's answer: the blocks of the first answer, as a patch from none.
    const blocks = keyed(texts.get(first)!, first);
    await panel.send({
      type: "blocks",
      patch: {
        key: first,
        count: blocks.length,
        blocks: blocks.map((b, index) => ({ index, html: b.html })),
      },
    });
    await panel.settled();
    const shown = await panel.page.locator('[data-item="m000000.1"]').innerText();
    assert.match(shown, /Answer number 0: the parser reads one token at a time\./);
    assert.deepEqual(panel.errors, []);
  });
});
