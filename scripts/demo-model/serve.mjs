// A demo model server: the tiny random-weight GGUF of make-gguf.mjs, run by the real inference runtime
// node-llama-cpp (installed into .vscode-test/demo by `npm start`), behind an OpenAI-compatible HTTP API on
// 127.0.0.1: GET /v1/models and POST /v1/chat/completions (streamed or not). What it writes is gibberish.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

export const DEMO_MODEL = "tandem-demo";

/** Starts the server; resolves with its base URL and a stop function. */
export async function serveDemo({ dir, modelPath, port = 0 }) {
  const { getLlama, LlamaChatSession } = await import(
    pathToFileURL(join(dir, "node_modules/node-llama-cpp/dist/index.js")).href
  );
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 2 });
  let queue = Promise.resolve();

  async function answer(messages, onText) {
    const sequence = context.getSequence();
    try {
      const session = new LlamaChatSession({ contextSequence: sequence });
      const turns = messages.filter((m) => m.role !== "system");
      const last = turns.pop();
      session.setChatHistory(
        turns.map((m) =>
          m.role === "assistant"
            ? { type: "model", response: [String(m.content ?? "")] }
            : { type: "user", text: String(m.content ?? "") },
        ),
      );
      const text = typeof last?.content === "string" ? last.content : JSON.stringify(last?.content ?? "");
      return await session.prompt(text.slice(-2000), {
        maxTokens: 64,
        temperature: 0.8,
        onTextChunk: onText,
      });
    } finally {
      sequence.dispose();
    }
  }

  const server = createServer((req, res) => {
    const json = (status, body) => {
      res.writeHead(status, { "content-type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method === "GET" && req.url === "/v1/models") {
      return json(200, {
        object: "list",
        data: [{ id: DEMO_MODEL, object: "model", owned_by: "tandem", context_length: 2048 }],
      });
    }
    if (req.method !== "POST" || req.url !== "/v1/chat/completions")
      return json(404, { error: { message: "not found" } });
    let body = "";
    req.on("data", (c) => (body += c));
    req.on("end", () => {
      let request;
      try {
        request = JSON.parse(body);
      } catch {
        return json(400, { error: { message: "the body is not JSON" } });
      }
      const id = `chatcmpl-${Date.now()}`;
      const chunk = (delta, finish = null) => ({
        id,
        object: "chat.completion.chunk",
        created: Math.floor(Date.now() / 1000),
        model: DEMO_MODEL,
        choices: [{ index: 0, delta, finish_reason: finish }],
      });
      // One answer at a time: the runtime has one thread.
      queue = queue
        .then(async () => {
          if (request.stream) {
            res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
            res.write(`data: ${JSON.stringify(chunk({ role: "assistant", content: "" }))}\n\n`);
            const text = await answer(request.messages ?? [], (t) =>
              res.write(`data: ${JSON.stringify(chunk({ content: t }))}\n\n`),
            );
            res.write(`data: ${JSON.stringify(chunk({}, "stop"))}\n\n`);
            res.write(
              `data: ${JSON.stringify({ ...chunk({}), choices: [], usage: { prompt_tokens: 0, completion_tokens: text.length, total_tokens: text.length } })}\n\n`,
            );
            res.end("data: [DONE]\n\n");
          } else {
            const text = await answer(request.messages ?? [], () => {});
            json(200, {
              id,
              object: "chat.completion",
              model: DEMO_MODEL,
              choices: [{ index: 0, message: { role: "assistant", content: text }, finish_reason: "stop" }],
            });
          }
        })
        .catch((e) => {
          if (!res.headersSent) json(500, { error: { message: String(e?.message ?? e) } });
          else res.end();
        });
    });
  });
  await new Promise((r) => server.listen(port, "127.0.0.1", r));
  const url = `http://127.0.0.1:${server.address().port}/v1`;
  return {
    url,
    stop: async () => {
      server.close();
      await context.dispose();
      await model.dispose();
      await llama.dispose();
    },
  };
}
