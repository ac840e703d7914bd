/**
 * Messages queued while an answer runs, in Chromium: Enter queues (nothing is sent), the queued
 * message is shown above the box, it can be removed or put back in the box, it is kept in the saved
 * state, and it goes as an ordinary message when the host says the run ended, one at a time;
 * "Send now" sends it at once to steer the run.
 */
import assert from "node:assert/strict";
import type { PanelMessage } from "../../src/protocol/messages";
import { chromiumPanels } from "./page";
import { snapshot } from "./stream";

type Sent = Extract<PanelMessage, { type: "send" | "steer" }>;

describe("the composer's queue while an answer runs", () => {
  const panels = chromiumPanels();

  async function busy() {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", running: ["c1"] }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    const queued = page.getByRole("list", { name: "Queued messages" }).getByRole("listitem");
    const sent = async (): Promise<Sent[]> =>
      (await panel.posted()).filter((m): m is Sent => m.type === "send" || m.type === "steer");
    return { panel, page, box, queued, sent };
  }

  it("queues on Enter, sends each queued message after the run before it ended, and removes one", async () => {
    const { panel, page, box, queued, sent } = await busy();
    await box.focus();
    await page.keyboard.type("then add tests");
    await page.keyboard.press("Enter");
    await page.keyboard.type("and a changelog line");
    await page.keyboard.press("Enter");
    await page.keyboard.type("never mind this");
    await page.keyboard.press("Enter");
    assert.deepEqual(await sent(), [], "nothing is sent while the answer runs");
    assert.equal(await box.inputValue(), "", "the box is free for the next one");
    assert.equal(await queued.count(), 3);
    assert.match((await queued.nth(0).textContent()) ?? "", /Queued.*then add tests/);
    // Kept in the webview's saved state, so a reload loses none.
    const state = (await page.evaluate("window.__state")) as { queued: { text: string }[] };
    assert.deepEqual(
      state.queued.map((m) => m.text),
      ["then add tests", "and a changelog line", "never mind this"],
    );

    await queued.nth(2).getByRole("button", { name: "Remove the queued message" }).click();
    assert.equal(await queued.count(), 2);
    assert.doesNotMatch((await page.locator(".queued").textContent()) ?? "", /never mind/);

    await panel.send({ type: "running", chat: "c1", running: false });
    await page.waitForFunction(() => document.querySelectorAll(".queued-message").length === 1);
    assert.deepEqual(
      (await sent()).map((m) => [m.type, m.chat, m.text]),
      [["send", "c1", "then add tests"]],
      "the first goes as an ordinary message; the next waits for its answer",
    );
    await panel.send({ type: "running", chat: "c1", running: true });
    await panel.send({ type: "running", chat: "c1", running: false });
    await page.waitForFunction(() => document.querySelectorAll(".queued-message").length === 0);
    assert.deepEqual(
      (await sent()).map((m) => m.text),
      ["then add tests", "and a changelog line"],
    );
  });

  it("puts a queued message back in the box on a click, and Send now steers the run", async () => {
    const { page, box, queued, sent } = await busy();
    await box.focus();
    await page.keyboard.type("use the new parser");
    await page.keyboard.press("Enter");
    await page.keyboard.type("answer in French");
    await page.keyboard.press("Enter");

    await page.getByRole("button", { name: "Edit the queued message: use the new parser" }).click();
    assert.equal(await box.inputValue(), "use the new parser");
    assert.equal(await box.evaluate((e) => e === document.activeElement), true);
    assert.equal(await queued.count(), 1);

    await queued.nth(0).getByRole("button", { name: "Send now" }).click();
    assert.deepEqual(
      (await sent()).map((m) => [m.type, m.chat, m.text]),
      [["steer", "c1", "answer in French"]],
    );
    assert.equal(await queued.count(), 0);
  });
});
