/** A server that echoes the person's key (LiteLLM does) gets it into nothing Tandem stores, exports or answers. */
import assert from "node:assert/strict";
import { endpoint } from "../../../src/agent/endpoint";
import { exportJson, exportMarkdown } from "../../../src/chat/panel/export";
import { asked } from "../../../src/chat/make";
import { EXECUTE_PATH, serveExecute } from "../../../src/execute";
import { httpError, openaiServer, type FixtureServer, type Received } from "../../fixtures/openai-server";
import { bench, hostOf } from "./runner-fixture";

const KEY = "sk-litellm-0123456789abcdefghij";

/** LiteLLM's way: the refusal quotes the Authorization header it was sent. */
const echo = (r: Received) =>
  httpError(
    401,
    `Authentication Error, Invalid proxy server token passed. Received: ${String(r.headers.authorization)}`,
  );

describe("chat: a key echoed by the server", () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await openaiServer();
  });
  afterEach(() => server.close());

  const model = () => endpoint({ baseURL: server.baseURL, apiKey: KEY, model: "m", window: 0 });

  it("is not in the stored error item, nor in the Markdown and JSON exports", async () => {
    server.script(echo);
    const b = await bench(hostOf({ default: model() }));
    try {
      const chat = b.chat();
      await b.send(asked("Hello", chat));
      assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`);
      const items = b.store.items(chat);
      const error = items.find((i) => i.kind === "error");
      assert.ok(error, JSON.stringify(items));
      assert.match(error.text, /refused the API key \(401\)/);
      assert.match(error.text, /Received: Bearer \[key hidden\]/);
      const conversation = b.store.get("conversations", chat)!;
      const markdown = exportMarkdown(conversation, items);
      const json = exportJson(conversation, items);
      assert.match(markdown, /\[key hidden\]/);
      for (const text of [error.text, markdown, json]) assert.ok(!text.includes(KEY.slice(0, 10)), text);
    } finally {
      await b.end();
    }
  });

  it("is not in the execute server's 502 answer", async () => {
    server.script(echo);
    const api = await serveExecute({ key: "execute-key-0123456789", config: { resolve: () => model() } });
    try {
      const res = await fetch(`${api.url}${EXECUTE_PATH}`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "execute-key-0123456789" },
        body: JSON.stringify({ model: "gpt-4", tools: [], messages: [{ role: "user", content: "Hi" }] }),
      });
      assert.equal(res.status, 502);
      const body = (await res.json()) as { detail: string };
      assert.match(body.detail, /^The model failed: .*refused the API key \(401\).*Bearer \[key hidden\]/);
      assert.ok(!body.detail.includes(KEY.slice(0, 10)), body.detail);
    } finally {
      await api.close();
    }
  });
});
