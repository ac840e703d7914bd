// Opening a long conversation renders a screenful: the panel is sent the blocks of the newest items
// only, and asks for the others' as it shows them; a pinned plan travels as text.
import assert from "node:assert/strict";
import { OPEN_RENDERED, PanelView } from "../../../src/chat/panel/view";
import { asked, conversation, item } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { keyed } from "../../../src/markdown";
import type { HostMessage } from "../../../src/protocol/messages";
import { BlockText } from "../../../webview-ui/item-blocks";
import { recordingHost } from "../../fixtures/view-host";
import { storeFolder } from "./store-fixture";

/** The messages of `type` among those sent. */
function sentOf<T extends HostMessage["type"]>(
  sent: HostMessage[],
  type: T,
): Extract<HostMessage, { type: T }>[] {
  return sent.filter((m): m is Extract<HostMessage, { type: T }> => m.type === type);
}

describe("a long conversation opens with a screenful rendered", () => {
  const folder = storeFolder("tandem-view-window-");

  /** A conversation of `turns` questions, each answered in Markdown; its items in order. */
  async function long(turns: number) {
    const store = await folder.opened();
    const chat = conversation("", "long");
    store.put("conversations", chat);
    const items: Item[] = [];
    for (let i = 0; i < turns; i++) {
      const user = { ...asked(`Question ${i}`, chat.id, "m"), done: true };
      const answer = { ...item("text", `Answer **${i}**, with \`code\`.`, chat.id), done: true };
      store.put("items", user);
      store.put("items", answer);
      items.push(user, answer);
    }
    return { store, chat: chat.id, items };
  }

  it("sends the blocks of the newest items only, and those of an earlier one when the panel asks", async () => {
    const { store, chat, items } = await long(1_000);
    const sent: HostMessage[] = [];
    const view = new PanelView(store, undefined, recordingHost(sent));
    view.openChat(chat);
    const [opened] = sentOf(sent, "opened");
    assert.equal(opened.items.length, 2_000, "every row, without its words");
    const rendered = Object.keys(opened.blocks);
    const newest = items.slice(-OPEN_RENDERED).filter((i) => i.kind === "text");
    assert.deepEqual(rendered.sort(), newest.map((i) => i.id).sort());
    assert.ok(opened.items.every((i) => i.kind !== "text" || i.text === ""));

    // The panel scrolls up to the first answer and asks for its blocks: they come as patches of it.
    const first = items[1];
    await view.receive({ type: "render", ids: [first.id, first.id] });
    const patches = sentOf(sent, "blocks");
    assert.ok(patches.length > 0 && patches.every((m) => m.patch.key === first.id));
    const text = new BlockText();
    for (const { patch } of patches) text.apply(patch);
    assert.deepEqual(
      text.html,
      keyed(first.text, first.id).map((b) => b.html),
    );
    // Asked again, or for an item already sent, nothing more is rendered.
    await view.receive({ type: "render", ids: [first.id, newest[0].id] });
    assert.equal(sentOf(sent, "blocks").length, patches.length);
  });

  it("renders nothing for an item of another conversation, a row that is no Markdown, or an unknown id", async () => {
    const { store, chat, items } = await long(3);
    const other = conversation("", "other");
    store.put("conversations", other);
    const elsewhere = { ...item("text", "Secret of another chat", other.id), done: true };
    store.put("items", elsewhere);
    const sent: HostMessage[] = [];
    const view = new PanelView(store, undefined, recordingHost(sent));
    view.openChat(chat);
    await view.receive({ type: "render", ids: [elsewhere.id, items[0].id, "0nope"] });
    assert.deepEqual(sentOf(sent, "blocks"), []);
  });

  it("sends a plan's checklist as text, which the pinned plan reads its steps from", async () => {
    const { store, chat } = await long(1);
    const plan = item("plan", "- [x] Read the parser\n- [ ] Split the lexer", chat);
    store.put("items", plan);
    const sent: HostMessage[] = [];
    const view = new PanelView(store, undefined, recordingHost(sent));
    view.openChat(chat);
    const [opened] = sentOf(sent, "opened");
    assert.equal(opened.items.find((i) => i.id === plan.id)?.text, plan.text);
    store.put("items", { ...plan, text: "- [x] Read the parser\n- [x] Split the lexer" });
    const rows = sentOf(sent, "rows").flatMap((m) => (m.table === "items" ? m.put : []));
    assert.equal(rows.find((i) => i.id === plan.id)?.text, "- [x] Read the parser\n- [x] Split the lexer");
  });
});
