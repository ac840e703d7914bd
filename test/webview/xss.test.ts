import assert from "node:assert/strict";
import type { HostMessage } from "../../src/protocol/messages";
import { chromiumPanels, type Panel } from "./page";
import { walkTranscript } from "./long";
import { item, snapshot, streamed } from "./stream";

/** The corpus of hostile payloads: the first exported list of strings in test/fixtures/xss.ts. */
async function corpus(): Promise<string[]> {
  // Found at run time, so this file type-checks while the fixture is being written.
  const module: Record<string, unknown> = await import(new URL("../fixtures/xss.ts", import.meta.url).href);
  for (const value of [module.xss, ...Object.values(module)]) {
    if (Array.isArray(value) && value.length > 0 && value.every((v) => typeof v === "string")) return value;
  }
  throw new Error("test/fixtures/xss.ts exports no list of payloads");
}

describe("hostile answers in the panel", () => {
  const panels = chromiumPanels();
  let panel: Panel;
  let payloads: string[];

  before(async () => {
    payloads = await corpus();
  });

  const flag = () => panel.page.evaluate(() => (window as unknown as { __xss?: unknown }).__xss);

  it("has at least 100 payloads", () => {
    assert.ok(payloads.length >= 100, `only ${payloads.length} payloads`);
  });

  it("streams each payload as a model's answer through the host renderer: nothing runs", async () => {
    panel = await panels.open();
    await panel.send(snapshot(), { type: "opened", chat: "c1", items: [], blocks: {} });
    const messages: HostMessage[] = [];
    payloads.forEach((payload, i) => messages.push(...streamed(item(`c1.${i}`, "text"), payload, 7)));
    await panel.send(...messages);
    // The panel keeps only the items near the view in the DOM: every one is scrolled through, so each is rendered.
    const seen = await walkTranscript(panel, async () => assert.equal(await flag(), undefined));
    assert.equal(seen.size, payloads.length);
    assert.equal(await flag(), undefined);
    assert.deepEqual(await panel.violations(), []);
  });

  it("gives each raw payload straight to the panel as a block: its own DOMPurify pass holds", async () => {
    panel = await panels.open();
    await panel.send(snapshot(), { type: "opened", chat: "c1", items: [], blocks: {} });
    const messages: HostMessage[] = [];
    // Beyond script: what the panel's own hooks narrow (link schemes, image sources, controls).
    const narrowed = [
      '<a href="ftp://example.com/x">ftp</a><a href="file:///etc/passwd">file</a><a href="command:workbench.action.terminal.new">cmd</a>',
      '<img src="data:image/svg+xml;base64,PHN2Zy8+"><img src="http://example.com/a.png"><img src="/local.png">',
      '<img src="https://example.com/a.png"><img srcset="https://example.com/a.png 2x"><img src="//example.com/a.png">',
      '<button class="remote-image" data-image="javascript:window.__xss=1">x</button><a data-image="https://example.com/a.png">y</a>',
      '<input type="text" value="x"><input type="checkbox"><button type="submit">go</button>',
      '<button data-action="eval">x</button><a href="https://example.com" target="_top">t</a>',
    ];
    [...payloads, ...narrowed].forEach((payload, i) => {
      const id = `c1.${i}`;
      messages.push({ type: "rows", table: "items", put: [item(id, "text", { done: false })], delete: [] });
      // Whole, and split in two, the second half added at the end, as a stream would deliver it.
      messages.push({ type: "blocks", patch: { key: id, count: 1, blocks: [{ index: 0, html: payload }] } });
      const half = Math.floor(payload.length / 2);
      messages.push({
        type: "blocks",
        patch: { key: id, count: 2, blocks: [{ index: 1, html: payload.slice(0, half) }] },
      });
      messages.push({
        type: "blocks",
        patch: { key: id, count: 2, blocks: [{ index: 1, html: payload.slice(half), at: half }] },
      });
    });
    await panel.send(...messages);
    // Every item is scrolled into the DOM (the panel keeps only those near the view), and at each step
    // every link and button the payloads left is clicked and what the DOM holds is checked.
    const step = async () => {
      // Click every link and button the payloads left, as a curious person would.
      await panel.page.evaluate(() => {
        for (const element of document.querySelectorAll<HTMLElement>(
          ".markdown a, .markdown button, .markdown img",
        )) {
          element.click();
          element.dispatchEvent(new MouseEvent("mouseover", { bubbles: true }));
        }
        // The walk goes on from where it is, not from the last control clicked.
        (document.activeElement as HTMLElement | null)?.blur();
      });
      await panel.settled();
      assert.equal(await flag(), undefined);
      const active = await panel.page.evaluate(() => {
        const found: string[] = [];
        const banned = /^(SCRIPT|IFRAME|OBJECT|EMBED|FORM|STYLE|SVG|MATH|LINK|META|BASE|TEXTAREA|SELECT)$/i;
        const href = /^(https?:|mailto:|vscode:|command:tandem\.|#)/i;
        const src = /^data:image\/(png|gif|jpeg|webp);base64,/i;
        for (const element of document.querySelectorAll(".markdown *")) {
          if (banned.test(element.tagName)) found.push(element.tagName);
          if (element.tagName === "INPUT" && element.getAttribute("type") !== "checkbox") found.push("INPUT");
          for (const { name, value } of element.attributes) {
            const bad =
              /^on/i.test(name) ||
              name === "style" ||
              name === "target" ||
              (name === "href" && !href.test(value)) ||
              (name === "src" && !src.test(value)) ||
              (name === "data-action" && !["copy", "insert", "new-file"].includes(value)) ||
              (name === "data-image" && !(element.tagName === "BUTTON" && /^https:\/\//.test(value))) ||
              name === "srcset" ||
              (name === "type" && !["checkbox", "button"].includes(value));
            if (bad) found.push(`${element.tagName}[${name}=${value.slice(0, 30)}]`);
          }
        }
        return found;
      });
      assert.deepEqual(active, []);
      assert.equal(await panel.page.locator(".markdown input:not([disabled])").count(), 0);
      assert.equal(await panel.page.locator('.markdown button:not([type="button"])').count(), 0);
    };
    const seen = await walkTranscript(panel, step);
    // Every payload's item was drawn when scrolled to, even one whose HTML purifies to nothing.
    const all = [...payloads, ...narrowed].map((_, i) => `c1.${i}`);
    assert.deepEqual(
      all.filter((id) => !seen.has(id)),
      [],
    );
    assert.equal(seen.size, all.length);
    assert.deepEqual(
      panel.errors.filter((error) => !/Content Security Policy/.test(error)),
      [],
    );
    // Chromium parses even an inert document under the page's CSP and reports the inline handlers
    // and styles it refused there, before DOMPurify drops them. Those reports are the only ones allowed:
    // nothing was loaded, framed or run.
    const PARSE_TIME = new Set(["script-src-attr", "style-src-attr", "style-src-elem"]);
    const others = (await panel.violations()).filter(
      (v) => !(PARSE_TIME.has(v.directive) && v.blocked === "inline"),
    );
    assert.deepEqual(others, []);
    // The host saw only the messages the panel may send.
    const types = new Set((await panel.posted()).map((m) => m.type));
    for (const type of types) assert.ok(["ready", "openLink", "code", "loadImage"].includes(type), type);
    // Clicking the placeholders asked for https images only, and the page itself loaded none.
    for (const m of await panel.posted()) if (m.type === "loadImage") assert.match(m.url, /^https:\/\//);
  });
});
