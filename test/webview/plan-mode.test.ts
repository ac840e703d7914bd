/**
 * Plan mode in Chromium: the composer's Plan switch posts the mode and shows the stored one, a new
 * chat's switch goes with its first message, the editor's command switches it, and under the
 * finished answer of a Plan conversation "Act on this plan" and "Edit plan" post their messages.
 */
import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { item, snapshot } from "./stream";

describe("Plan mode in the panel", () => {
  const panels = chromiumPanels();
  let panel: Panel;
  const last = async () => (await panel.posted()).at(-1);
  const conversation = (mode?: "plan") => ({
    type: "rows" as const,
    table: "conversations" as const,
    put: [{ id: "c1", agent: "a1", title: "Refactor the parser", ...(mode ? { mode } : {}) }],
    delete: [],
  });

  it("the Plan switch posts the mode, shows the stored one, and the editor's command switches it", async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const toggle = page.getByRole("button", { name: "Plan", exact: true });
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await toggle.click();
    assert.deepEqual(await last(), { type: "mode", chat: "c1", mode: "plan" });
    // Shown as stored, not as clicked.
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await panel.send(conversation("plan"));
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    assert.match((await toggle.getAttribute("title")) ?? "", /on for this conversation/);
    await panel.send({ type: "togglePlan" });
    assert.deepEqual(await last(), { type: "mode", chat: "c1", mode: "act" });
  });

  it("a new chat switched to Plan sends its first message with the mode, and the next new chat starts off", async () => {
    panel = await panels.open();
    await panel.send(snapshot());
    const { page } = panel;
    const toggle = page.getByRole("button", { name: "Plan", exact: true });
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    assert.match((await toggle.getAttribute("title")) ?? "", /on for the new conversation/);
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.fill("How should the parser change?");
    await page.keyboard.press("Enter");
    const sent = await last();
    assert.equal(sent?.type, "send");
    assert.equal(sent?.type === "send" && sent.mode, "plan");
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
  });

  it("under the finished answer of a Plan conversation, Act and Edit post their messages; out of Plan they are gone", async () => {
    panel = await panels.open();
    const plan = "# Plan\n\n1. Split the parser";
    await panel.send(
      snapshot({
        chat: "c1",
        conversations: [{ id: "c1", agent: "a1", title: "Refactor the parser", mode: "plan" }],
        items: [
          item("u1", "user", { text: "Plan the refactor", done: true }),
          // As the host sends an answer: its words as Markdown blocks, not in the row.
          item("u1.0000", "text", { text: "", done: true }),
        ],
        blocks: { "u1.0000": [{ key: "u1.0000:0", html: "<h1>Plan</h1>" }] },
      }),
    );
    const { page } = panel;
    const act = page.getByRole("button", { name: "Act on this plan" });
    await act.click();
    assert.deepEqual(await last(), { type: "act", item: "u1.0000" });
    await page.getByRole("button", { name: "Edit plan" }).click();
    assert.deepEqual(await last(), { type: "editPlan", item: "u1.0000" });
    await panel.send(conversation());
    assert.equal(await act.count(), 0);
    // An answer still being written offers no action either.
    await panel.send(conversation("plan"));
    assert.equal(await act.count(), 1);
    await panel.send({
      type: "rows",
      table: "items",
      put: [item("u1.0000", "text", { text: plan, done: false })],
      delete: [],
    });
    assert.equal(await act.count(), 0);
  });

  it("a new chat with an assistant that starts in Plan has the switch on; the person's switch holds until another is chosen", async () => {
    panel = await panels.open();
    const base = snapshot();
    const planner = { ...base.assistants[1], mode: "plan" as const };
    await panel.send({ ...base, assistants: [base.assistants[0], planner] });
    const { page } = panel;
    const toggle = page.getByRole("button", { name: "Plan", exact: true });
    const picker = page.getByRole("combobox", { name: "Assistant" });
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await picker.selectOption("a2");
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    // The person switches it off for this new chat: a refresh of the page's rows does not switch it back.
    await toggle.click();
    await panel.send({ type: "rows", table: "assistants", put: [planner], delete: [] });
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await picker.selectOption("a1");
    await picker.selectOption("a2");
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.fill("Plan the parser's split");
    await page.keyboard.press("Enter");
    const sent = await last();
    assert.equal(sent?.type === "send" && sent.mode, "plan");
    assert.equal(sent?.type === "send" && sent.assistant, "a2");
  });

  it("the Assistants page keeps an assistant's Starts in: Plan mode", async () => {
    panel = await panels.open();
    await panel.send(snapshot());
    const { page } = panel;
    await page.getByRole("tab", { name: "Assistants" }).click();
    await page
      .getByRole("list", { name: "Assistants" })
      .getByRole("button", { name: /Reviewer/ })
      .click();
    await page.getByRole("combobox", { name: "Starts in" }).selectOption("plan");
    await page.getByRole("button", { name: "Save" }).click();
    const sent = await last();
    assert.equal(sent?.type, "saveAssistant");
    assert.equal(sent?.type === "saveAssistant" && sent.assistant.mode, "plan");
  });
});
