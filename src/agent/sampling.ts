/**
 * Which sampling fields a model takes, by its family and its endpoint — one place for the rule:
 * OpenAI's reasoning models (o1, o3, o4-mini, gpt-5…) refuse temperature, top_p, stop and the
 * penalties, and take max_completion_tokens instead of max_tokens; top_k is not OpenAI's and its
 * own API refuses it, while OpenRouter, vLLM, llama.cpp and Ollama read it. What a model cannot be
 * sent is applied by Tandem where it can be (stop sequences, on the streamed text) and said where not.
 */
import type { Learned } from "./facts";
import type { Parameters } from "./types";
import { t } from "../protocol/l10n";

// Applied on the stream by Tandem when a model cannot be sent them (its own module: the editor layer uses it too).
export { Stops } from "./stops";

/** Whether `model` (an id, with or without a provider's prefix such as "openai/") is one of OpenAI's reasoning models. */
export function openaiReasoning(model: string): boolean {
  const id = model.toLowerCase().split("/").pop() ?? "";
  return /^(?:o[1-9]|gpt-5)(?:$|[-.:_@])/.test(id);
}

/** Whether the endpoint at `baseURL` takes top_k: OpenAI's API and Azure OpenAI refuse it. */
export function takesTopK(baseURL: string): boolean {
  let host = "";
  try {
    host = new URL(baseURL).hostname.toLowerCase();
  } catch {
    return true;
  }
  return host !== "api.openai.com" && !host.endsWith(".openai.azure.com");
}

/** The fields OpenAI's reasoning models refuse. */
const REFUSED_BY_REASONING = ["temperature", "top_p", "stop", "frequency_penalty", "presence_penalty"];

/**
 * The sampling fields of a request as endpoints read them: the SDK's names, plus `top_k` (vLLM,
 * llama.cpp, Ollama, OpenRouter) and OpenRouter's `reasoning`, which the SDK's types do not know.
 */
export interface Sampling {
  temperature?: number;
  max_tokens?: number;
  max_completion_tokens?: number;
  stop?: string[];
  top_p?: number;
  top_k?: number;
  frequency_penalty?: number;
  presence_penalty?: number;
  reasoning_effort?: NonNullable<Parameters["reasoningEffort"]>;
  reasoning?: { effort: NonNullable<Parameters["reasoningEffort"]> };
}

/**
 * The request fields of `p` for `model` at `baseURL`, leaving out what the family or the endpoint
 * refuses (`learned.refused`) and naming the token cap as the model takes it.
 */
export function sampling(
  p: Parameters,
  model: string,
  baseURL: string,
  learned: Learned = {},
  openrouter = false,
): Sampling {
  const reasoning = openaiReasoning(model);
  const refused = new Set([...(learned.refused ?? []), ...(reasoning ? REFUSED_BY_REASONING : [])]);
  if (!takesTopK(baseURL)) refused.add("top_k");
  const fields: Sampling = {};
  const put = <K extends keyof Sampling>(name: K, value: Sampling[K] | undefined): void => {
    if (value !== undefined && !refused.has(name)) fields[name] = value;
  };
  put("temperature", p.temperature);
  put(reasoning ? "max_completion_tokens" : (learned.limit ?? "max_tokens"), p.maxTokens);
  if (p.stop?.length) put("stop", p.stop);
  put("top_p", p.topP);
  put("top_k", p.topK);
  put("frequency_penalty", p.frequencyPenalty);
  put("presence_penalty", p.presencePenalty);
  if (p.reasoningEffort !== undefined) {
    if (openrouter) put("reasoning", { effort: p.reasoningEffort });
    else put("reasoning_effort", p.reasoningEffort);
  }
  return fields;
}

/** The settings as the execute API names them (its `model_parameters`), which is how a person sets them. */
const SPEC_NAMES: Record<keyof Parameters, string> = {
  temperature: "temperature",
  maxTokens: "max_tokens",
  stop: "stop_sequences",
  topP: "top_p",
  topK: "top_k",
  frequencyPenalty: "frequency_penalty",
  presencePenalty: "presence_penalty",
  reasoningEffort: "reasoning_effort",
};

/** The note a run shows when the model `model` cannot apply the settings `ignored`. */
export function ignoredNote(model: string, ignored: readonly (keyof Parameters)[]): string {
  return t(
    "{0} cannot apply these settings, so they were left out: {1}.",
    model,
    ignored.map((name) => SPEC_NAMES[name]).join(", "),
  );
}
