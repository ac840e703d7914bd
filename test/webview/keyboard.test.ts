import assert from "node:assert/strict";
import type { Theme } from "./themes";
import { chromiumPanels, type Panel } from "./page";
import { item, recorded, snapshot } from "./stream";

describe("keyboard and themes", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  it("types, sends, stops and approves with the keyboard alone", async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    await page.keyboard.press("Tab");
    assert.equal(await page.evaluate(() => document.activeElement?.getAttribute("role")), "tab");
    // From the tab list to the message box.
    await page.getByRole("textbox", { name: "Message to Tandem" }).focus();
    await page.keyboard.type("First line");
    await page.keyboard.press("Shift+Enter");
    await page.keyboard.type("second line");
    await page.keyboard.press("Enter");
    const send = (await panel.posted()).at(-1);
    assert.deepEqual(send, {
      type: "send",
      chat: "c1",
      text: "First line\nsecond line",
      files: [],
      model: "",
      assistant: "a1",
    });
    assert.equal(await page.getByRole("textbox", { name: "Message to Tandem" }).inputValue(), "");

    await panel.send(
      {
        type: "rows",
        table: "items",
        put: [item("c1.001", "user", { text: "First line\nsecond line", done: false })],
        delete: [],
      },
      { type: "running", chat: "c1", running: true },
    );
    // Tab from the box reaches Stop: attach, assistant, model, the Plan switch, then the action button.
    const stop = page.getByRole("button", { name: "Stop" });
    await stop.waitFor();
    for (let i = 0; i < 10 && !(await stop.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press("Tab");
    assert.equal(await stop.evaluate((b) => b === document.activeElement), true);
    const outline = await stop.evaluate((b) => getComputedStyle(b).outlineStyle);
    assert.notEqual(outline, "none", "focus is visible");
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "stop", chat: "c1" });

    await panel.send({
      type: "rows",
      table: "items",
      put: [
        item("c1.002", "call", {
          name: "write_file",
          input: '{"path":"a.ts"}',
          state: "approval",
          done: false,
        }),
      ],
      delete: [],
    });
    const allow = page.getByRole("button", { name: "Allow", exact: true });
    await allow.waitFor();
    await page.getByRole("textbox", { name: "Message to Tandem" }).focus();
    for (let i = 0; i < 30 && !(await allow.evaluate((b) => b === document.activeElement)); i++)
      await page.keyboard.press("Shift+Tab");
    assert.equal(
      await allow.evaluate((b) => b === document.activeElement),
      true,
      "Allow is reachable with Shift+Tab",
    );
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "decide",
      item: "c1.002",
      yes: true,
      always: false,
    });
    assert.deepEqual(await panel.violations(), []);
  });

  it("moves between tabs with the arrow keys and shows each page", async () => {
    panel = await panels.open();
    await panel.send(snapshot());
    const { page } = panel;
    await page.getByRole("tab", { name: "Chat" }).focus();
    await page.keyboard.press("ArrowRight");
    await page.keyboard.press("ArrowRight");
    assert.equal(await page.getByRole("tab", { name: "Assistants" }).getAttribute("aria-selected"), "true");
    assert.equal(await page.getByRole("tabpanel", { name: "Assistants" }).isVisible(), true);
    assert.match(await page.getByRole("tabpanel", { name: "Assistants" }).innerText(), /Reviewer/);
    await page.keyboard.press("End");
    assert.match(
      await page.getByRole("tabpanel", { name: "Memory" }).innerText(),
      /Prefers TypeScript examples/,
    );
  });

  for (const theme of ["light", "dark", "high-contrast"] as Theme[]) {
    it(`renders every item kind in the ${theme} theme (screenshot)`, async () => {
      panel = await panels.open({ theme });
      const messages = recorded();
      await panel.send(snapshot(), ...messages);
      await panel.page.locator('[data-item="c1.004"] summary').click();
      // Every item of a kind the transcript shows as a row is on screen, with something to read.
      const shown = messages
        .flatMap((m) => (m.type === "rows" && m.table === "items" ? m.put : []))
        .filter((row) => ["user", "reasoning", "call", "text", "error"].includes(row.kind));
      assert.deepEqual([...new Set(shown.map((row) => row.kind))].sort(), [
        "call",
        "error",
        "reasoning",
        "text",
        "user",
      ]);
      for (const row of shown) {
        const element = panel.page.locator(`[data-item="${row.id}"]`);
        assert.equal(await element.isVisible(), true, `${row.kind} item ${row.id} is on screen`);
        assert.notEqual((await element.innerText()).trim(), "", `${row.kind} item ${row.id} shows its text`);
      }
      // The plan is pinned as a checklist; the screenshot is kept for people to look at.
      assert.match(await panel.page.getByRole("list", { name: /plan/i }).innerText(), /Split the lexer/);
      await panel.screenshot(`panel-${theme}`);
      const colours = await panel.page.evaluate(() => ({
        background: getComputedStyle(document.body).backgroundColor,
        text: getComputedStyle(document.body).color,
      }));
      assert.notEqual(colours.background, colours.text);
      assert.deepEqual(await panel.violations(), []);
      assert.deepEqual(panel.errors, []);
    });
  }
});
