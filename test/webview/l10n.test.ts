/**
 * The panel in the longest language: a pseudo-locale (every text about 40% longer, German-like) at the
 * panel's narrow width of 300px. No control may overflow its container or the panel, no label may be
 * cut, and every text of the panel's own must come from the bundle the host passed.
 */
import assert from "node:assert/strict";
import { artifact, chromiumPanels, type Panel } from "./page";
import { PSEUDO_LETTERS, pseudo, pseudoBundle } from "./pseudo";
import { recorded, snapshot } from "./stream";
import { restoreStates } from "./restore-states";

/** What overflows or is cut in the page now, one line each, named by `state`. */
async function overflows(panel: Panel, state: string): Promise<string[]> {
  await panel.settled();
  // Written as a string: the test's TypeScript loader would wrap named functions in a helper the page lacks.
  const found = (await panel.page.evaluate(`(() => {
    const out = [];
    const name = (el) => {
      const label = el.getAttribute("aria-label") || el.getAttribute("placeholder") || el.textContent || "";
      return el.tagName.toLowerCase() + (el.className ? "." + String(el.className).trim().split(/\\s+/).join(".") : "") +
        " “" + label.trim().slice(0, 40) + "”";
    };
    const width = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > width + 1)
      out.push("the panel scrolls sideways: " + document.documentElement.scrollWidth + "px in " + width + "px");
    const controls = document.querySelectorAll(
      "button, select, input, textarea, label, h2, [role=tab], .chip, .notice, .empty p, .toolbar > *, .form-actions > *",
    );
    for (const el of controls) {
      if (el.closest(".markdown")) continue;
      const box = el.getBoundingClientRect();
      if (box.width === 0 || box.height === 0 || !el.checkVisibility()) continue;
      if (box.left < -0.5 || box.right > width + 0.5) {
        out.push(name(el) + " leaves the panel (" + Math.round(box.left) + "–" + Math.round(box.right) + "px)");
        continue;
      }
      const parent = el.parentElement.getBoundingClientRect();
      if (box.right > parent.right + 0.5 || box.left < parent.left - 0.5)
        out.push(name(el) + " overflows its container by " + Math.round(box.right - parent.right) + "px");
      if (el.tagName === "SELECT" && el.selectedOptions[0]) {
        // A select shows its chosen option in one line: measured as drawn in the select's font, beside its arrow.
        const style = getComputedStyle(el);
        const context = document.createElement("canvas").getContext("2d");
        context.font = style.font;
        const needed = context.measureText(el.selectedOptions[0].text).width;
        const room = el.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight) - 16;
        if (needed > room + 1)
          out.push(name(el) + " is cut: “" + el.selectedOptions[0].text + "” needs " + Math.round(needed) + "px, has " + Math.round(room) + "px");
      }
      const text = ["BUTTON", "LABEL", "H2", "P"].includes(el.tagName) || el.matches("[role=tab], .chip, .notice");
      if (text && el.scrollWidth > el.clientWidth + 1)
        out.push(name(el) + " is cut: " + el.scrollWidth + "px of text in " + el.clientWidth + "px");
    }
    return out;
  })()`)) as string[];
  return found.map((line) => `${state}: ${line}`);
}

/** The panel's own texts (labels, names, placeholders, headings) shown in English, not from the bundle. */
async function untranslated(panel: Panel, state: string, data: readonly string[]): Promise<string[]> {
  const texts = (await panel.page.evaluate(`(() => {
    const out = [];
    for (const el of document.querySelectorAll("*")) {
      // The person's and the model's words, names and paths are shown as they are in every language.
      const data = ".markdown, .raw, .plain, .memory-text, .title, .detail, .steps, .chip, .name, .input, .notice, .pending-file";
      if (el.closest(data + ", option, optgroup")) continue;
      if (el.tagName === "SCRIPT" || el.tagName === "STYLE" || !el.checkVisibility()) continue;
      for (const attribute of ["aria-label", "placeholder", "title"]) {
        const value = el.getAttribute(attribute);
        if (value) out.push(value);
      }
      for (const node of el.childNodes) if (node.nodeType === 3 && node.textContent.trim()) out.push(node.textContent.trim());
    }
    return out;
  })()`)) as string[];
  const english = (text: string) =>
    /[A-Za-z]{2,}/.test(text) && ![...PSEUDO_LETTERS].some((c) => text.includes(c)) && !data.includes(text);
  return [...new Set(texts.filter(english))].map((text) => `${state}: “${text}”`);
}

