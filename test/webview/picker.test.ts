/**
 * The `@` picker and pasted images in the message box, in Chromium: the picker opens on `@` and on
 * its button, filters as the person types (asking the host), is driven by the keyboard alone, and
 * its choices become chips that travel with the message as structured references.
 */
import assert from "node:assert/strict";
import type { ContextEntry, PanelMessage } from "../../src/protocol/messages";
import { chromiumPanels, type Panel } from "./page";
import { snapshot } from "./stream";

const ENTRIES: ContextEntry[] = [
  { ref: { kind: "selection" }, label: "Selection", detail: "Nothing is selected", disabled: true },
  { ref: { kind: "problems" }, label: "Problems", detail: "2 in the workspace", disabled: false },
  { ref: { kind: "folder", path: "src" }, label: "src/", detail: "src", disabled: false },
  { ref: { kind: "file", path: "src/parser.ts" }, label: "parser.ts", detail: "src", disabled: false },
  {
    ref: { kind: "symbol", name: "parse", path: "src/parser.ts", line: 11 },
    label: "parse",
    detail: "function · src/parser.ts:12",
    disabled: false,
  },
];

/** The host's answer to the latest `suggest`: the entries whose label holds its query. */
async function answer(panel: Panel): Promise<string> {
  const asked = (await panel.posted()).filter((m) => m.type === "suggest").at(-1);
  assert.ok(asked, "the picker asked the host for entries");
  const query = asked.query.toLowerCase();
  await panel.send({
    type: "suggestions",
    query: asked.query,
    entries: ENTRIES.filter((e) => e.label.toLowerCase().includes(query)),
  });
  return asked.query;
}

async function lastSend(panel: Panel): Promise<Extract<PanelMessage, { type: "send" }>> {
  const send = (await panel.posted()).filter((m) => m.type === "send").at(-1);
  assert.ok(send, "the message was sent");
  return send;
}

