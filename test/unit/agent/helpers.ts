/** What the endpoint tests share: a fixture server with an endpoint model over it, and a run's pieces. */
import {
  endpoint,
  run,
  scripted,
  type Agent,
  type Model,
  type Parameters,
  type Piece,
  type Script,
  type ScriptedModel,
} from "../../../src/agent";
import { openaiServer, type FixtureServer } from "../../fixtures/openai-server";

/** Endpoint options that make a test fast: retries wait 1 ms, no window is looked up. */
export const fast = { retry: { baseMs: 1 }, window: 0 };

/** A fixture server and the endpoint model "m1" over it (key "k"), with `fast` options. */
export async function servedModel(): Promise<{ server: FixtureServer; model: Model }> {
  const server = await openaiServer();
  return { server, model: endpoint({ baseURL: server.baseURL, apiKey: "k", model: "m1", ...fast }) };
}

/** Runs PROMPT on the agent A and keeps every piece it showed. */
export async function collect(a: Agent, prompt: string): Promise<{ answer: string; pieces: Piece[] }> {
  const pieces: Piece[] = [];
  const out = await run(a, prompt, { each: (p) => pieces.push(p) });
  return { answer: out, pieces };
}

/** The text of the pieces of KIND, joined. */
export const joined = (pieces: Piece[], kind: "text" | "reasoning"): string =>
  pieces.map((p) => (p.kind === kind ? p.text : "")).join("");

/** A scripted model that, as a model of VS Code's does, cannot apply any sampling setting but stop sequences. */
export function deaf(turns: Script[]): ScriptedModel {
  const model = scripted(turns, "Copilot GPT-4o");
  model.ignores = (p: Parameters) =>
    (Object.keys(p) as (keyof Parameters)[]).filter((name) => p[name] !== undefined && name !== "stop");
  return model;
}
