/**
 * Attacks through an answer the model server says it cut off at its output limit: a command call
 * whose arguments stop where the half command means something else (`rm -rf build/cache` cut to
 * `rm -rf `), hoping Tandem mends the JSON and offers or runs what is left.
 */
import { z } from "zod";
import { agent } from "../../../src/agent/agent";
import { endpoint } from "../../../src/agent/endpoint";
import { run } from "../../../src/agent/run";
import { tool } from "../../../src/agent/tool";
import { answer, finish, openaiServer, toolCall } from "../../fixtures/openai-server";
import type { Attack, Outcome } from "./attack";

export const attacks: Attack[] = [
  {
    name: "a model server cuts a command call off at its output limit where the half command deletes more",
    async attempt(): Promise<Outcome> {
      const server = await openaiServer();
      try {
        server.script(
          { events: [...toolCall(0, "c1", "run_command", '{"command":"rm -rf ', 4), finish("length")] },
          answer("ok"),
        );
        const ran: string[] = [];
        const command = tool("run_command", "Runs a command.", z.object({ command: z.string() }), (i) => {
          ran.push(i.command);
          return "ran";
        });
        const model = endpoint({ baseURL: server.baseURL, model: "m", retry: { baseMs: 1 }, window: 0 });
        const a = agent(model, "", [command]);
        let asked = false;
        a.approve = () => {
          asked = true;
          return true;
        };
        await run(a, "clean the cache");
        return ran.length ? "succeeded" : asked ? "asked" : "refused";
      } finally {
        await server.close();
      }
    },
  },
];
