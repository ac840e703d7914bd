import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { longConversation, longId } from "./long";
import { item, snapshot, streamed } from "./stream";

/** Whether item `id` is in the DOM and at least partly inside the transcript's viewport. */
function inView(panel: Panel, id: string): Promise<boolean> {
  return panel.page.evaluate((id) => {
    const element = document.querySelector(`[data-item="${id}"]`);
    const view = document.querySelector(".transcript");
    if (!element || !view) return false;
    const a = element.getBoundingClientRect();
    const b = view.getBoundingClientRect();
    return a.height > 0 && a.bottom > b.top && a.top < b.bottom;
  }, id);
}

/** The ids of the items in the DOM, in order. */
function rendered(panel: Panel): Promise<string[]> {
  return panel.page.$$eval(".items > [data-item]", (views) =>
    views.map((view) => (view as HTMLElement).dataset.item ?? ""),
  );
}

/** Waits until item `id` is in view (the transcript follows a scroll by the next frame or so). */
async function waitInView(panel: Panel, id: string): Promise<void> {
  await panel.page.waitForFunction(
    (id) => {
      const element = document.querySelector(`[data-item="${id}"]`);
      const view = document.querySelector(".transcript");
      if (!element || !view) return false;
      const a = element.getBoundingClientRect();
      const b = view.getBoundingClientRect();
      return a.height > 0 && a.bottom > b.top && a.top < b.bottom;
    },
    id,
    { timeout: 5000 },
  );
}

const COUNT = 5000;
const LAST = longId(COUNT - 1);

describe("a 5,000-item conversation", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  beforeEach(async () => {
    panel = await panels.open({ height: 720 });
    await panel.send(snapshot({ chat: "" }), longConversation(COUNT));
    await panel.settled();
  });

  /** Each test ends with no CSP rule broken and no error logged. */
  async function clean(): Promise<void> {
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  }

  it("opens at its newest items with only the items near the view in the DOM", async () => {
    await waitInView(panel, LAST);
    const ids = await rendered(panel);
    assert.ok(ids.length > 5 && ids.length < 150, `${ids.length} items in the DOM`);
    assert.equal(ids.at(-1), LAST);
    assert.equal(await inView(panel, longId(0)), false);
    // The scrollbar spans the whole conversation: the spacers stand for the items not in the DOM.
    const height = await panel.page.locator(".transcript").evaluate((view) => view.scrollHeight);
    assert.ok(height > COUNT * 30, `scroll height ${height}`);
    await clean();
  });

  it("shows the first items when scrolled to the top, and never a blank view on the way", async () => {
    const view = panel.page.locator(".transcript");
    await view.hover();
    // Wheel steps up from the bottom: each one shows items (the window follows the scroll).
    for (let step = 0; step < 12; step++) {
      await panel.page.mouse.wheel(0, -400);
      await panel.settled();
      const shown = await panel.page.$$eval(".items > [data-item]", (views) => {
        const box = document.querySelector(".transcript")!.getBoundingClientRect();
        return views.filter((v) => {
          const r = v.getBoundingClientRect();
          return r.bottom > box.top && r.top < box.bottom;
        }).length;
      });
      assert.ok(shown > 0, `nothing in view after wheel step ${step}`);
    }
    // A drag of the scrollbar to the top: the first items.
    await view.evaluate((element) => (element.scrollTop = 0));
    await waitInView(panel, longId(0));
    assert.match(await panel.page.locator(`[data-item="${longId(0)}"]`).innerText(), /Question number 0/);
    assert.equal((await rendered(panel)).includes(LAST), false);
    // The keyboard goes back down: End on the focused transcript shows the newest item again.
    await view.focus();
    await panel.page.keyboard.press("End");
    await waitInView(panel, LAST);
    await clean();
  });

  it("jumps to an item in the middle, whose text can be selected and copied", async () => {
    const middle = longId(2500);
    await panel.send({ ...longConversation(COUNT), at: middle });
    await panel.settled();
    await waitInView(panel, middle);
    const selected = await panel.page.evaluate((id) => {
      const element = document.querySelector(`[data-item="${id}"]`)!;
      const range = document.createRange();
      range.selectNodeContents(element);
      const selection = getSelection()!;
      selection.removeAllRanges();
      selection.addRange(range);
      return selection.toString();
    }, middle);
    assert.match(selected, /Answer number 833: the parser reads one token at a time/);
    // It stays in view: the window does not move away from it after it settled.
    await panel.settled();
    assert.equal(await inView(panel, middle), true);
    await clean();
  });

  it("keeps the streaming answer in sight at the bottom, and says when it is finished", async () => {
    await panel.send({ type: "running", chat: "c2", running: true });
    const text = "Streaming words, four characters at a time, until the answer is long. ".repeat(30);
    await panel.send(...streamed(item("m009999.1", "text", {}, "c2"), text));
    await panel.send({ type: "running", chat: "c2", running: false });
    await panel.settled();
    await waitInView(panel, "m009999.1");
    const gap = await panel.page
      .locator(".transcript")
      .evaluate((view) => view.scrollHeight - view.scrollTop - view.clientHeight);
    assert.ok(gap < 40, `${gap}px from the bottom`);
    await panel.page.waitForFunction(() =>
      /Answer finished: Streaming words/.test(
        document.querySelector("[aria-live=polite]")?.textContent ?? "",
      ),
    );
    assert.equal(await panel.page.locator('[data-item="m009999.1"]').getAttribute("aria-label"), "Answer");
    await clean();
  });

  it("does not pull the person down when they scrolled up, and puts a late item in key order", async () => {
    const view = panel.page.locator(".transcript");
    await view.evaluate((element) => (element.scrollTop = 0));
    await waitInView(panel, longId(0));
    await panel.send(...streamed(item("m009999.1", "text", {}, "c2"), "New words while reading the top."));
    await panel.settled();
    assert.equal(await inView(panel, longId(0)), true);
    assert.equal(await panel.page.locator('[data-item="m009999.1"]').count(), 0);
    // Back at the bottom, an item keyed before the newest lands before it.
    await view.evaluate((element) => (element.scrollTop = element.scrollHeight));
    await waitInView(panel, "m009999.1");
    await panel.send({
      type: "rows",
      table: "items",
      put: [item("m009998", "user", { text: "late" }, "c2")],
      delete: [],
    });
    await panel.settled();
    assert.deepEqual((await rendered(panel)).slice(-2), ["m009998", "m009999.1"]);
    await clean();
  });
});
