/** Making an agent. */
import type { Agent, Model, Tool } from "./types";

/** An agent of `model` with `instructions` and `tools`, an empty conversation and at most 16 tool rounds a run. */
export function agent(model: Model, instructions = "", tools: Tool[] = []): Agent {
  return {
    model,
    instructions,
    tools,
    history: [],
    rounds: 16,
    maxTokens: 0,
    maxMs: 0,
    stop: () => false,
    approve: () => true,
    tokens: 0,
    input: 0,
    context: 0,
    window: 0,
  };
}
