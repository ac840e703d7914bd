import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { item, snapshot } from "./stream";

/** Presses Tab until `name`'s button has the focus (at most `limit` times); true when it got there. */
async function tabTo(panel: Panel, name: string, limit = 30): Promise<boolean> {
  const { page } = panel;
  for (let i = 0; i < limit; i++) {
    const label = await page.evaluate(() => {
      const active = document.activeElement;
      return active instanceof HTMLButtonElement
        ? (active.getAttribute("aria-label") ?? active.textContent)
        : "";
    });
    if (label === name) return true;
    await page.keyboard.press("Tab");
  }
  return false;
}

/** A conversation of two answered messages, the first with a file attached. */
const conversation = [
  item("u1", "user", {
    text: "Fix the parser",
    files: [{ path: "src/parse.ts", name: "parse.ts", kind: "text" }],
  }),
  item("u1.0000", "text", { text: "I changed the parser." }),
  item("u2", "user", { text: "Then test it" }),
  item("u2.0000", "text", { text: "Let me look." }),
  item("u2.0001", "call", { name: "read_file", input: '{"path":"a.ts"}', state: "done" }),
  item("u2.0002", "text", { text: "The tests pass." }),
];

describe("edit and resend, regenerate and retry on a chosen model", () => {
  const panels = chromiumPanels();

  it("edits a sent message inline with the keyboard and posts it to be resent, with its files", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", items: conversation }));
    const { page } = panel;
    const edits = page.getByRole("button", { name: "Edit message" });
    assert.equal(await edits.count(), 2, "every message of the person can be edited");
    await page.getByRole("region", { name: "Conversation" }).focus();
    assert.ok(await tabTo(panel, "Edit message"), "Edit is reached with Tab");
    await page.keyboard.press("Enter");

    const box = page.getByRole("textbox", { name: "Edited message" });
    assert.equal(await box.evaluate((b) => b === document.activeElement), true, "the editor has the focus");
    assert.equal(await box.inputValue(), "Fix the parser");
    assert.equal(await page.getByRole("checkbox").count(), 0, "no restore offered when the host cannot");
    assert.equal(await page.getByRole("button", { name: "Remove parse.ts" }).count(), 1);

    // Escape keeps the message as it was and gives the focus back to Edit.
    await page.keyboard.press("Escape");
    assert.equal(await box.count(), 0);
    assert.equal(await edits.first().evaluate((b) => b === document.activeElement), true);

    await page.keyboard.press("Enter");
    await page.keyboard.press("ControlOrMeta+A");
    await page.keyboard.type("Fix the lexer");
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "resend",
      item: "u1",
      text: "Fix the lexer",
      files: [{ path: "src/parse.ts", name: "parse.ts", kind: "text" }],
      model: "",
      restore: false,
    });
    assert.deepEqual(panel.errors, []);
  });

  it("offers to restore the files when the host can, and sends the choice", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", items: conversation, restore: true }));
    const { page } = panel;
    await page.getByRole("button", { name: "Edit message" }).nth(1).click();
    const restore = page.getByRole("checkbox", { name: "Also restore the files to this point" });
    await restore.focus();
    await page.keyboard.press("Space");
    await page.getByRole("button", { name: "Send", exact: true }).first().click();
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "resend",
      item: "u2",
      text: "Then test it",
      files: [],
      model: "",
      restore: true,
    });
  });

  it("keeps a message's Restore menu open when the message's row changes, and posts the choice", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", items: conversation, restore: true }));
    const { page } = panel;
    await page.getByRole("button", { name: "Restore…" }).first().click();
    // The host says something new about the message (its row again) while the person chooses.
    await panel.send({
      type: "rows",
      table: "items",
      put: [{ ...conversation[0], text: "Fix the parser, please" }],
      delete: [],
    });
    await page.getByText("Fix the parser, please").waitFor();
    await page.getByRole("button", { name: "Restore files" }).click();
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "restoreTo",
      item: "u1",
      files: true,
      conversation: false,
    });
  });

  it("asks the host's restore question under the right message, with Restore and Cancel from the keyboard", async () => {
    const panel = await panels.open({ width: 300 });
    await panel.send(snapshot({ chat: "c1", items: conversation, restore: true }));
    const { page } = panel;
    const second = page.locator("article", { hasText: "Then test it" });
    await second.getByRole("button", { name: "Restore…" }).click();
    await second.getByRole("button", { name: "Restore files" }).click();
    const question = "Restore 2 files to how they were before “Then test it”? A checkpoint is taken first.";
    await panel.send({ type: "restoreQuestion", item: "u2", ask: "q1", question });
    const dialog = second.getByRole("alertdialog", { name: question });
    await dialog.waitFor();
    assert.equal(await page.getByRole("alertdialog").count(), 1, "only under the message it goes back to");
    assert.equal(
      await dialog.evaluate((d) => d.contains(document.activeElement)),
      true,
      "the focus is on the question",
    );
    const restore = dialog.getByRole("button", { name: "Restore", exact: true });
    assert.equal(await restore.evaluate((b) => b === document.activeElement), true);
    await dialog.getByRole("button", { name: "Cancel" }).waitFor();
    // The question fits the narrow panel: nothing sticks out of it.
    assert.equal(
      await dialog.evaluate((d) => d.getBoundingClientRect().right <= document.documentElement.clientWidth),
      true,
    );
    // Escape answers no and gives the focus back to the message's Restore….
    await page.keyboard.press("Escape");
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q1", yes: false });
    assert.equal(await dialog.count(), 0);
    assert.equal(
      await second.getByRole("button", { name: "Restore…" }).evaluate((b) => b === document.activeElement),
      true,
    );

    // Asked again, the person's row changing meanwhile: Enter on the focused Restore answers yes.
    await panel.send({ type: "restoreQuestion", item: "u2", ask: "q2", question });
    await panel.send({ type: "rows", table: "items", put: [{ ...conversation[2] }], delete: [] });
    await dialog.waitFor();
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q2", yes: true });
    assert.equal(await dialog.count(), 0);

    // A question for a message not on screen is answered no at once; Cancel answers no.
    await panel.send({ type: "restoreQuestion", item: "gone", ask: "q3", question });
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q3", yes: false });
    await panel.send({ type: "restoreQuestion", item: "u1", ask: "q4", question });
    const first = page.locator("article", { hasText: "Fix the parser" });
    await first.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q4", yes: false });
  });

  it("says under the message what the restore is doing until it is done, then what was done", async () => {
    const panel = await panels.open({ width: 300 });
    await panel.send(snapshot({ chat: "c1", items: conversation, restore: true }));
    const { page } = panel;
    const second = page.locator("article", { hasText: "Then test it" });
    const menu = second.locator(".restore-menu");
    await second.getByRole("button", { name: "Restore…" }).click();
    await second.getByRole("button", { name: "Restore both" }).click();
    // Comparing can take seconds: a status says so under the message until the question comes.
    const comparing = menu
      .getByRole("status")
      .filter({ hasText: "Comparing the files with the checkpoint…" });
    await comparing.waitFor();
    assert.equal(await comparing.locator(".codicon-loading").count(), 1, "a spinner beside the words");
    assert.equal(
      await second.getByRole("button", { name: "Restore…" }).evaluate((b) => b === document.activeElement),
      true,
      "the focus goes back to the message's Restore…",
    );
    const question = "Restore 2 files to how they were before “Then test it”? A checkpoint is taken first.";
    await panel.send({ type: "restoreQuestion", item: "u2", ask: "q1", question });
    const dialog = second.getByRole("alertdialog", { name: question });
    await dialog.waitFor();
    assert.equal(await comparing.count(), 0, "the question replaces the status");
    await dialog.getByRole("button", { name: "Restore", exact: true }).click();
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q1", yes: true });
    const restoring = menu.getByRole("status").filter({ hasText: "Restoring…" });
    await restoring.waitFor();
    assert.equal(await dialog.count(), 0);

    // The result replaces "Restoring…", under the same message only.
    const said = "Restored 2 files to how they were before “Then test it”.";
    await panel.send({ type: "restoreDone", item: "u2", ok: true, text: said });
    await menu.getByRole("status").filter({ hasText: said }).waitFor();
    assert.equal(await restoring.count(), 0, "no spinner stays");
    assert.equal(await page.getByText(said).count(), 1);
    await menu.getByRole("button", { name: "Dismiss" }).click();
    assert.equal(await menu.evaluate((m) => m.childElementCount), 0);

    // An error ends the status too, said as an alert; so does the person's Cancel, with nothing shown.
    const first = page.locator("article", { hasText: "Fix the parser" });
    await first.getByRole("button", { name: "Restore…" }).click();
    await first.getByRole("button", { name: "Restore files" }).click();
    await first.getByRole("status").filter({ hasText: "Comparing the files with the checkpoint…" }).waitFor();
    const why = "Nothing was restored: That message is no longer in the conversation.";
    await panel.send({ type: "restoreDone", item: "u1", ok: false, text: why });
    await first.getByRole("alert").filter({ hasText: why }).waitFor();
    assert.equal(await first.locator(".restore-menu .codicon-loading").count(), 0);

    await second.getByRole("button", { name: "Restore…" }).click();
    await second.getByRole("button", { name: "Restore files" }).click();
    await panel.send({ type: "restoreQuestion", item: "u2", ask: "q2", question });
    await dialog.getByRole("button", { name: "Cancel" }).click();
    assert.deepEqual((await panel.posted()).at(-1), { type: "restoreAnswer", ask: "q2", yes: false });
    await panel.send({
      type: "restoreDone",
      item: "u2",
      ok: false,
      text: "Nothing was restored: The restore was cancelled.",
    });
    assert.equal(
      await menu.evaluate((m) => m.childElementCount),
      0,
      "the person's Cancel needs no word back",
    );
    assert.deepEqual(panel.errors, []);
  });

  it("regenerates any finished answer, on the same or a chosen model, from its last words", async () => {
    const panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", items: conversation }));
    const { page } = panel;
    const regenerate = page.getByRole("button", { name: "Regenerate", exact: true });
    assert.equal(
      await regenerate.count(),
      2,
      "one under each finished answer, not under words a call follows",
    );
    const offered = await page.$$eval("[data-item]", (views) =>
      views.filter((v) => v.querySelector(".again")).map((v) => (v as HTMLElement).dataset.item),
    );
    assert.deepEqual(offered, ["u1.0000", "u2.0002"]);

    await page.getByRole("region", { name: "Conversation" }).focus();
    assert.ok(await tabTo(panel, "Regenerate"));
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), { type: "regenerate", item: "u1.0000", model: "" });

    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    const models = page.getByRole("combobox", { name: "Model to regenerate with" });
    assert.equal(await models.evaluate((m) => m === document.activeElement), true);
    await models.selectOption("gpt-4o-mini");
    await page.keyboard.press("Tab");
    await page.keyboard.press("Enter");
    assert.deepEqual((await panel.posted()).at(-1), {
      type: "regenerate",
      item: "u1.0000",
      model: "gpt-4o-mini",
    });
  });

  it("offers Regenerate only once the answer is finished, and moves it to the answer's last words", async () => {
    const panel = await panels.open();
    await panel.send(
      snapshot({
        chat: "c1",
        items: [item("u1", "user", { text: "Hello", done: false }), item("u1.0000", "text", { text: "Hi." })],
        running: ["c1"],
      }),
    );
    const { page } = panel;
    const regenerate = page.getByRole("button", { name: "Regenerate", exact: true });
    assert.equal(await regenerate.count(), 0, "not while the run answers the message");
    await panel.send(
      { type: "rows", table: "items", put: [item("u1.0001", "text", { text: "More." })], delete: [] },
      { type: "rows", table: "items", put: [item("u1", "user", { text: "Hello" })], delete: [] },
      { type: "running", chat: "c1", running: false },
    );
    await regenerate.waitFor();
    assert.equal(await regenerate.count(), 1);
    assert.equal(
      await regenerate.evaluate((b) => (b.closest("[data-item]") as HTMLElement).dataset.item),
      "u1.0001",
    );
  });

  it("retries a failed answer on a chosen model", async () => {
    const panel = await panels.open();
    await panel.send(
      snapshot({
        chat: "c1",
        items: [item("u1", "user", { text: "Hello" }), item("u1.0000", "error", { text: "overloaded" })],
      }),
    );
    const { page } = panel;
    await page.getByRole("button", { name: "Retry with another model…" }).click();
    await page.getByRole("combobox", { name: "Model to retry with" }).selectOption("local:qwen");
    await page.getByRole("button", { name: "Retry", exact: true }).click();
    assert.deepEqual((await panel.posted()).at(-1), { type: "retry", chat: "c1", model: "local:qwen" });
  });
});
