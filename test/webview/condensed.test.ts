import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { ANSWER, item, recorded, snapshot, streamed } from "./stream";

describe("the transcript: condensing, tokens and cost", () => {
  const panels = chromiumPanels("suite");
  let panel: Panel;

  before(async () => {
    panel = await panels.open();
    await panel.send(snapshot(), ...recorded());
  });

  it("marks where the model's view was condensed, the summary folded under the divider", async () => {
    await panel.send({
      type: "rows",
      table: "items",
      put: [
        item("c1.00z", "summary", { text: "The person asked to refactor the parser; the lexer is split." }),
      ],
      delete: [],
    });
    const marker = panel.page.locator('[data-item="c1.00z"]');
    assert.equal(
      (await marker.locator("summary").innerText()).trim(),
      "Earlier turns were summarised for the model",
    );
    assert.equal(await marker.evaluate((d) => (d as HTMLDetailsElement).open), false);
    await marker.locator("summary").click();
    assert.match(await marker.innerText(), /the lexer is split/);
    // The items above the divider are all still shown: the person's transcript loses nothing.
    assert.equal(await panel.page.locator('[data-item="c1.001"]').count(), 1);
  });

  it("shows an answer's tokens and cost under it, small", async () => {
    await panel.send(...streamed(item("c1.013", "text"), ANSWER));
    await panel.send({
      type: "rows",
      table: "items",
      put: [
        item("c1.013", "text", {
          text: ANSWER,
          usage: { input: 12_400, output: 350, cached: 8_000, cost: 0.0042 },
        }),
      ],
      delete: [],
    });
    const usage = panel.page.locator('[data-item="c1.013"] .usage');
    assert.equal(await usage.innerText(), "12.4k in (8k cached) · 350 out · $0.0042");
  });

  it("says in the meter's tooltip that it shows the model's view, and what the conversation cost", async () => {
    await panel.send({
      type: "rows",
      table: "contexts",
      put: [
        {
          id: "c1",
          used: 5_000,
          window: 8_192,
          total: { input: 40_000, output: 2_000, cached: 0, cost: 0.15 },
        },
      ],
      delete: [],
    });
    const meter = panel.page.getByRole("meter", { name: "Context used" });
    assert.equal(await meter.getAttribute("aria-valuenow"), "5000");
    const title = (await meter.getAttribute("title")) ?? "";
    assert.match(title, /^What the model was last sent: 5000 of 8192 tokens/);
    assert.match(title, /This conversation: 40k in · 2k out · \$0\.15\./);
  });

  it("shows what the fixed part of every request takes, before the first answer too", async () => {
    await panel.send({
      type: "rows",
      table: "contexts",
      put: [{ id: "c1", used: 0, window: 2_048, fixed: 680 }],
      delete: [],
    });
    const meter = panel.page.getByRole("meter", { name: "Context used" });
    assert.equal(await meter.getAttribute("aria-valuenow"), "680");
    const title = (await meter.getAttribute("title")) ?? "";
    assert.match(
      title,
      /Instructions and tool descriptions take 680 tokens of every request \(33% of the window\)\./,
    );
    const width = await meter.locator(".fixed").evaluate((node) => (node as HTMLElement).style.width);
    assert.equal(width, "33%");
  });

  it("condenses on demand from a button beside the meter, as /compact", async () => {
    await panel.send({ type: "running", chat: "c1", running: false });
    await panel.page.getByRole("button", { name: "Condense the conversation for the model" }).click();
    const sent = (await panel.posted()).at(-1);
    assert.equal(sent?.type, "send");
    assert.equal(sent?.type === "send" && sent.text, "/compact");
    assert.equal(sent?.type === "send" && sent.chat, "c1");
  });

  it("broke no CSP rule and logged no error", async () => {
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  });
});
