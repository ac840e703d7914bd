import assert from "node:assert/strict";
import { isDeepStrictEqual } from "node:util";
import { endpoint, memoryFacts } from "../../../src/agent";
import type { Item } from "../../../src/chat/row-schemas";
import { PanelView } from "../../../src/chat/panel/view";
import { keyed } from "../../../src/markdown";
import type { HostMessage } from "../../../src/protocol/messages";
import { BlockText } from "../../../webview-ui/item-blocks";
import { answer, finish, openaiServer, text, usage, type FixtureServer } from "../../fixtures/openai-server";
import { recordingHost } from "../../fixtures/view-host";
import { bench, hostOf, until, type Bench } from "./runner-fixture";

/** The panel's tables as the messages it was sent build them: its item rows and their blocks. */
function replica(sent: HostMessage[]): { items: Map<string, Item>; blocks: Map<string, BlockText> } {
  const items = new Map<string, Item>();
  const blocks = new Map<string, BlockText>();
  for (const m of sent) {
    if (m.type === "snapshot" || m.type === "opened") {
      for (const i of m.items) items.set(i.id, i);
      for (const [id, b] of Object.entries(m.blocks)) blocks.set(id, new BlockText(b));
    } else if (m.type === "rows" && m.table === "items") {
      for (const row of m.put) items.set(row.id, row as Item);
      for (const key of m.delete) items.delete(key);
    } else if (m.type === "blocks") {
      const block = blocks.get(m.patch.key) ?? new BlockText();
      block.apply(m.patch);
      blocks.set(m.patch.key, block);
    }
  }
  return { items, blocks };
}

describe("chat runner: reasoning a lone </think> shows afterwards", () => {
  let server: FixtureServer;
  let b: Bench | undefined;
  beforeEach(async () => (server = await openaiServer()));
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await server.close();
  });

  it("takes back the words streamed as the answer: the store and the panel keep them as reasoning", async () => {
    // A template that opens <think> in the prompt: the answer starts inside the reasoning, and the
    // first the client hears of it is a lone </think> after "plan it" was streamed as the answer.
    server.script(
      { events: [...text("plan it</think>\n\nThe answer.", 3), finish(), usage(5, 3)] },
      answer("A title"),
    );
    const model = endpoint({
      baseURL: server.baseURL,
      apiKey: "k",
      model: "m1",
      facts: memoryFacts(),
      retry: { baseMs: 1 },
      window: 0,
    });
    b = await bench(hostOf({ default: model, m1: model }));
    const sent: HostMessage[] = [];
    const view = new PanelView(b.store, b.runner, recordingHost(sent, { defaultModel: async () => "m1" }));
    await view.receive({ type: "ready" });
    await view.receive({ type: "send", chat: "", text: "Do it", files: [], model: "", assistant: "" });
    const chat = view.open;
    await until(() => b!.store.items(chat).some((i) => i.kind === "text" && i.done), "the answer");
    const stored = b.store.items(chat).filter((i) => i.kind !== "user");
    assert.deepEqual(
      stored.map((i) => [i.kind, i.text]),
      [
        ["reasoning", "plan it"],
        ["text", "The answer."],
      ],
    );
    const [thought, words] = stored;
    const shown = (): [string, string[] | undefined][] => {
      const panel = replica(sent);
      return [...panel.items.values()]
        .filter((i) => i.chat === chat && i.kind !== "user")
        .sort((x, y) => (x.id < y.id ? -1 : 1))
        .map((i) => [i.kind, panel.blocks.get(i.id)?.html]);
    };
    const expected = [
      ["reasoning", keyed("plan it", thought.id).map((block) => block.html)],
      ["text", keyed("The answer.", words.id).map((block) => block.html)],
    ];
    await until(() => isDeepStrictEqual(shown(), expected), "the panel to show the reasoning and the answer");
    assert.deepEqual(shown(), expected);
    view.dispose();
  });
});
