/**
 * The execute server without VS Code: `node dist/execute-server.js --port P`. Its model is AI_MODEL
 * of the OpenAI-compatible API at AI_URL (key AI_API_KEY); every model name of the API document
 * maps to it. Clients must give the key TANDEM_EXECUTE_KEY.
 */
import { parseArgs } from "node:util";
import { endpoint, type Model } from "../agent";
import { SPEC_MODELS } from "./schema";
import { serveExecute } from "./server";
import { reason } from "../protocol/reason";

function fail(message: string): never {
  process.stderr.write(`${message}\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  let port = 0;
  try {
    const { values } = parseArgs({ options: { port: { type: "string" } }, strict: true });
    if (values.port !== undefined) {
      port = Number(values.port);
      if (!/^\d+$/.test(values.port) || port > 65535)
        fail(`--port must be a port number (0-65535), not "${values.port}".`);
    }
  } catch (error) {
    fail(`${reason(error)}\nusage: execute-server [--port P]`);
  }
  const key = process.env.TANDEM_EXECUTE_KEY;
  if (!key)
    fail(
      "TANDEM_EXECUTE_KEY is not set: set it to the API key clients must give; the server will not start without one.",
    );
  const id = process.env.AI_MODEL;
  if (!id) fail("AI_MODEL is not set: set it (with AI_URL and AI_API_KEY) to the model that answers.");
  let model: Model;
  try {
    model = endpoint({ baseURL: process.env.AI_URL, apiKey: process.env.AI_API_KEY, model: id });
  } catch (error) {
    fail(reason(error));
  }
  const models = Object.fromEntries(SPEC_MODELS.map((name) => [name, id]));
  const server = await serveExecute({
    key,
    port,
    config: { models, resolve: (wanted) => (wanted === id ? model : undefined) },
    log: (line) => process.stderr.write(`${line}\n`),
  });
  process.stdout.write(`listening on ${server.url}\n`);
  const stop = () => {
    void server.close().then(() => process.exit(0));
  };
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}

main().catch((error: unknown) => {
  process.stderr.write(`execute server: ${reason(error)}\n`);
  process.exit(1);
});
