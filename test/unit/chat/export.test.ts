import assert from "node:assert/strict";
import { exportJson, exportMarkdown } from "../../../src/chat/export";
import { asked, conversation, item } from "../../../src/chat/make";
import { fileRef } from "../../../src/protocol/files";

describe("exporting a conversation", () => {
  const chat = { ...conversation("a1"), title: "Fixing the build" };
  const question = asked("Why does it fail?", chat.id, "", [fileRef("src/a.ts", "a.ts")]);
  const call = {
    ...item("call", "", chat.id),
    name: "read_file",
    input: '{"path":"src/a.ts"}',
    output: "```\ncode\n```",
    state: "done" as const,
  };
  const answer = { ...item("text", "It imports a missing module.", chat.id), done: true };

  it("writes Markdown a person reads: messages, files, answers, calls folded", () => {
    const md = exportMarkdown(chat, [question, call, answer]);
    assert.match(md, /^# Fixing the build\n/);
    assert.match(md, /## You\n\nWhy does it fail\?\n\nAttached: a\.ts/);
    assert.match(md, /<summary>Tool read_file — done<\/summary>/);
    // A fence in the tool's output cannot close the export's own fence.
    assert.ok(!md.includes("```\ncode\n```\n```"));
    assert.match(md, /## Tandem\n\nIt imports a missing module\./);
  });

  it("writes JSON that reads back to the same rows", () => {
    const back = JSON.parse(exportJson(chat, [question, call, answer]));
    assert.equal(back.format, 1);
    assert.deepEqual(back.conversation, chat);
    assert.deepEqual(back.items, [question, call, answer]);
  });
});