describe("the panel in a long language (pseudo-locale, 40% longer, at 300px)", () => {
  const panels = chromiumPanels();
  /** Texts that are the person's data or names, shown as they are in every language. */
  const DATA = [
    "Tandem",
    "Reviewer",
    "Refactor the parser",
    "Older question about tests",
    "release",
    "search",
    "AI_URL",
    "3 tools",
  ];

  it("fits every control and label of every page and state in the panel, each text from the bundle", async () => {
    const panel = await panels.open({ width: 300, language: "de", bundle: pseudoBundle() });
    const { page } = panel;
    const cut: string[] = [];
    const english: string[] = [];
    const look = async (state: string) => {
      cut.push(...(await overflows(panel, state)));
      english.push(...(await untranslated(panel, state, DATA)));
      // A picture of each state, for a person checking the layout by eye.
      await panel.screenshot(`l10n-pseudo-${state.replace(/[^a-z]+/gi, "-").toLowerCase()}`);
    };
    /** Opens the tab of the English `name` (named in the pseudo-locale) and waits for its page. */
    const tab = async (name: string) => {
      await page.getByRole("tab", { name: pseudo(name) }).click();
      await page.getByRole("tabpanel", { name: pseudo(name) }).waitFor();
    };

    await panel.send(snapshot({ configured: false }));
    await page.locator(".empty h2").waitFor();
    await look("no model");
    await panel.send({ type: "configured", configured: true });
    await page.locator(".empty h2").waitFor();
    await look("empty conversation");

    await panel.send(...recorded().slice(0, -1));
    await page.locator(".decision .button.primary").first().waitFor();
    await panel.send(
      { type: "running", chat: "c1", running: true },
      { type: "pending", files: [{ path: "/w/src/parser.ts", shown: "src/parser.ts" }] },
      { type: "notice", level: "warning", text: "The model has no tools." },
    );
    await look("conversation: approval, error, running, pending changes");

    // Each page, and the editor of a row where the page has one.
    const pages: [string, RegExp | undefined][] = [
      ["Conversations", undefined],
      ["Assistants", /Reviewer/],
      ["Skills", /release/],
      ["Plugins", /search/],
      ["Memory", undefined],
    ];
    for (const [name, row] of pages) {
      await tab(name);
      await look(name);
      if (!row) continue;
      const shown = page.getByRole("tabpanel", { name: pseudo(name) });
      await shown.getByRole("button", { name: row }).click();
      await shown.locator(".form-actions").waitFor();
      await look(`${name}, editing`);
    }

    // Restore… under the person's messages, in a panel of its own: choices, status, question, result.
    const restoring = await panels.open({ width: 300, language: "de", bundle: pseudoBundle() });
    await restoreStates(restoring, pseudo, async (state) => {
      cut.push(...(await overflows(restoring, state)));
      english.push(...(await untranslated(restoring, state, DATA)));
      await restoring.screenshot(`l10n-pseudo-${state.replace(/[^a-z]+/gi, "-").toLowerCase()}`);
    });
    assert.deepEqual(restoring.errors, []);

    await artifact("l10n-pseudo.txt", [...cut, ...english].join("\n"));
    assert.deepEqual(cut, [], "controls that overflow or are cut");
    assert.deepEqual(english, [], "panel texts not taken from the bundle");
    assert.deepEqual(panel.errors, []);
  });
});
