/** Requests for the conformance tests, and what `execute` answers them. */
import assert from "node:assert/strict";
import { says, scripted } from "../../../src/agent";
import { execute, type ExecuteConfig, type Outcome } from "../../../src/execute";

export type Json = Record<string, unknown>;

/** A valid request: one tool, one user message. */
export const valid = (): Json => ({
  model: "gpt-4",
  tools: [
    {
      name: "get_weather",
      description: "The weather in a city",
      arguments: { type: "object", properties: { city: { type: "string", description: "The city" } } },
    },
  ],
  messages: [{ role: "user", content: "What is the weather in Paris?" }],
});

function config(): ExecuteConfig {
  const model = scripted([says("Sunny.")]);
  return { models: { "gpt-4": "local" }, resolve: (id) => (id === "local" ? model : undefined) };
}

/** What `execute` answers `body`, "gpt-4" mapped to a scripted model with the id "local". */
export async function outcome(body: unknown): Promise<Outcome> {
  return execute(body, config());
}

/** The 422's problems as [loc, type] pairs. */
export async function problems(body: unknown): Promise<[(string | number)[], string][]> {
  const out = await outcome(body);
  assert.equal(out.status, 422, `expected a 422, got ${out.status}: ${JSON.stringify(out.body)}`);
  if (out.status !== 422) return [];
  return out.body.detail.map((d) => [d.loc, d.type]);
}

/** The valid request with these messages. */
export function withMessages(...messages: unknown[]): Json {
  return { ...valid(), messages };
}

/** The valid request with these model parameters. */
export function withParameters(model_parameters: unknown): Json {
  return { ...valid(), model_parameters };
}

/** pydantic's name for the list-of-parts member of a user message's content. */
export const PARTS =
  "list[tagged-union[TextUserMessageContentParts,ImageUrlUserMessageContentParts,ImageDataUserMessageContentParts]]";
