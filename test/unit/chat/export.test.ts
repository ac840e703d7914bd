import assert from "node:assert/strict";
import { marked } from "marked";
import { exportJson, exportMarkdown } from "../../../src/chat/panel/export";
import { asked, conversation, item } from "../../../src/chat/make";
import { fileRef } from "../../../src/protocol/file-refs";

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
    // A fence in the tool's output cannot close the export's own fence: it is kept whole, as code.
    const codes = marked.lexer(md).filter((t) => t.type === "code");
    assert.ok(codes.some((t) => t.type === "code" && t.text === "```\ncode\n```"));
    assert.match(md, /## Tandem\n\nIt imports a missing module\./);
  });

  it("keeps a call's input that holds backticks whole inside its code block, and its tool name as text", () => {
    const input = '{"a":1}\n````\n[link](https://attacker.example)\n<img src=x onerror=alert(1)>\n`';
    const hostile = { ...call, name: "x</summary><img src=y>", input };
    const md = exportMarkdown(chat, [hostile]);
    const tokens = marked.lexer(md);
    assert.ok(tokens.some((t) => t.type === "code" && t.text === input && t.lang === "json"));
    assert.ok(!md.includes("<img src=y>"));
    assert.match(md, /<summary>Tool x&lt;\/summary&gt;&lt;img src=y&gt; — done<\/summary>/);
  });

  it("says a limit that ended the run or a setting the run could not apply as a note, and a failure as an error", () => {
    const limit = { ...item("error", "This answer reached its limit of 3 rounds.", chat.id), name: "rounds" };
    const note = { ...item("error", "The model ignores the temperature setting.", chat.id), name: "note" };
    const failed = item("error", "The endpoint answered 500.", chat.id);
    const md = exportMarkdown(chat, [limit, note, failed]);
    assert.match(md, /> \*\*Note:\*\* This answer reached its limit of 3 rounds\./);
    assert.match(md, /> \*\*Note:\*\* The model ignores the temperature setting\./);
    assert.match(md, /> \*\*Error:\*\* The endpoint answered 500\./);
  });

  it("writes JSON that reads back to the same rows", () => {
    const back = JSON.parse(exportJson(chat, [question, call, answer]));
    assert.equal(back.format, 1);
    assert.deepEqual(back.conversation, chat);
    assert.deepEqual(back.items, [question, call, answer]);
  });
});
