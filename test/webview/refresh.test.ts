import assert from "node:assert/strict";
import type { HostMessage } from "../../src/protocol/messages";
import { chromiumPanels, type Panel } from "./page";
import { item, snapshot } from "./stream";

/** The views the panel keeps: each one's DOM is watched on its own. */
const VIEWS = {
  transcript: ".transcript",
  composer: ".composer",
  conversations: "#page-chats",
  assistants: "#page-assistants",
  skills: "#page-skills",
  plugins: "#page-plugins",
  memory: "#page-memory",
} as const;
type View = keyof typeof VIEWS;

/** What a batch of host messages changed: the number of DOM mutation records per view, and the items they were in. */
interface Changes {
  records: Record<View, number>;
  /** The data-item of the item each transcript record fell in ("" outside any item). */
  items: string[];
}

const call = item("u1.2", "call", {
  name: "read_file",
  input: '{"path":"src/a.ts"}',
  state: "running",
  done: false,
});
const ITEMS = [
  item("u1", "user", { text: "Read a.ts please." }),
  item("u1.1", "text", { text: "Reading it now." }),
  call,
  item("u2", "user", { text: "And b.ts?" }),
  item("u2.1", "text", { text: "Here it is." }),
];

describe("the panel updates only what changed", () => {
  const panels = chromiumPanels("suite");
  let panel: Panel;

  before(async () => {
    panel = await panels.open();
    await panel.send(snapshot({ chat: "c1", items: ITEMS }));
    await panel.settled();
  });

  /** Sends `messages`, lets the panel settle, and answers what each view's DOM did meanwhile. */
  async function changes(...messages: HostMessage[]): Promise<Changes> {
    await panel.page.evaluate((views) => {
      const w = window as unknown as { __changes: Changes; __observers: MutationObserver[] };
      w.__observers?.forEach((o) => o.disconnect());
      w.__changes = { records: {} as Changes["records"], items: [] };
      w.__observers = Object.entries(views).map(([name, selector]) => {
        w.__changes.records[name as View] = 0;
        const observer = new MutationObserver((records) => {
          w.__changes.records[name as View] += records.length;
          if (name !== "transcript") return;
          for (const record of records) {
            const at = record.target instanceof Element ? record.target : record.target.parentElement;
            w.__changes.items.push(at?.closest<HTMLElement>("[data-item]")?.dataset.item ?? "");
          }
        });
        observer.observe(document.querySelector(selector)!, {
          subtree: true,
          childList: true,
          attributes: true,
          characterData: true,
        });
        return observer;
      });
    }, VIEWS);
    await panel.send(...messages);
    await panel.settled();
    return panel.page.evaluate(() => (window as unknown as { __changes: Changes }).__changes);
  }

  /** The views whose DOM changed. */
  const changed = (c: Changes) =>
    Object.entries(c.records)
      .filter(([, count]) => count > 0)
      .map(([view]) => view);

  it("a changed call row changes only that call's DOM in the transcript", async () => {
    const c = await changes({
      type: "rows",
      table: "items",
      put: [{ ...call, state: "done", done: true, output: "export const a = 1;" }],
      delete: [],
    });
    assert.deepEqual(changed(c), ["transcript"]);
    assert.deepEqual([...new Set(c.items)], ["u1.2"]);
    assert.match(await panel.page.locator('[data-item="u1.2"]').innerText(), /read_file/);
  });

  it("a row of another conversation changes no DOM at all", async () => {
    const other = item("k1", "user", { text: "Not this one." }, "c0");
    // While the open conversation runs (its working line shown), as rows of another one arrive.
    await panel.send({ type: "running", chat: "c1", running: true });
    await panel.settled();
    const c = await changes(
      { type: "rows", table: "items", put: [other], delete: [] },
      { type: "rows", table: "items", put: [], delete: ["k1", "k2"] },
    );
    assert.deepEqual(changed(c), []);
    assert.equal(await panel.page.locator('[data-item="k1"]').count(), 0);
    await panel.send({ type: "running", chat: "c1", running: false });
  });

  it("an assistant's instructions (shown nowhere in a list) change no DOM; its name changes the views that show it", async () => {
    const reviewer = {
      id: "a2",
      name: "Reviewer",
      instructions: "Review code.",
      model: "local:qwen",
      tools: "read_file",
      approve: "",
    };
    const quiet = await changes({
      type: "rows",
      table: "assistants",
      put: [{ ...reviewer, instructions: "Review code. Be kind." }],
      delete: [],
    });
    assert.deepEqual(changed(quiet), []);
    const named = await changes({
      type: "rows",
      table: "assistants",
      put: [{ ...reviewer, name: "Critic" }],
      delete: [],
    });
    // Its row on the Assistants page, the Memory page's and the composer's pickers: not plugins, skills, chats.
    assert.deepEqual(changed(named), ["composer", "assistants", "memory"]);
    assert.deepEqual(await panel.page.locator("#page-assistants .rows .title").allInnerTexts(), [
      "Tandem",
      "Critic",
    ]);
    assert.deepEqual(
      await panel.page
        .locator(".composer")
        .getByRole("combobox", { name: "Assistant", exact: true })
        .locator("option")
        .allInnerTexts(),
      ["Tandem", "Critic"],
    );
  });

  it("a renamed conversation changes only its own row of the list", async () => {
    await panel.page.evaluate(() => {
      (window as unknown as { __row?: Element | null }).__row = document.querySelector('[data-chat="c1"]');
    });
    const c = await changes({
      type: "rows",
      table: "conversations",
      put: [{ id: "c0", agent: "a1", title: "Testing notes" }],
      delete: [],
    });
    assert.deepEqual(changed(c), ["conversations"]);
    assert.deepEqual(await panel.page.locator("#page-chats .row .title").allInnerTexts(), [
      "Refactor the parser",
      "Testing notes",
    ]);
    // The open conversation's row is the same element as before (nothing made again).
    assert.equal(
      await panel.page.evaluate(
        () => (window as unknown as { __row?: Element }).__row === document.querySelector('[data-chat="c1"]'),
      ),
      true,
    );
  });

  it("broke no CSP rule and logged no error", async () => {
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  });
});
