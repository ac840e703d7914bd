import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { snapshot } from "./stream";

describe("the conversation list, the pages and the composer", () => {
  const panels = chromiumPanels("suite");
  let panel: Panel;

  before(async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "c1" }));
  });

  const last = async () => (await panel.posted()).at(-1);

  it("lists conversations newest first and searches titles here and text on the host", async () => {
    const { page } = panel;
    await page.getByRole("tab", { name: "Conversations" }).click();
    const titles = () => page.locator(".chats .row .title").allInnerTexts();
    assert.deepEqual(await titles(), ["Refactor the parser", "Older question about tests"]);
    await page.getByRole("searchbox", { name: "Search conversations" }).fill("older");
    assert.deepEqual(await titles(), ["Older question about tests"]);
    await page.getByRole("searchbox", { name: "Search conversations" }).fill("lexer");
    assert.deepEqual(await titles(), []);
    // The host is asked once the person pauses.
    await page.waitForFunction(() =>
      (window as unknown as { __posted: { query?: string }[] }).__posted.some((m) => m.query === "lexer"),
    );
    assert.deepEqual(await last(), { type: "search", query: "lexer" });
    await panel.send({ type: "found", query: "lexer", chats: ["c1"] });
    assert.deepEqual(await titles(), ["Refactor the parser"]);
    await page.getByRole("searchbox", { name: "Search conversations" }).fill("");
  });

  it("renames in place with F2 and Enter", async () => {
    const { page } = panel;
    await page.getByRole("button", { name: "Older question about tests", exact: true }).focus();
    await page.keyboard.press("F2");
    const input = page.getByRole("textbox", { name: "New title" });
    await input.fill("Testing notes");
    await input.press("Enter");
    assert.deepEqual(await last(), { type: "rename", chat: "c0", title: "Testing notes" });
  });

  it("deletes with a moment to undo", async () => {
    const { page } = panel;
    await page.getByRole("button", { name: "Delete Older question about tests" }).click();
    assert.deepEqual(await last(), { type: "deleteChat", chat: "c0" });
    await panel.send({ type: "rows", table: "conversations", put: [], delete: ["c0"] });
    assert.match(await page.locator(".undo").innerText(), /Deleted “Older question about tests”/);
    await page.getByRole("button", { name: "Undo" }).click();
    assert.deepEqual(await last(), { type: "undoDelete", chat: "c0" });
  });

  it("edits an assistant and saves it to the host", async () => {
    const { page } = panel;
    await page.getByRole("tab", { name: "Assistants" }).click();
    await page.getByRole("button", { name: /Reviewer/ }).click();
    const form = page.getByRole("tabpanel", { name: "Assistants" });
    await form.getByLabel("Instructions").fill("Review code. Be kind.");
    await form.getByLabel("Model").selectOption("gpt-4o-mini");
    await form.getByRole("button", { name: "Save" }).click();
    assert.deepEqual(await last(), {
      type: "saveAssistant",
      assistant: {
        id: "a2",
        name: "Reviewer",
        instructions: "Review code. Be kind.",
        model: "gpt-4o-mini",
        tools: "read_file",
        approve: "",
      },
    });
  });

  it("sends a plugin's key to the host once and never shows a stored one", async () => {
    const { page } = panel;
    await page.getByRole("tab", { name: "Plugins" }).click();
    const plugins = page.getByRole("tabpanel", { name: "Plugins" });
    await plugins.getByRole("button", { name: /search/ }).click();
    const key = plugins.getByLabel("Key", { exact: true });
    assert.equal(await key.inputValue(), "");
    assert.equal(await key.getAttribute("type"), "password");
    assert.match(await plugins.locator(".edit").innerText(), /A key is stored/);
    await plugins.getByRole("button", { name: "Save" }).click();
    assert.deepEqual(await last(), {
      type: "savePlugin",
      plugin: {
        id: "p1",
        agent: "a1",
        name: "search",
        address: "https://mcp.example.com/mcp",
        header: "Authorization",
        enabled: true,
      },
    });
    await plugins.getByRole("button", { name: /search/ }).click();
    await plugins.getByLabel("Key", { exact: true }).fill("sk-new");
    await plugins.getByRole("button", { name: "Save" }).click();
    const saved = await last();
    assert.equal(saved?.type === "savePlugin" && saved.plugin.key, "sk-new");
    assert.equal(
      await page
        .locator("body")
        .innerText()
        .then((t) => t.includes("sk-new")),
      false,
    );
  });

  it("forgets a memory", async () => {
    const { page } = panel;
    await page.getByRole("tab", { name: "Memory" }).click();
    await page.getByRole("button", { name: /Forget “Prefers TypeScript/ }).click();
    assert.deepEqual(await last(), { type: "forget", id: "m1" });
  });

  it("attaches files through the host's picker and sends them with the message", async () => {
    const { page } = panel;
    await page.getByRole("tab", { name: "Chat" }).click();
    await page.getByRole("button", { name: "Attach files" }).click();
    assert.deepEqual(await last(), { type: "attach" });
    await panel.send({ type: "attached", files: [{ path: "src/a.ts", name: "a.ts", kind: "text" }] });
    assert.deepEqual(await page.locator(".attached").innerText(), "a.ts");
    const groups = await page
      .locator("select[aria-label=Model] optgroup")
      .evaluateAll((g) => g.map((e) => (e as HTMLOptGroupElement).label));
    assert.deepEqual(groups, ["This computer", "AI_URL", "VS Code"]);
    await page.getByRole("combobox", { name: "Model" }).selectOption("local:qwen");
    await page.getByRole("textbox", { name: "Message to Tandem" }).fill("Read this");
    await page.getByRole("button", { name: "Send" }).click();
    assert.deepEqual(await last(), {
      type: "send",
      chat: "c1",
      text: "Read this",
      files: [{ path: "src/a.ts", name: "a.ts", kind: "text" }],
      model: "local:qwen",
      assistant: "a1",
    });
    assert.equal(await page.locator(".attached").innerText(), "");
  });

  it("gives dropped files to the host", async () => {
    await panel.page.evaluate(() => {
      const data = new DataTransfer();
      data.setData("text/uri-list", "file:///work/src/b.ts\r\n# comment\r\nfile:///work/README.md");
      document
        .querySelector(".composer")
        ?.dispatchEvent(new DragEvent("drop", { dataTransfer: data, bubbles: true, cancelable: true }));
    });
    assert.deepEqual(await last(), {
      type: "drop",
      uris: ["file:///work/src/b.ts", "file:///work/README.md"],
    });
  });
});
