/**
 * Attacks through what a model server says of its window: a redirect that would carry the
 * endpoint's key elsewhere, a window so large that nothing is ever condensed, a prompt count so
 * small that every request is starved, and the cloud metadata address asked as a model server.
 */
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { endpoint } from "../../../src/agent/endpoint";
import { memoryFacts } from "../../../src/agent/facts";
import { localRoot, servedOf } from "../../../src/agent/served";
import { answer, openaiServer } from "../../fixtures/openai-server";
import type { Attack, Outcome } from "./attack";

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

const close = (server: Server): Promise<void> => new Promise((resolve) => server.close(() => resolve()));

export const attacks: Attack[] = [
  {
    name: "a model server's /props redirects Tandem's metadata request, with the endpoint's key, to another host",
    async attempt(): Promise<Outcome> {
      const seen: IncomingMessage[] = [];
      const elsewhere = createServer((req, res) => {
        seen.push(req);
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
      const target = await listen(elsewhere);
      const server = createServer((req, res) => res.writeHead(302, { location: `${target}/collect` }).end());
      const root = await listen(server);
      try {
        await servedOf(`${root}/v1`, "m", undefined, { apiKey: "sk-secret-key" });
        return seen.length ? "succeeded" : "refused";
      } finally {
        await close(server);
        await close(elsewhere);
      }
    },
  },
  {
    name: "a model server claims a window of a trillion tokens so that Tandem never fits its requests",
    async attempt(): Promise<Outcome> {
      const server = await openaiServer();
      try {
        server.models = [{ id: "m", object: "model", owned_by: "llamacpp" }];
        server.routes["GET /props"] = { default_generation_settings: { n_ctx: 1e12 } };
        const said = await servedOf(server.baseURL, "m", server.models[0]);
        return said?.tokens ? "succeeded" : "refused";
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "a model server reports a ten-token prompt so that Tandem takes its window for ten tokens",
    async attempt(): Promise<Outcome> {
      const server = await openaiServer();
      try {
        server.models = [{ id: "m", object: "model", context_length: 8192 }];
        server.script(answer("ok", { prompt: 10 }));
        const model = endpoint({ baseURL: server.baseURL, model: "m", facts: memoryFacts() });
        const long = "word ".repeat(4000);
        const turn = await model.turn(
          { instructions: "", messages: [{ role: "user", text: long }], tools: [], answer: false },
          () => true,
        );
        return turn.cut || (await model.window!()) < 8192 ? "succeeded" : "refused";
      } finally {
        await server.close();
      }
    },
  },
  {
    name: "an endpoint at the cloud metadata address is asked for a model server's metadata",
    attempt: () =>
      Promise.resolve(localRoot("http://169.254.169.254/v1") === undefined ? "refused" : "succeeded"),
  },
];
