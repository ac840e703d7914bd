import assert from "node:assert/strict";
import type * as Chat from "../../../src/chat/row-schemas";
import type * as Protocol from "../../../src/protocol/rows";
import type { PanelMessage } from "../../../src/protocol/messages";
import { parsePanelMessage } from "../../../src/protocol/validate";
import { panelHtml, panelCsp } from "../../../src/vscode/panel-page";

// The protocol's rows and the stored rows must stay the same shapes, both ways.
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const sameRows: [
  Same<Chat.Assistant, Protocol.Assistant>,
  Same<Chat.Conversation, Protocol.Conversation>,
  Same<Chat.Item, Protocol.Item>,
  Same<Chat.Plugin, Protocol.Plugin>,
  Same<Chat.Skill, Protocol.Skill>,
  Same<Chat.Memory, Protocol.Memory>,
  Same<Chat.Context, Protocol.Context>,
  Same<Chat.Choice, Protocol.Choice>,
  Same<Chat.Table, Protocol.TableName>,
] = [true, true, true, true, true, true, true, true, true];

describe("panel messages on the host", () => {
  it("keeps the protocol's rows the same shapes as the stored rows", () => {
    assert.ok(sameRows.every(Boolean));
  });

  it("accepts each kind of message the panel sends", () => {
    const good: PanelMessage[] = [
      { type: "ready" },
      {
        type: "send",
        chat: "",
        text: "hi",
        files: [{ path: "src/a.ts", name: "a.ts", kind: "text" }],
        model: "",
        assistant: "a1",
      },
      { type: "retry", chat: "c1", model: "gpt-4o" },
      { type: "stop", chat: "c1" },
      { type: "decide", item: "c1.4", yes: true, always: false },
      { type: "newChat" },
      { type: "openChat", chat: "c1" },
      { type: "rename", chat: "c1", title: "New" },
      { type: "deleteChat", chat: "c1" },
      { type: "undoDelete", chat: "c1" },
      {
        type: "saveAssistant",
        assistant: { id: "a", name: "A", instructions: "", model: "", tools: "", approve: "" },
      },
      {
        type: "saveAssistant",
        assistant: { id: "a", name: "A", instructions: "", model: "", tools: "", approve: "", mode: "plan" },
      },
      { type: "deleteAssistant", id: "a" },
      { type: "mode", chat: "c1", mode: "plan" },
      { type: "mode", chat: "c1", mode: "act" },
      { type: "act", item: "c1.0001" },
      { type: "render", ids: ["c1.0001", "c1.0003"] },
      { type: "editPlan", item: "c1.0001" },
      { type: "steer", chat: "c1", text: "use the other file", files: [], model: "" },
      { type: "saveSkill", skill: { id: "s", name: "S", description: "d", body: "b" } },
      { type: "deleteSkill", id: "s" },
      {
        type: "savePlugin",
        plugin: { id: "p", agent: "a", name: "x", address: "https://x", header: "", enabled: true, key: "k" },
      },
      {
        type: "savePlugin",
        plugin: { id: "p", agent: "a", name: "x", address: "https://x", header: "", enabled: false },
      },
      { type: "deletePlugin", id: "p" },
      { type: "forget", id: "m" },
      { type: "attach" },
      { type: "drop", uris: ["file:///w/a.ts"] },
      { type: "code", action: "new-file", code: "x", language: "ts" },
      { type: "openLink", url: "https://example.com" },
      { type: "openFile", path: "src/a.ts" },
      { type: "search", query: "parser" },
      { type: "command", command: "setApiKey" },
      { type: "pendingAction", action: "review", path: "" },
      { type: "pendingAction", action: "undoAll", path: "/w/a.ts" },
    ];
    for (const message of good) assert.deepEqual(parsePanelMessage(message), { ok: true, message });
  });

  it("refuses malformed, unknown and over-long messages, saying why", () => {
    const bad: unknown[] = [
      null,
      "ready",
      { type: "launch" },
      { type: "send", chat: "", text: "hi", files: [], model: "" },
      { type: "stop", chat: "" },
      { type: "decide", item: "c1.4", yes: "true", always: false },
      { type: "code", action: "eval", code: "x", language: "" },
      { type: "command", command: "workbench.action.terminal.new" },
      { type: "pendingAction", action: "deleteAll", path: "" },
      { type: "pendingAction", action: "review" },
      { type: "ready", extra: 1 },
      // A mode is Plan or acting as usual, nothing that would widen what runs.
      { type: "mode", chat: "c1", mode: "auto" },
      {
        type: "saveAssistant",
        assistant: { id: "a", name: "A", instructions: "", model: "", tools: "", approve: "", mode: "yolo" },
      },
      // A steered message joins one conversation's run: it names it, and is as long as a message may be.
      { type: "steer", chat: "", text: "hi", files: [], model: "" },
      { type: "steer", chat: "c1", text: "x".repeat(1_000_001), files: [], model: "" },
      { type: "act", item: "" },
      // The blocks of at most 500 items at a time, and of at least one.
      { type: "render", ids: [] },
      { type: "render", ids: Array.from({ length: 501 }, (_, i) => `c1.${i}`) },
      { type: "search", query: "x".repeat(1_001) },
      { type: "drop", uris: Array.from({ length: 101 }, () => "file:///a") },
      {
        type: "savePlugin",
        plugin: { id: "p", agent: "a", name: "x", address: "", header: "", enabled: true, secret: "k" },
      },
    ];
    for (const message of bad) {
      const result = parsePanelMessage(message);
      assert.equal(result.ok, false, JSON.stringify(message).slice(0, 80));
      if (!result.ok) assert.ok(result.error.length > 0);
    }
  });
});

describe("the panel's page", () => {
  const page = {
    cspSource: "https://file+.vscode-resource.vscode-cdn.net",
    nonce: "abcdefghijklmnopqrstuv",
    scriptUri: "https://x/dist/webview.js",
    styleUri: "https://x/dist/webview.css",
    codiconUri: "https://x/dist/codicon.css",
    title: "Tandem <chat>",
  };

  it("has a strict CSP with the nonce and no unsafe source", () => {
    const html = panelHtml(page);
    const csp = panelCsp(page.cspSource, page.nonce);
    assert.equal(
      csp,
      "default-src 'none'; img-src https://file+.vscode-resource.vscode-cdn.net data:; " +
        "font-src https://file+.vscode-resource.vscode-cdn.net; style-src https://file+.vscode-resource.vscode-cdn.net; " +
        "script-src 'nonce-abcdefghijklmnopqrstuv'",
    );
    assert.ok(html.includes(`content="${csp.replaceAll("'", "&#39;")}"`));
    assert.doesNotMatch(html, /unsafe-/);
    assert.match(
      html,
      /<script nonce="abcdefghijklmnopqrstuv" src="https:\/\/x\/dist\/webview.js"><\/script>/,
    );
    assert.match(html, /<title>Tandem &lt;chat&gt;<\/title>/);
    assert.doesNotMatch(html, /style="/);
  });

  it("refuses a weak nonce and escapes URIs", () => {
    assert.throws(() => panelHtml({ ...page, nonce: "short" }), /nonce/);
    assert.throws(() => panelHtml({ ...page, nonce: "a\"onload='x'aaaaaaaaaaaaaaa" }), /nonce/);
    const html = panelHtml({ ...page, scriptUri: 'https://x/a.js"><script>alert(1)</script>' });
    assert.doesNotMatch(html, /<script>alert/);
  });
});
