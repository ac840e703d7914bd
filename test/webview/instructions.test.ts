import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { item, snapshot } from "./stream";

describe("project instructions in the panel", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  const last = async () => (await panel.posted()).at(-1);

  it("shows the files an answer was given as chips, a file left out with why, and opens one", async () => {
    panel = await panels.open();
    await panel.send(
      snapshot({
        chat: "c1",
        items: [
          item("u1", "user", { text: "Hello", done: true }),
          item("u1.0000", "text", {
            text: "Hi.",
            done: true,
            instructions: [
              { path: "AGENTS.md", given: true, note: "" },
              { path: "pkg/AGENTS.md", given: true, note: "only its beginning was given (too long)" },
              { path: "CLAUDE.md", given: false, note: "The path leads out of the workspace." },
            ],
          }),
        ],
      }),
    );
    const { page } = panel;
    const chips = page.getByRole("list", { name: "Project instructions used" });
    assert.deepEqual(
      (await chips.getByRole("listitem").allInnerTexts()).map((t) => t.trim()),
      ["AGENTS.md", "pkg/AGENTS.md", "CLAUDE.md (not read)"],
    );
    assert.match(
      (await chips.getByRole("button", { name: "pkg/AGENTS.md" }).getAttribute("title")) ?? "",
      /only its beginning was given/,
    );
    assert.match(
      (await chips.getByRole("button", { name: "CLAUDE.md (not read)" }).getAttribute("title")) ?? "",
      /leads out of the workspace/,
    );
    await chips.getByRole("button", { name: "AGENTS.md", exact: true }).click();
    assert.deepEqual(await last(), { type: "openFile", path: "AGENTS.md" });
    // An answer without instructions shows no such list.
    await panel.send({
      type: "rows",
      table: "items",
      put: [item("u1.0000", "text", { text: "Hi.", done: true })],
      delete: [],
    });
    assert.equal(await page.getByRole("list", { name: "Project instructions used" }).count(), 0);
  });

  it("switches the open conversation's instructions off and on, and shows the stored setting", async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
    const { page } = panel;
    const toggle = page.getByRole("button", { name: "Project instructions" });
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    await toggle.click();
    assert.deepEqual(await last(), { type: "instructions", chat: "c1", on: false });
    await panel.send({
      type: "rows",
      table: "conversations",
      put: [{ id: "c1", agent: "a1", title: "First", instructions: false }],
      delete: [],
    });
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    await toggle.click();
    assert.deepEqual(await last(), { type: "instructions", chat: "c1", on: true });
  });

  it("marks a repository's assistant in the picker and on the Assistants page", async () => {
    panel = await panels.open();
    const base = snapshot();
    await panel.send({
      ...base,
      assistants: [
        ...base.assistants,
        {
          id: "repo:.tandem/assistants/reviewer.md",
          name: "Repo reviewer",
          instructions: "Review.",
          model: "",
          tools: "read_file",
          approve: "",
          source: "repository",
        },
      ],
    });
    const { page } = panel;
    const options = await page.getByRole("combobox", { name: "Assistant" }).locator("option").allInnerTexts();
    assert.ok(options.includes("Repo reviewer (repository)"), options.join(" | "));
    assert.ok(options.includes("Tandem"), options.join(" | "));
    await page.getByRole("tab", { name: "Assistants" }).click();
    const text = await page.locator('section[aria-label="Assistants"]').innerText();
    assert.match(text, /Repo reviewer[\s\S]*From the repository/);
    assert.match(text, /Tandem[\s\S]*This workspace/);
  });

  it("lists the person's assistants for every workspace with where each comes from, marks a repository's named like one, and keeps one for every workspace", async () => {
    panel = await panels.open();
    const base = snapshot();
    const mine = { instructions: "Mine.", model: "", tools: "", approve: "" };
    await panel.send({
      ...base,
      assistants: [
        ...base.assistants,
        { id: "user:r1", name: "Reviewer", ...mine, source: "user" },
        { id: "repo:.tandem/assistants/reviewer.md", name: "Reviewer", ...mine, source: "repository" },
      ],
    });
    const { page } = panel;
    await page.getByRole("tab", { name: "Assistants" }).click();
    const list = page.getByRole("list", { name: "Assistants" });
    const text = await list.innerText();
    assert.match(text, /Reviewer\s*Every workspace \(yours\) · Default model/);
    assert.match(text, /Reviewer\s*From the repository · named like yours, which stays as it is/);
    assert.match(text, /Tandem\s*This workspace/);
    await list.getByRole("button", { name: /Tandem/ }).click();
    await page.getByRole("combobox", { name: "Kept for" }).selectOption({ label: "Every workspace (yours)" });
    await page.getByRole("button", { name: "Save" }).click();
    const saved = await last();
    assert.equal(saved?.type, "saveAssistant");
    assert.equal(saved?.type === "saveAssistant" && saved.assistant.source, "user");
  });

  it("switches a new chat's instructions off before it exists; its first message carries it, and the next new chat starts on", async () => {
    panel = await panels.open();
    await panel.send(snapshot());
    const { page } = panel;
    const toggle = page.getByRole("button", { name: "Project instructions" });
    assert.equal(await toggle.isVisible(), true);
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
    await toggle.click();
    assert.equal(await toggle.getAttribute("aria-pressed"), "false");
    assert.match((await toggle.getAttribute("title")) ?? "", /off for the new conversation/);
    const box = page.getByRole("textbox", { name: "Message to Tandem" });
    await box.fill("Hello without AGENTS.md");
    await box.press("Enter");
    const sent = await last();
    assert.equal(sent?.type, "send");
    assert.equal(sent?.type === "send" && sent.instructions, false);
    assert.equal(await toggle.getAttribute("aria-pressed"), "true");
  });
});
