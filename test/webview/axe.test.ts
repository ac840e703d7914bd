/**
 * axe-core (WCAG 2.0/2.1 A and AA rules) on the panel: the conversation in each state a person
 * meets (empty, streaming, waiting for an approval, an error) and every page behind the tabs, in the
 * light, dark and high-contrast themes.
 */
import assert from "node:assert/strict";
import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import type { Page } from "playwright-core";
import type { AxeResults, Result } from "axe-core";
import { artifact, chromiumPanels, type Panel } from "./page";
import type { Theme } from "./themes";
import { item, recorded, snapshot, streamed } from "./stream";
import { restoreStates } from "./restore-states";

const axeSource = readFile(createRequire(import.meta.url).resolve("axe-core/axe.min.js"), "utf8");
const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"];

/** A violation as a person reads it: rule, impact, and the elements it was found on. */
function said(violation: Result): string {
  const where = violation.nodes.map((n) => n.target.join(" ")).join(", ");
  return `${violation.impact ?? "?"} ${violation.id}: ${violation.help} (${where})`;
}

/** Runs axe-core in the page (injected once, through the debugger so the panel's CSP stays as it is). */
async function axe(page: Page): Promise<AxeResults> {
  const loaded = await page.evaluate(() => "axe" in window);
  if (!loaded) await page.evaluate(await axeSource);
  return page.evaluate(
    (tags) =>
      (window as unknown as { axe: typeof import("axe-core") }).axe.run(document, {
        runOnly: { type: "tag", values: tags },
        resultTypes: ["violations"],
      }),
    TAGS,
  );
}

/** Every violation of the page in its current state, named by `state`. */
async function violations(panel: Panel, state: string): Promise<string[]> {
  const results = await axe(panel.page);
  return results.violations.map((v) => `${state}: ${said(v)}`);
}

/** Opens the tab named `name` and waits for its page. */
async function tab(panel: Panel, name: string): Promise<void> {
  await panel.page.getByRole("tab", { name }).click();
  await panel.page.getByRole("tabpanel", { name }).waitFor();
}

describe("accessibility (axe-core, WCAG 2.1 A and AA)", () => {
  const panels = chromiumPanels();

  for (const theme of ["light", "dark", "high-contrast"] as Theme[]) {
    it(`finds no violation on any page or state in the ${theme} theme`, async () => {
      const found: string[] = [];

      // The first run: no model yet, then the empty conversation.
      const panel = await panels.open({ theme });
      await panel.send(snapshot({ configured: false }));
      await panel.page.getByRole("region", { name: "Set up a model" }).waitFor();
      found.push(...(await violations(panel, "no model")));
      await panel.send({ type: "configured", configured: true });
      await panel.page.getByRole("region", { name: "New conversation" }).waitFor();
      found.push(...(await violations(panel, "empty conversation")));

      // Streaming: a question, the answer half written, Stop offered.
      const user = item("c1.001", "user", { text: "Refactor the parser, please.", done: false });
      await panel.send(
        { type: "opened", chat: "c1", items: [], blocks: {} },
        { type: "rows", table: "items", put: [user], delete: [] },
        { type: "running", chat: "c1", running: true },
        ...streamed(item("c1.002", "text"), "The parser now reads **one token").slice(0, -1),
      );
      await panel.page.getByRole("button", { name: "Stop" }).waitFor();
      found.push(...(await violations(panel, "streaming")));

      // Every item kind: a plan, a tool call with sources, an approval waiting, an error, a retry.
      await panel.send(...recorded().slice(0, -1));
      await panel.page.getByRole("button", { name: "Allow", exact: true }).waitFor();
      await panel.page.locator('[data-item="c1.004"] summary').click();
      await panel.page.locator('[data-item="c1.002"] summary').click();
      found.push(...(await violations(panel, "approval waiting, error and every item kind")));
      await panel.send(
        { type: "running", chat: "c1", running: false },
        {
          type: "rows",
          table: "items",
          put: [
            item("c1.011", "call", { name: "read_file", input: '{"path":"gone.ts"}', state: "failed" }),
            item("c1.012", "call", {
              name: "run_command",
              input: '{"command":"rm -r ."}',
              state: "declined",
            }),
          ],
          delete: [],
        },
      );
      await panel.page.locator('[data-item="c1.012"]').waitFor();
      await panel.send({ type: "notice", level: "error", text: "The endpoint answered 401: bad key." });
      found.push(...(await violations(panel, "failed and declined calls, error notice")));
      await panel.send({ type: "notice", level: "warning", text: "The model has no tools." });
      found.push(...(await violations(panel, "warning notice")));

      // The `@` picker open (a disabled entry among them), then the chip of the chosen reference.
      await panel.page.getByRole("button", { name: "Add context" }).click();
      await panel.send({
        type: "suggestions",
        query: "",
        entries: [
          { ref: { kind: "selection" }, label: "Selection", detail: "Nothing is selected", disabled: true },
          { ref: { kind: "problems" }, label: "Problems", detail: "2 in the workspace", disabled: false },
          { ref: { kind: "file", path: "src/a.ts" }, label: "a.ts", detail: "src", disabled: false },
        ],
      });
      await panel.page.getByRole("option", { name: /Problems/ }).waitFor();
      found.push(...(await violations(panel, "@ picker open")));
      await panel.page.keyboard.press("Enter");
      await panel.page.getByRole("listitem").filter({ hasText: "Problems" }).waitFor();
      found.push(...(await violations(panel, "@ context chip")));

      // The pages behind the tabs, each as a list and with its editor open.
      await tab(panel, "Conversations");
      found.push(...(await violations(panel, "Conversations")));
      await panel.page.getByRole("button", { name: "Older question about tests", exact: true }).focus();
      await panel.page.keyboard.press("F2");
      await panel.page.getByRole("textbox", { name: "New title" }).waitFor();
      found.push(...(await violations(panel, "Conversations, renaming")));
      await panel.page.keyboard.press("Escape");
      for (const [name, row] of [
        ["Assistants", /Reviewer/],
        ["Skills", /release/],
        ["Plugins", /search/],
      ] as const) {
        await tab(panel, name);
        found.push(...(await violations(panel, name)));
        await panel.page.getByRole("tabpanel", { name }).getByRole("button", { name: row }).first().click();
        found.push(...(await violations(panel, `${name}, editing`)));
      }
      await tab(panel, "Memory");
      found.push(...(await violations(panel, "Memory")));

      // Restore… under the person's messages: choices, status, question, result (a panel of its own).
      const restoring = await panels.open({ theme });
      await restoreStates(
        restoring,
        (english) => english,
        async (state) => void found.push(...(await violations(restoring, state))),
      );
      assert.deepEqual(restoring.errors, []);

      await artifact(`axe-${theme}.txt`, found.join("\n"));
      assert.deepEqual(found, []);
      assert.deepEqual(await panel.violations(), [], "axe ran without breaking the page's CSP");
    });
  }
});