describe("the @ context picker", () => {
  const panels = chromiumPanels();

  it("opens on @, filters as the person types, chooses with the keyboard and sends the reference", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.focus();
    await page.keyboard.type("Explain @");
    const search = page.getByRole("combobox", { name: /Search files/ });
    await search.waitFor();
    assert.equal(await search.evaluate((e) => e === document.activeElement), true, "focus is in the picker");
    assert.equal(await search.getAttribute("aria-expanded"), "true");
    await answer(panel);
    const options = page.getByRole("listbox", { name: "Context" }).getByRole("option");
    assert.equal(await options.count(), 5);
    // The first option is disabled (nothing selected): the first enabled one is active.
    assert.equal(await options.nth(1).getAttribute("aria-selected"), "true");
    assert.equal(await options.nth(0).getAttribute("aria-disabled"), "true");

    await page.keyboard.type("pars");
    assert.equal(await answer(panel), "pars", "the host is asked with what was typed");
    await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 2);
    assert.deepEqual(await options.allTextContents(), ["parser.tssrc", "parsefunction · src/parser.ts:12"]);
    await page.keyboard.press("ArrowDown");
    const active = await search.getAttribute("aria-activedescendant");
    assert.equal(await page.locator(`#${active}`).textContent(), "parsefunction · src/parser.ts:12");
    await page.keyboard.press("Enter");

    // The symbol is a chip; the `@` is gone from the box and focus is back there.
    const chips = page.getByRole("list", { name: "Attached files and context" }).getByRole("listitem");
    assert.deepEqual(await chips.allTextContents(), ["parse"]);
    assert.equal(await box.inputValue(), "Explain ");
    assert.equal(await box.evaluate((e) => e === document.activeElement), true);
    assert.equal(await search.isVisible(), false);

    // A file too, through Tab, then the message goes with both as structured references.
    await page.keyboard.type("@");
    await answer(panel);
    await page.keyboard.type("parser");
    await answer(panel);
    await page.waitForFunction(() => document.querySelectorAll('[role="option"]').length === 1);
    await page.keyboard.press("Tab");
    assert.deepEqual(await chips.allTextContents(), ["parse", "parser.ts"]);
    await page.keyboard.type("please");
    await page.keyboard.press("Enter");
    const send = await lastSend(panel);
    assert.equal(send.text, "Explain please");
    assert.deepEqual(send.files, []);
    assert.deepEqual(send.context, [
      { kind: "symbol", name: "parse", path: "src/parser.ts", line: 11 },
      { kind: "file", path: "src/parser.ts" },
    ]);
    assert.equal(await chips.count(), 0, "the chips went with the message");
  });

  it("closes on Escape keeping what was typed, and does not open inside a word", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.focus();
    await page.keyboard.type("mail me@");
    assert.equal(
      await page.getByRole("combobox", { name: /Search files/ }).isVisible(),
      false,
      "an @ inside a word is an @",
    );
    await page.keyboard.type(" and @rea");
    await page.keyboard.press("Escape");
    assert.equal(await page.getByRole("combobox", { name: /Search files/ }).isVisible(), false);
    assert.equal(await box.inputValue(), "mail me@ and @rea", "nothing typed is lost");
    assert.equal(await box.evaluate((e) => e === document.activeElement), true);
  });

  it("opens from the Add context button; chips are removed with their button and with Backspace", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const add = page.getByRole("button", { name: "Add context" });
    await add.focus();
    await page.keyboard.press("Enter");
    await answer(panel);
    await page.getByRole("option", { name: /Problems/ }).waitFor();
    await page.keyboard.press("Enter");
    await add.focus();
    await page.keyboard.press("Enter");
    await answer(panel);
    await page.keyboard.press("End");
    await page.keyboard.press("Enter");
    const chips = page.getByRole("list", { name: "Attached files and context" }).getByRole("listitem");
    assert.deepEqual(await chips.allTextContents(), ["Problems", "parse"]);

    await page.getByRole("button", { name: "Remove Problems" }).click();
    assert.deepEqual(await chips.allTextContents(), ["parse"]);
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.fill("hello");
    await box.press("Home");
    await box.press("Backspace");
    assert.equal(await chips.count(), 0, "Backspace at the start takes back the last chip");
    assert.equal(await box.inputValue(), "hello");
    await box.press("Enter");
    const send = await lastSend(panel);
    assert.equal(send.context, undefined, "no context: the message is as before");
  });

  it("posts a pasted PNG to the host and shows the chip the host answers with", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.focus();
    // A 1×1 PNG, pasted as a browser pastes a screenshot: a file in the clipboard's DataTransfer.
    const png =
      "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==";
    await box.evaluate((element, base64) => {
      const bytes = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
      const data = new DataTransfer();
      data.items.add(new File([bytes], "image.png", { type: "image/png" }));
      element.dispatchEvent(
        new ClipboardEvent("paste", { clipboardData: data, bubbles: true, cancelable: true }),
      );
    }, png);
    await page.waitForFunction(() =>
      (window as unknown as { __posted: PanelMessage[] }).__posted.some((m) => m.type === "paste"),
    );
    const paste = (await panel.posted()).find((m) => m.type === "paste");
    assert.deepEqual(paste, { type: "paste", name: "Pasted image", data: `data:image/png;base64,${png}` });
    assert.equal(await box.inputValue(), "", "the image is not pasted as text");

    await panel.send({
      type: "attached",
      files: [{ path: "tandem-context:ab.png", name: "Pasted image.png", kind: "image" }],
    });
    const chips = page.getByRole("list", { name: "Attached files and context" }).getByRole("listitem");
    assert.deepEqual(await chips.allTextContents(), ["Pasted image.png"]);
    await box.fill("What is this?");
    await box.press("Enter");
    const send = await lastSend(panel);
    assert.deepEqual(send.files, [
      { path: "tandem-context:ab.png", name: "Pasted image.png", kind: "image" },
    ]);
  });
});
