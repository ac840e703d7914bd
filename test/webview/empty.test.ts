import assert from "node:assert/strict";
import { chromiumPanels, type Panel } from "./page";
import { snapshot } from "./stream";

describe("the panel's first page", () => {
  const panels = chromiumPanels();
  let panel: Panel;

  it("asks for a snapshot and explains how to set up a model, with no CSP violation", async () => {
    panel = await panels.open();
    assert.deepEqual((await panel.posted())[0], { type: "ready" });
    await panel.send(snapshot({ configured: false }));
    const empty = panel.page.getByRole("region", { name: "Set up a model" });
    await empty.waitFor();
    assert.match(await empty.innerText(), /Tandem: Set API Key/);
    assert.match(await empty.innerText(), /AI_URL/);
    await panel.page.getByRole("button", { name: "Tandem: Set API Key" }).click();
    await panel.page.getByRole("button", { name: "Open Settings" }).click();
    const posted = await panel.posted();
    assert.deepEqual(posted.slice(-2), [
      { type: "command", command: "setApiKey" },
      { type: "command", command: "openSettings" },
    ]);
    // The codicon font and both stylesheets loaded under the CSP.
    const iconFont = await panel.page.evaluate(async () => {
      await document.fonts.ready;
      return [...document.fonts].filter((f) => f.family.includes("codicon")).map((f) => f.status);
    });
    assert.deepEqual(iconFont, ["loaded"]);
    const background = await panel.page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    assert.equal(background, "rgb(24, 24, 24)");
    assert.deepEqual(await panel.violations(), []);
    assert.deepEqual(panel.errors, []);
  });

  it("once a model is set up, the empty conversation invites a question", async () => {
    panel = await panels.open();
    await panel.send(snapshot({ configured: true }));
    await panel.page.getByRole("region", { name: "New conversation" }).waitFor();
    await panel.send({ type: "configured", configured: false });
    await panel.page.getByRole("region", { name: "Set up a model" }).waitFor();
    assert.deepEqual(await panel.violations(), []);
  });
});
