/** A model's context window, as its API lists it. */
import type OpenAI from "openai";

const known = new Map<string, Promise<number>>();

/** The context window of model `model` as `api` lists it (GET /models, asked once a model); 0 when it does not say. */
export function windowOf(api: OpenAI, model: string): Promise<number> {
  const key = `${api.baseURL} ${model}`;
  let window = known.get(key);
  if (!window) {
    window = listed(api, model).catch(() => 0);
    known.set(key, window);
  }
  return window;
}

async function listed(api: OpenAI, model: string): Promise<number> {
  const entry = await entryOf(api, model);
  return entry ? windowIn(entry) : 0;
}

const entries = new Map<string, Promise<Record<string, unknown> | undefined>>();

/** Model `model`'s entry in `api`'s list (GET /models, asked once a model); undefined when it is not listed. */
export function entryOf(api: OpenAI, model: string): Promise<Record<string, unknown> | undefined> {
  const key = `${api.baseURL} ${model}`;
  let entry = entries.get(key);
  if (!entry) {
    entry = api.models.list({ maxRetries: 0, timeout: 10_000 }).then(
      // Necessary cast: servers add fields the SDK's Model type does not name (context_length,
      // max_model_len…), and an interface is not a record; every field is then checked as unknown.
      (page) => page.data.find((m) => m.id === model) as unknown as Record<string, unknown> | undefined,
    );
    entries.set(key, entry);
    // A failed listing is asked again next time, as `windowOf` decides.
    entry.catch(() => entries.delete(key));
  }
  return entry;
}

/** The window in a model's entry: OpenRouter, vLLM, llama.cpp, LM Studio and Ollama name it differently. */
export function windowIn(entry: Record<string, unknown>): number {
  const meta = (entry.meta ?? {}) as Record<string, unknown>;
  const top = (entry.top_provider ?? {}) as Record<string, unknown>;
  const candidates = [
    entry.context_length,
    entry.max_model_len,
    entry.context_window,
    entry.max_context_length,
    entry.n_ctx,
    meta.n_ctx,
    top.context_length,
    meta.n_ctx_train,
  ];
  for (const value of candidates) if (typeof value === "number" && value > 0) return Math.floor(value);
  return 0;
}
