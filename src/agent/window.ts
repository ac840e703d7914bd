/** A model's context window: as its API lists it, and as its server really serves it. */
import type OpenAI from "openai";
import type { Facts } from "./facts";
import { servedOf, type Served } from "./served";

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

const served = new Map<string, Promise<Served | undefined>>();
const lastServed = new Map<string, Served>();

/**
 * What the server behind `api` says of the window it serves `model` with (served.ts); a sure answer
 * is asked once, one that is only a default is asked again next time (the model may be loaded since).
 */
export function servedFor(api: OpenAI, model: string): Promise<Served | undefined> {
  const key = `${api.baseURL} ${model}`;
  let found = served.get(key);
  if (!found) {
    found = entryOf(api, model)
      .catch(() => undefined)
      .then((entry) => servedOf(api.baseURL, model, entry, { apiKey: api.apiKey ?? undefined }))
      .catch(() => undefined);
    served.set(key, found);
    void found.then((s) => {
      if (s) lastServed.set(key, s);
      if (!s?.sure) served.delete(key);
    });
  }
  return found;
}

/** The last thing the server behind `baseURL` said of `model`'s served window, if it was asked. */
export function servedKnown(baseURL: string, model: string): Served | undefined {
  return lastServed.get(`${baseURL} ${model}`);
}

/**
 * The window to fit requests for `model` to: what the server says it serves, else what was learned
 * (a check, an earlier listing), else its listing — and never more than a cut showed it holds, until
 * the server says it serves more than that (the person followed the fix). 0 when nothing says.
 */
export async function fittedWindow(api: OpenAI, model: string, facts: Facts, key: string): Promise<number> {
  const [server, listed] = await Promise.all([servedFor(api, model), windowOf(api, model)]);
  const learned = facts.get(key) ?? {};
  let held = learned.held;
  if (held && server?.sure && server.tokens > held) {
    const { held: _forgotten, ...rest } = learned;
    facts.set(key, { ...rest, window: server.tokens });
    held = undefined;
  }
  // A server's documented default (a model Ollama has not loaded) yields to what was learned of it.
  const base = server?.sure ? server.tokens : learned.window || server?.tokens || listed;
  return held ? Math.min(base || held, held) : base;
}
