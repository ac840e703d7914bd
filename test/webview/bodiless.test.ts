import assert from "node:assert/strict";
import type { HostMessage } from "../../src/protocol/messages";
import { chromiumPanels, type Panel } from "./page";
import { walkTranscript } from "./long";
import { item, snapshot } from "./stream";

/**
 * HTML that parses to a document without a body: a `<frameset>` takes the body's place, so the
 * panel's DOMPurify pass has nothing to give back (it answers null, not a fragment).
 */
const FRAMESET = "<frameset onload=window.__xss=1>";

/** The ids of the items in the transcript's DOM, in order. */
function rendered(panel: Panel): Promise<string[]> {
  return panel.page.$$eval(".items > [data-item]", (views) =>
    views.map((view) => (view as HTMLElement).dataset.item ?? ""),
  );
}

/** An answer `id` whose one block is `html`. */
function answer(id: string, html: string): HostMessage[] {
  return [
    { type: "rows", table: "items", put: [item(id, "text", { done: false })], delete: [] },
    { type: "blocks", patch: { key: id, count: 1, blocks: [{ index: 0, html }] } },
  ];
}

describe("a block whose HTML has no body (a frameset)", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  beforeEach(async () => {
    panel = await panels.open();
  });

  /** Nothing ran, no error was logged. */
  async function clean(): Promise<void> {
    assert.equal(
      await panel.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss),
      undefined,
    );
    assert.deepEqual(
      panel.errors.filter((error) => !/Content Security Policy/.test(error)),
      [],
    );
  }

  it("in an opened conversation: it shows empty and the items after it are drawn", async () => {
    const ids = ["c1.1", "c1.2", "c1.3"];
    await panel.send(snapshot(), {
      type: "opened",
      chat: "c1",
      items: ids.map((id) => item(id, "text")),
      blocks: {
        "c1.1": [{ key: "c1.1.0", html: "<p>before</p>" }],
        "c1.2": [{ key: "c1.2.0", html: FRAMESET }],
        "c1.3": [{ key: "c1.3.0", html: "<p>after</p>" }],
      },
    });
    await panel.settled();
    assert.deepEqual(await rendered(panel), ids);
    assert.equal(await panel.page.locator('[data-item="c1.2"] .block').innerText(), "");
    assert.equal(await panel.page.locator('[data-item="c1.3"] .markdown').innerText(), "after");
    await clean();
  });

  it("streamed as a patch: the answers streamed after it are drawn too", async () => {
    await panel.send(snapshot(), { type: "opened", chat: "c1", items: [], blocks: {} });
    await panel.send(...answer("c1.1", "<p>before</p>"), ...answer("c1.2", FRAMESET));
    await panel.send(...answer("c1.3", "<p>after</p>"));
    await panel.settled();
    assert.deepEqual(await rendered(panel), ["c1.1", "c1.2", "c1.3"]);
    assert.equal(await panel.page.locator('[data-item="c1.3"] .markdown').innerText(), "after");
    await clean();
  });

  it("in a long conversation scrolled through: every item is drawn when scrolled to", async () => {
    await panel.send(snapshot(), { type: "opened", chat: "c1", items: [], blocks: {} });
    const messages: HostMessage[] = [];
    const count = 120;
    for (let i = 0; i < count; i++) {
      const id = `c1.${String(i).padStart(3, "0")}`;
      messages.push(...answer(id, i === 60 ? FRAMESET : `<p>Answer ${i}</p>`));
    }
    await panel.send(...messages);
    const seen = await walkTranscript(panel);
    assert.equal(seen.size, count);
    await clean();
  });
});
