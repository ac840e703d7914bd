// A demo model server: the tiny random-weight GGUF of make-gguf.mjs, run by the real inference runtime
// node-llama-cpp (installed into .vscode-test/demo by `npm start`), behind an OpenAI-compatible HTTP API on
// 127.0.0.1: GET /v1/models and POST /v1/chat/completions (streamed or not). Its weights are random, so
// grammars (grammar.mjs) hold what it writes to words of its vocabulary, labelled as a demo, and, asked to
// read or write a file, to one valid call of the request's read or write tool. A request with a
// `response_format` JSON Schema is held to it through node-llama-cpp's JSON-schema grammar (schema.mjs), as
// llama.cpp's server holds one: the JSON streams as the answer's content.
import { createServer } from "node:http";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { answerGrammar, plannedCall, textOf } from "./grammar.mjs";
import { demoSchema } from "./schema.mjs";

export const DEMO_MODEL = "tandem-demo-random-weights";

/** How much of the conversation the model is shown: its context is 2,048 tokens, mostly single bytes. */
const HISTORY_TURNS = 4;
const TURN_CHARS = 200;
const LAST_CHARS = 600;
/** Enough for the longest text the grammars allow, one byte a token. */
const MAX_TOKENS = 900;

/** Starts the server; resolves with its base URL and a stop function. */
export async function serveDemo({ dir, modelPath, port = 0 }) {
  const { getLlama, LlamaChatSession } = await import(
    pathToFileURL(join(dir, "node_modules/node-llama-cpp/dist/index.js")).href
  );
  const llama = await getLlama({ gpu: false, build: "never", logLevel: "error" });
  const model = await llama.loadModel({ modelPath });
  const context = await model.createContext({ contextSize: 2048, threads: 1, sequences: 2 });
  const words = await llama.createGrammar({ grammar: answerGrammar() });
  let queue = Promise.resolve();

  /** Runs one turn of MESSAGES under GRAMMAR, giving each piece of text to onText; resolves with the whole. */
  async function generate(messages, grammar, onText) {
    const sequence = context.getSequence();
    try {
      const session = new LlamaChatSession({ contextSequence: sequence });
      const turns = messages.filter((m) => m.role !== "system");
      const last = turns.pop();
      session.setChatHistory(
        turns.slice(-HISTORY_TURNS).map((m) => {
          const text = textOf(m.content).slice(-TURN_CHARS);
          return m.role === "assistant" ? { type: "model", response: [text] } : { type: "user", text };
        }),
      );
      return await session.prompt(textOf(last?.content).slice(-LAST_CHARS), {
        maxTokens: MAX_TOKENS,
        temperature: 0.8,
        grammar,
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
      // A JSON Schema asked for holds the whole answer; it is text, not a native call.
      const schema = demoSchema(request);
      const call = schema ? undefined : plannedCall(request);
      const send = (body) => res.write(`data: ${JSON.stringify(body)}\n\n`);
      // One answer at a time: the runtime has one thread.
      queue = queue
        .then(async () => {
          const grammar = schema
            ? await llama.createGrammarForJsonSchema(schema)
            : call
              ? await llama.createGrammar({ grammar: call.grammar })
              : words;
          const callId = `call_${Date.now().toString(36)}`;
          if (request.stream) {
            res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache" });
            send(chunk({ role: "assistant", content: call ? null : "" }));
            if (call) {
              send(
                chunk({
                  tool_calls: [
                    { index: 0, id: callId, type: "function", function: { name: call.name, arguments: "" } },
                  ],
                }),
              );
            }
            const text = await generate(request.messages ?? [], grammar, (t) =>
              send(chunk(call ? { tool_calls: [{ index: 0, function: { arguments: t } }] } : { content: t })),
            );
            send(chunk({}, call ? "tool_calls" : "stop"));
            send({
              ...chunk({}),
              choices: [],
              usage: { prompt_tokens: 0, completion_tokens: text.length, total_tokens: text.length },
            });
            res.end("data: [DONE]\n\n");
          } else {
            const text = await generate(request.messages ?? [], grammar, () => {});
            const message = call
              ? {
                  role: "assistant",
                  content: null,
                  tool_calls: [
                    { id: callId, type: "function", function: { name: call.name, arguments: text } },
                  ],
                }
              : { role: "assistant", content: text };
            json(200, {
              id,
              object: "chat.completion",
              created: Math.floor(Date.now() / 1000),
              model: DEMO_MODEL,
              choices: [{ index: 0, message, finish_reason: call ? "tool_calls" : "stop" }],
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
