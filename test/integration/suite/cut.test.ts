import assert from "node:assert/strict";
import * as vscode from "vscode";
import { stall, text, type FixtureServer } from "../../fixtures/openai-server";
import { until } from "./wait";
import { panelSend, panelText } from "./person";
import { fixtureEndpoint } from "./endpoint";

/** The last test of the first phase: an answer still streaming when the window reloads (see reload.test.ts). */
describe("an answer cut off by a reload", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("fixture", "fixture-model", { asDefault: true });
  });

  it("is streaming when the window goes away", async () => {
    server.script({ events: [...text("The first half of an answer"), stall()] });
    await panelSend("Start a long answer");
    const api = vscode.extensions.getExtension<{
      conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
    }>("tandem-dev.tandem")!.exports;
    const { store } = await api.conversations();
    const item = await until(
      () => store.rows("items").find((i) => i.kind === "text" && i.text.includes("first half")),
      30_000,
      "the answer to start",
    );
    // Found by its words, not by its state: the answer is still streaming, and the person sees it.
    assert.equal(item.done, false, "the answer is still streaming when the window goes");
    await until(
      async () => /The first half of an answer/.test(await panelText()),
      20_000,
      "the panel to show it",
    );
    // What is on screen is on disk before the window goes.
    await store.flush();
  });
});
