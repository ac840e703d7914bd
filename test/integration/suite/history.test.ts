import assert from "node:assert/strict";
import * as vscode from "vscode";
import { HISTORY } from "./history-shape";
import { metrics } from "./metrics";
import { panelControl, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{
    store: {
      conversations(): Array<{ id: string; title: string }>;
      count(table: "items"): number;
      loaded(): string[];
    };
  }>;
  conversationsOpenMs(): number | undefined;
}

/** Waits until the panel's text holds `text`; gives how long that took from `since`. */
async function shows(text: string, since: number, what: string): Promise<number> {
  let seen = "";
  await until(async () => (seen = await panelText()).includes(text), 30_000, what).catch((error: Error) => {
    // What the panel showed instead says whether the text was late or another view came.
    throw new Error(`${error.message}; the panel showed: ${seen.slice(-600)}`);
  });
  return performance.now() - since;
}

/**
 * The history phases' second: the workspace whose store holds the large history (history-fill.test)
 * opened in a new window, as a person opens it: the panel, the conversation list, one conversation.
 */
describe("a workspace with a large history", () => {
  const ext = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!;

  it("opens its conversations and lists every one of them", async () => {
    await ext().activate();
    const { store } = await ext().exports.conversations();
    metrics.history_open_ms = ext().exports.conversationsOpenMs()!;
    assert.ok(Number.isFinite(metrics.history_open_ms), String(metrics.history_open_ms));
    assert.equal(store.conversations().length, HISTORY.conversations);
    assert.equal(store.count("items"), HISTORY.items);
  });

  it("shows the latest conversation's last answer in the panel, then the list, then an older one", async () => {
    const { store } = await ext().exports.conversations();
    const latest = store.conversations()[0];
    assert.equal(latest.title, HISTORY.title(HISTORY.conversations - 1));
    const focused = performance.now();
    await vscode.commands.executeCommand("tandem.chatView.focus");
    metrics.history_panel_ms = await shows(
      HISTORY.lastAnswer(HISTORY.conversations - 1),
      focused,
      "the latest conversation's last answer",
    );
    const listing = performance.now();
    await panelControl("tab", "Conversations");
    metrics.history_list_ms = await shows(HISTORY.title(HISTORY.conversations - 2), listing, "the list");
    const older = 37;
    const opening = performance.now();
    await panelControl("button", HISTORY.title(older));
    metrics.history_chat_ms = await shows(HISTORY.lastAnswer(older), opening, "the older conversation");
    // In memory: the conversations shown, not the history.
    const olderId = store.conversations().find((c) => c.title === HISTORY.title(older))!.id;
    const loaded = store.loaded();
    assert.ok(loaded.includes(olderId), JSON.stringify(loaded));
    assert.deepEqual(
      loaded.filter((id) => id !== olderId && id !== latest.id),
      [],
      `only the conversations shown are in memory: ${loaded.length} of ${HISTORY.conversations}`,
    );
  });
});
