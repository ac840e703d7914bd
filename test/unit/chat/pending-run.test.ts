import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { calls, says, scripted } from "../../../src/agent/scripted";
import type { Question } from "../../../src/chat/approval/approval";
import { asked } from "../../../src/chat/make";
import { PendingChanges } from "../../../src/chat/pending/changes";
import { diskFiles, pendingEditor } from "../../../src/chat/pending/pending-editor";
import { approvalsFor, type EditsMode } from "../../../src/chat/pending/mode";
import type { Editor } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { write } from "../workspace/fixtures";
import { answerOf, bench, hostOf } from "./runner-fixture";
import { eachTest } from "../../fixtures/run-scene";

describe("pending changes in a run", () => {
  const scene = eachTest();

  /** The editor's own ask-before-writing diff: counted, and always refused here. */
  function editorThatAsks(): { editor: Editor; proposals: string[] } {
    const proposals: string[] = [];
    const editor: Editor = {
      open: async () => undefined,
      run: async () => ({ exitCode: 0, output: "" }),
      propose: async (p) => (proposals.push(p.shown), { accepted: false }),
      create: async () => undefined,
    };
    return { editor, proposals };
  }

  const edit = (path: string, oldText: string, newText: string): [string, string] => [
    "propose_edit",
    JSON.stringify({ path, oldText, newText }),
  ];

  async function setUp(mode: EditsMode, turns: Parameters<typeof scripted>[0], approve = "") {
    const root = scene.folder();
    write(root, { "a.txt": "one\ntwo\nthree\n", "b.txt": "x\r\ny\r\n", ".vscode/settings.json": "{}\n" });
    const changes = await PendingChanges.open(join(root, "..", `${root}-pending.json`), diskFiles);
    const { editor: base, proposals } = editorThatAsks();
    const editor = pendingEditor(base, changes, () => mode);
    const questions: Question[] = [];
    const model = scripted(turns);
    scene.bench = await bench(
      hostOf(
        { default: model },
        {
          tools: () => workspaceTools({ root, editor, trusted: true }),
          root: () => root,
          approvals: (assistant) => approvalsFor(mode, {}, assistant?.approve),
          approve: async (_call, _signal, q) => (questions.push(q), false),
          notes: () => changes.take(),
        },
      ),
      { approve },
    );
    return { root, changes, questions, proposals, model };
  }

  it("applies two edits of one turn as pending changes without asking anything", async () => {
    const { root, changes, questions, proposals } = await setUp("pending", [
      calls([edit("a.txt", "two\n", "TWO\n"), edit("b.txt", "y\n", "Y\n")]),
      says("Done."),
    ]);
    const chat = scene.bench!.chat();
    const user = asked("Change both", chat);
    await scene.bench!.send(user);
    assert.deepEqual(questions, []);
    assert.deepEqual(proposals, []);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\nTWO\nthree\n");
    assert.equal(readFileSync(join(root, "b.txt"), "utf8"), "x\r\nY\r\n");
    assert.deepEqual(
      changes
        .list()
        .map((p) => p.shown)
        .sort(),
      ["a.txt", "b.txt"],
    );
    const results = answerOf(scene.bench!.store, chat, user.id).filter((i) => i.kind === "call");
    assert.ok(
      results.every((r) => r.state === "done" && /pending the person's review/.test(r.output ?? "")),
      JSON.stringify(results),
    );
  });

  it("still asks before a pending write to a protected path, and writes nothing on a no", async () => {
    const { root, changes, questions } = await setUp("pending", [
      calls([
        edit(".vscode/settings.json", "{}", '{"task.allowAutomaticTasks":"on"}'),
        edit("a.txt", "one", "ONE"),
      ]),
      says("Done."),
    ]);
    await scene.bench!.send(asked("Change them", scene.bench!.chat()));
    assert.equal(questions.length, 1);
    assert.match(questions[0].text, /protected place \(\.vscode\/\)/);
    assert.equal(readFileSync(join(root, ".vscode/settings.json"), "utf8"), "{}\n");
    assert.deepEqual(
      changes.list().map((p) => p.shown),
      ["a.txt"],
    );
  });

  it("still asks when the assistant lists propose_edit among the tools that wait for the person", async () => {
    const { root, questions } = await setUp(
      "pending",
      [calls([edit("a.txt", "two", "TWO")]), says("Done.")],
      "propose_edit",
    );
    await scene.bench!.send(asked("Change it", scene.bench!.chat()));
    assert.equal(questions.length, 1);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
  });

  it("asks before writing in the 'ask' mode, as before", async () => {
    const { root, changes, questions, proposals } = await setUp("ask", [
      calls([edit("a.txt", "two", "TWO")]),
      says("Done."),
    ]);
    await scene.bench!.send(asked("Change it", scene.bench!.chat()));
    assert.equal(questions.length, 1);
    assert.deepEqual(proposals, []);
    assert.equal(readFileSync(join(root, "a.txt"), "utf8"), "one\ntwo\nthree\n");
    assert.deepEqual(changes.list(), []);
  });

  it("tells the agent at its next turn what the person kept and undid", async () => {
    const { root, changes, model } = await setUp("pending", [
      calls([["propose_edit", JSON.stringify({ path: "a.txt", content: "ONE\ntwo\nTHREE\n" })]]),
      says("Done."),
      says("Shouting"),
      says("Noted."),
    ]);
    const chat = scene.bench!.chat();
    await scene.bench!.send(asked("Shout", chat));
    const file = join(root, "a.txt");
    await changes.hunk(file, 1, "undo");
    await changes.hunk(file, 0, "keep");
    assert.equal(readFileSync(file, "utf8"), "ONE\ntwo\nthree\n");
    await scene.bench!.send(asked("Next", chat));
    const text = JSON.stringify(model.requests.at(-1)!.messages);
    assert.match(text, /what the person did with your pending changes/);
    assert.match(text, /a\.txt: the person kept part of your change or edited it/);
    assert.match(text, /-THREE\\n\+three/);
    assert.match(text, /Next/);
  });
});
