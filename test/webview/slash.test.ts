/**
 * The composer's `/` menu in Chromium: `/` at the start of the message asks the host for the prompt
 * files, lists them (and the panel's own /compact), filters as the person types the name, is driven by
 * the keyboard alone, and puts `/name ` in the box; a description is shown as text, never as HTML.
 */
import assert from "node:assert/strict";
import type { PanelMessage, PromptEntry } from "../../src/protocol/messages";
import { chromiumPanels } from "./page";
import { snapshot } from "./stream";

const PROMPTS: PromptEntry[] = [
  { name: "review-area", description: "Review one area", hint: "area=<name>", source: "workspace" },
  {
    name: "fix-tests",
    description: '<img src=x onerror="document.title=1">Fix them',
    hint: "",
    source: "workspace",
  },
  { name: "standup", description: "Write my standup", hint: "", source: "person" },
];

describe("the composer's / menu of prompt files", () => {
  const panels = chromiumPanels();

  it("lists the prompt files on /, filters, chooses with the keyboard and sends /name with its arguments", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.focus();
    await page.keyboard.type("/");
    const asked = async () => (await panel.posted()).filter((m) => m.type === "prompts").length;
    for (let i = 0; i < 50 && (await asked()) === 0; i++) await page.waitForTimeout(20);
    assert.equal(await asked(), 1, "the menu asked the host for the prompt files once");
    await panel.send({ type: "prompts", prompts: PROMPTS });
    const options = page.getByRole("listbox", { name: "Prompt files" }).getByRole("option");
    await options.first().waitFor();
    assert.deepEqual(await page.locator(".slash-menu .context-label").allTextContents(), [
      "/review-area",
      "/fix-tests",
      "/standup",
      "/compact",
    ]);
    // The description that holds HTML is text: no image is made, no script ran.
    assert.equal(await page.locator(".slash-menu img").count(), 0);
    assert.match((await options.nth(1).textContent()) ?? "", /<img src=x/);
    assert.notEqual(await page.title(), "1");
    assert.equal(await box.getAttribute("aria-expanded"), "true");

    await page.keyboard.type("st");
    await page.waitForFunction(() => document.querySelectorAll('.slash-menu [role="option"]').length === 2);
    // "standup" starts with what was typed, "fix-tests" only holds it: the first comes first.
    assert.match((await options.nth(0).textContent()) ?? "", /^\/standup/);
    assert.match((await options.nth(1).textContent()) ?? "", /^\/fix-tests/);
    await page.keyboard.press("ArrowDown");
    const active = await box.getAttribute("aria-activedescendant");
    assert.match((await page.locator(`#${active}`).textContent()) ?? "", /^\/fix-tests/);
    await page.keyboard.press("Enter");
    assert.equal(await box.inputValue(), "/fix-tests ", "chosen, not sent");
    assert.equal(await page.locator(".slash-menu").isVisible(), false);
    assert.equal((await panel.posted()).filter((m) => m.type === "send").length, 0);

    await page.keyboard.type("the parser");
    await page.keyboard.press("Enter");
    const send = (await panel.posted()).filter(
      (m): m is Extract<PanelMessage, { type: "send" }> => m.type === "send",
    );
    assert.deepEqual(
      send.map((m) => m.text),
      ["/fix-tests the parser"],
    );
  });

  it("closes on Escape and on a space, and Enter then sends what was typed", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.focus();
    await page.keyboard.type("/re");
    await panel.send({ type: "prompts", prompts: PROMPTS });
    const menu = page.locator(".slash-menu");
    await menu.waitFor();
    await page.keyboard.press("Escape");
    assert.equal(await menu.isVisible(), false);
    assert.equal(await box.inputValue(), "/re");
    await page.keyboard.type("view-area x");
    assert.equal(await menu.isVisible(), false, "a space ends the name: the menu stays closed");
    await page.keyboard.press("Enter");
    const send = (await panel.posted()).filter(
      (m): m is Extract<PanelMessage, { type: "send" }> => m.type === "send",
    );
    assert.deepEqual(
      send.map((m) => m.text),
      ["/review-area x"],
    );
  });
});
