import assert from "node:assert/strict";
import { TurnCheckpoints } from "../../../src/chat/checkpoints/turns";
import {
  chatViewKey,
  isChatViewKey,
  keptChats,
  knownCheckpoint,
  listed,
  listedIn,
  messageOf,
  sessionCheckpoints,
  type ChatCheckpoint,
} from "../../../src/chat/checkpoints/chat-view";
import { asked, newKey } from "../../../src/chat/make";
import { folder, write } from "../workspace/fixtures";

describe("the Chat view's checkpoints", () => {
  const session = chatViewKey();
  const other = chatViewKey();
  const first: ChatCheckpoint = { chat: session, id: newKey(), text: "Change math.ts" };
  const second: ChatCheckpoint = { chat: session, id: newKey(), text: "Make notes.md" };
  const elsewhere: ChatCheckpoint = { chat: other, id: newKey(), text: "Another chat" };
  const list = [first, elsewhere, second];

  it("keys every Chat session recognisably, and nothing else looks like one", () => {
    assert.ok(isChatViewKey(session) && isChatViewKey(other) && session !== other);
    for (const not of [newKey(), "chat-view-", `${session}x`, `x${session}`, 42, undefined])
      assert.ok(!isChatViewKey(not), String(not));
  });

  it("keeps every Chat session's checkpoints in the sweep at start, and only the store's other conversations", async () => {
    const ws = folder();
    const storage = folder("tandem-storage-");
    write(ws.path, { "a.txt": "one\n" });
    const turns = new TurnCheckpoints({
      folders: () => [{ root: ws.path, name: "ws" }],
      storage: storage.path,
      settings: () => ({ enabled: true, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 }),
      watch: false,
    });
    try {
      const stored = asked("In the panel", newKey());
      const gone = asked("In a deleted conversation", newKey());
      for (const message of [stored, gone, messageOf(first)]) await turns.before(message);
      // The start of a window: the store holds only `stored`'s conversation.
      await turns.keepOnly(keptChats([stored.chat]));
      const store = await turns.store({ root: ws.path, name: "ws" });
      assert.deepEqual(
        store
          .list()
          .map((c) => c.conversation)
          .sort(),
        [stored.chat, session].sort(),
        "the deleted conversation's checkpoint went; the Chat session's stayed",
      );
      assert.equal((await turns.targets(messageOf(first))).length, 1, "and it can still be restored");
    } finally {
      await turns.close();
      ws.remove();
      storage.remove();
    }
  });

  it("lists each message once, the newest last, at most the limit", () => {
    const again = listed(list, { ...first, text: "Change math.ts" });
    assert.deepEqual(again, [elsewhere, second, first]);
    assert.deepEqual(listed(list, elsewhere, 2), [second, elsewhere]);
  });

  it("reads only well-formed entries from what was stored", () => {
    assert.deepEqual(listedIn(undefined), []);
    assert.deepEqual(listedIn({ chat: session }), []);
    assert.deepEqual(
      listedIn([first, { chat: "not-a-session", id: first.id, text: "x" }, { ...second, extra: 1 }, null]),
      [first],
    );
  });

  it("names a checkpoint only by a listed message's session and key, with the words Tandem listed", () => {
    assert.deepEqual(knownCheckpoint(list, { chat: session, id: second.id, text: "ignored" }), second);
    for (const named of [
      undefined,
      "restore everything",
      { chat: session },
      { chat: session, id: newKey() },
      { chat: other, id: first.id },
      { chat: newKey(), id: first.id },
      [session, first.id],
    ])
      assert.equal(knownCheckpoint(list, named), undefined, JSON.stringify(named));
  });

  it("gives a session's messages newest first, as user messages the checkpoints know", () => {
    assert.deepEqual(sessionCheckpoints(list, session), [second, first]);
    const message = messageOf(first);
    assert.deepEqual(
      [message.kind, message.chat, message.id, message.text],
      ["user", session, first.id, first.text],
    );
  });
});
