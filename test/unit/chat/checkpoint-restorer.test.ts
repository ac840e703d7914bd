import assert from "node:assert/strict";
import { existsSync, readFileSync, unlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { chatViewKey, messageOf, type ChatCheckpoint } from "../../../src/chat/checkpoints/chat-view";
import { Restorer, type OpenFile, type RestoreEditor } from "../../../src/chat/checkpoints/restore";
import { TurnCheckpoints } from "../../../src/chat/checkpoints/turns";
import { asked, newKey } from "../../../src/chat/make";
import type { Item } from "../../../src/chat/row-schemas";
import { PanelView } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { recordingHost } from "../../fixtures/view-host";
import { folder, write } from "../workspace/fixtures";
import { bench, hostOf, type Bench } from "./runner-fixture";

const MESSAGE = "Change a.txt and make new.txt";
const TOLD = `Restored 1 file to how they were before “${MESSAGE}”; 1 file created since was removed.`;

/** An editor as a restore sees it: `open` are its open files; it answers `answer` and writes down what it was asked and shown. */
function editorOf(open: OpenFile[] = [], answer = true) {
  const log: string[] = [];
  const editor: RestoreEditor = {
    openFiles: () => open,
    ask: async (question) => {
      log.push(`asked: ${question}`);
      return answer;
    },
    showChanges: async (title, since) =>
      void log.push(`shown: ${title}: ${since.map((c) => `${c.change} ${c.path}`).join(", ")}`),
  };
  return { editor, log };
}

describe("a restore, planned once for the panel and @tandem alike", () => {
  let made: { remove(): void }[] = [];
  let turns: TurnCheckpoints | undefined;
  let b: Bench | undefined;
  afterEach(async () => {
    await b?.end();
    await turns?.close();
    for (const f of made) f.remove();
    made = [];
    b = turns = undefined;
  });

  /** A workspace with a.txt and b.txt, its checkpoints (a real store in a temp folder), and what the restores settled. */
  function workspace() {
    const ws = folder();
    const storage = folder("tandem-storage-");
    made.push(ws, storage);
    write(ws.path, { "a.txt": "one\n", "b.txt": "kept\n" });
    turns = new TurnCheckpoints({
      folders: () => [{ root: ws.path, name: "ws" }],
      storage: storage.path,
      settings: () => ({ enabled: true, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 }),
      watch: false,
    });
    const settled: string[][] = [];
    const at = (path: string) => join(ws.path, path);
    /** What an answer does: a.txt changed, new.txt made. */
    const answerWrites = () => write(ws.path, { "a.txt": "two\n", "new.txt": "made\n" });
    return { root: ws.path, turns, settled, at, answerWrites };
  }

  const restorerOf = (w: ReturnType<typeof workspace>, editor: RestoreEditor, running = false) =>
    new Restorer({
      turns: w.turns,
      editor,
      running: () => running,
      restored: async (files) => void w.settled.push([...files]),
    });

  it("finds the message's checkpoints once, and asks about and restores what it found", async () => {
    const w = workspace();
    const message = asked(MESSAGE, newKey());
    await w.turns.before(message);
    w.answerWrites();
    // Counted on the checkpoints themselves, so a look-up inside them counts too.
    let lookups = 0;
    const targets = w.turns.targets.bind(w.turns);
    w.turns.targets = (m: Item) => (lookups++, targets(m));
    const { editor, log } = editorOf();

    const told = await restorerOf(w, editor).filesTo(message);

    assert.equal(
      lookups,
      1,
      "the checkpoints to go back to are found once, for the question and the restore",
    );
    assert.deepEqual(log, [
      `asked: Restore 2 files to how they were before “${MESSAGE}”? 1 file created since will be removed. A checkpoint of the files as they are now is taken first.`,
    ]);
    assert.equal(told, TOLD);
    assert.equal(readFileSync(w.at("a.txt"), "utf8"), "one\n");
    assert.ok(!existsSync(w.at("new.txt")));
    assert.deepEqual(
      w.settled.map((f) => [...f].sort()),
      [[w.at("a.txt"), w.at("new.txt")]],
    );
  });

  it("gives the panel and @tandem the same question and the same result for the same checkpoint", async () => {
    const w = workspace();
    b = await bench(hostOf({ default: scripted([says("Done."), says("Title")]) }));
    const inPanel = await b.send(asked(MESSAGE, b.chat()));
    const inChatView: ChatCheckpoint = { chat: chatViewKey(), id: newKey(), text: MESSAGE };
    // Both checkpoints are of the same files: the panel's message and the Chat view's.
    await w.turns.before(inPanel);
    await w.turns.before(messageOf(inChatView));

    // The panel: "Restore…" → "Restore files", and the person's yes under the message.
    w.answerWrites();
    const sent: HostMessage[] = [];
    const panel = editorOf([], false);
    const restorer = restorerOf(w, panel.editor);
    const view: PanelView = new PanelView(
      b.store,
      b.runner,
      recordingHost(sent, {
        send: (m) => {
          sent.push(m);
          if (m.type === "restoreQuestion")
            queueMicrotask(() => void view.receive({ type: "restoreAnswer", ask: m.ask, yes: true }));
        },
        restoreFilesTo: (message, ask) => restorer.filesTo(message, ask),
      }),
    );
    await view.receive({ type: "restoreTo", item: inPanel.id, files: true, conversation: false });
    const panelQuestion = sent.flatMap((m) => (m.type === "restoreQuestion" ? [m.question] : []));
    const panelTold = sent.flatMap((m) => (m.type === "restoreDone" ? [m.text] : []));
    const panelFiles = { a: readFileSync(w.at("a.txt"), "utf8"), made: existsSync(w.at("new.txt")) };
    assert.deepEqual(panel.log, [], "the panel asked under the message, not the editor");

    // @tandem: the answer's button names the listed message; the editor asks.
    w.answerWrites();
    const chat = editorOf();
    const chatTold = await restorerOf(w, chat.editor).listed([inChatView], {
      chat: inChatView.chat,
      id: inChatView.id,
    });

    assert.deepEqual(panelQuestion.length, 1);
    assert.deepEqual(
      chat.log,
      panelQuestion.map((q) => `asked: ${q}`),
      "the same question",
    );
    assert.deepEqual(panelTold, [TOLD]);
    assert.equal(chatTold, TOLD, "the same words");
    assert.deepEqual(panelFiles, { a: "one\n", made: false });
    assert.deepEqual(
      { a: readFileSync(w.at("a.txt"), "utf8"), made: existsSync(w.at("new.txt")) },
      panelFiles,
      "the same files",
    );
    assert.deepEqual(w.settled[0], w.settled[1], "the same pending changes settled");
  });

  it("saves an open file's unsaved changes after the person's yes and before the restore's own checkpoint", async () => {
    const w = workspace();
    const message = asked(MESSAGE, newKey());
    await w.turns.before(message);
    w.answerWrites();
    const log: string[] = [];
    /** An open file holding `typed`, not saved yet; saving writes it (or fails when `saves` is false). */
    const open = (path: string, typed: string, saves = true): OpenFile => ({
      path: w.at(path),
      shown: path,
      dirty: true,
      save: async () => {
        log.push(`saved ${path}`);
        if (saves) writeFileSync(w.at(path), typed);
        return saves;
      },
    });
    const asking: RestoreEditor = {
      ...editorOf().editor,
      ask: async (question) => (log.push(`asked: ${question}`), true),
    };

    // a.txt is restored: its unsaved changes are saved; b.txt is not restored: it is left alone.
    const files = [open("a.txt", "typed\n"), open("b.txt", "typed too\n")];
    const told = await restorerOf(w, { ...asking, openFiles: () => files }).filesTo(message);
    assert.equal(told, TOLD);
    assert.equal(log.length, 2);
    assert.match(log[0], /^asked: .* Unsaved changes in 1 open file are saved first\. /);
    assert.equal(log[1], "saved a.txt");
    assert.equal(readFileSync(w.at("a.txt"), "utf8"), "one\n");
    assert.equal(
      readFileSync(w.at("b.txt"), "utf8"),
      "kept\n",
      "a file the restore does not touch is not saved",
    );
    // What the person typed is in the checkpoint taken before the restore, to go back to.
    const store = await w.turns.store({ root: w.root, name: "ws" });
    const undo = store.list().at(-1)!;
    assert.match(undo.label, /^Before restoring/);
    const kept = await store.read(undo.id, "a.txt");
    assert.equal(kept?.kind === "file" && kept.bytes.toString("utf8"), "typed\n");

    // A file that cannot be saved stops the restore before anything is written.
    w.answerWrites();
    log.length = 0;
    const settled = w.settled.length;
    const unsaveable = restorerOf(w, { ...asking, openFiles: () => [open("a.txt", "typed\n", false)] });
    await assert.rejects(
      unsaveable.filesTo(message),
      /^Error: a\.txt could not be saved; nothing was restored\.$/,
    );
    assert.equal(log[1], "saved a.txt");
    assert.equal(readFileSync(w.at("a.txt"), "utf8"), "two\n");
    assert.ok(existsSync(w.at("new.txt")));
    assert.equal(w.settled.length, settled, "nothing to settle");

    // The person's no: nothing is saved or restored.
    log.length = 0;
    const no = editorOf([open("a.txt", "typed\n")], false);
    await assert.rejects(restorerOf(w, no.editor).filesTo(message), /The restore was cancelled\./);
    assert.deepEqual(log, [], "nothing was saved");
    assert.equal(readFileSync(w.at("a.txt"), "utf8"), "two\n");
  });

  it("refuses while an answer runs, and what is not a listed Chat view message, before anyone is asked", async () => {
    const w = workspace();
    const message = asked(MESSAGE, newKey());
    await w.turns.before(message);
    w.answerWrites();
    const { editor, log } = editorOf();
    await assert.rejects(
      restorerOf(w, editor, true).filesTo(message),
      /^Error: An answer is still running; stop it first\.$/,
    );
    const listed: ChatCheckpoint = { chat: chatViewKey(), id: newKey(), text: MESSAGE };
    await assert.rejects(
      restorerOf(w, editor).listed([listed], { chat: listed.chat, id: newKey() }),
      /not a Chat view message with a checkpoint of Tandem's; nothing was restored/,
    );
    assert.deepEqual(log, []);
    assert.equal(readFileSync(w.at("a.txt"), "utf8"), "two\n");
  });

  it("shows the changes since a checkpoint in the editor's diff, or says there are none", async () => {
    const w = workspace();
    const message = asked(MESSAGE, newKey());
    await w.turns.before(message);
    const { editor, log } = editorOf();
    const restorer = restorerOf(w, editor);
    assert.equal(await restorer.changesSince(message), "No file changed since that message's checkpoint.");
    w.answerWrites();
    unlinkSync(w.at("b.txt"));
    assert.equal(await restorer.changesSince(message), undefined);
    assert.equal(log.length, 1);
    assert.match(log[0], /^shown: Changes since “Change a\.txt and make new\.txt”: /);
    assert.deepEqual(log[0].split(": ")[2].split(", ").sort(), [
      "added new.txt",
      "changed a.txt",
      "deleted b.txt",
    ]);
  });
});
