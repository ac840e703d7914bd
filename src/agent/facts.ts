/**
 * What Tandem learns of a model behind an endpoint (by its check or by its answers), kept so that
 * no later run pays for it again: the editor keeps these in its global state across restarts.
 */

/** Where a model writes its reasoning: a delta field, or `<think>` tags in its text. */
export type ReasoningField = "reasoning_content" | "reasoning" | "reasoning_details" | "think";

/** The field that caps an answer's tokens (OpenAI's reasoning models refuse max_tokens). */
export type TokenField = "max_tokens" | "max_completion_tokens";

/** What was learned of one model of one endpoint; an absent field is not known. */
export interface Learned {
  /** The context window in tokens. */
  window?: number;
  /**
   * The most prompt tokens the server was seen to read: it cut a longer prompt to this many without
   * a word (a default Ollama does). Requests are fitted to it until the server says it serves more.
   */
  held?: number;
  /** Describe tools in the instructions and read calls from the text (native tools were refused or ignored). */
  textTools?: boolean;
  /** The field that caps the answer's tokens. */
  limit?: TokenField;
  /** The field the model streams its reasoning in, which is the one its reasoning goes back in. */
  reasoning?: ReasoningField;
  /** The server's template opens `<think>` in the prompt: each answer starts inside reasoning. */
  opens?: boolean;
  /** Request fields the endpoint refused (temperature, stop, top_k…): never sent again. */
  refused?: string[];
  /** Whether the model takes images, when the endpoint check could tell. */
  images?: boolean;
  /** Whether the endpoint holds an answer to a JSON Schema given in `response_format` (the check sent one). */
  jsonSchema?: boolean;
  /** Hold the model's output to the tools' schemas instead of its native calls (they kept failing). */
  constrain?: boolean;
}

/** A store of learned facts by model key; the editor fills one with its global state. */
export interface Facts {
  get(key: string): Learned | undefined;
  set(key: string, learned: Learned): void;
}

/** The key of model `model` at the endpoint `baseURL`. */
export function factsKey(baseURL: string, model: string): string {
  return `${baseURL.replace(/\/+$/, "")} ${model}`;
}

/** Facts kept in memory only. */
export function memoryFacts(): Facts {
  const kept = new Map<string, Learned>();
  return { get: (key) => kept.get(key), set: (key, learned) => void kept.set(key, learned) };
}

/** Adds `change` to what `facts` know of `key`; true when something new was learned. */
export function learn(facts: Facts, key: string, change: Learned): boolean {
  const before = facts.get(key) ?? {};
  const after: Learned = { ...before };
  let changed = false;
  for (const [name, value] of Object.entries(change) as [keyof Learned, unknown][]) {
    if (value === undefined) continue;
    if (name === "refused") {
      const all = [...new Set([...(before.refused ?? []), ...(value as string[])])];
      if (all.length !== (before.refused ?? []).length) [after.refused, changed] = [all, true];
    } else if (before[name] !== value) {
      Object.assign(after, { [name]: value });
      changed = true;
    }
  }
  if (changed) facts.set(key, after);
  return changed;
}

/** What a person reads of `learned` beside a model's name, e.g. "text tools · 8k window · reasoning_content". */
export function described(learned: Learned | undefined): string {
  if (!learned) return "";
  const parts: string[] = [];
  if (learned.textTools) parts.push("text tools");
  if (learned.jsonSchema && (learned.textTools || learned.constrain)) parts.push("calls held to JSON schema");
  if (learned.window) parts.push(`${windowWords(learned.window)} window`);
  if (learned.held) parts.push(`cuts prompts to ${windowWords(learned.held)}`);
  if (learned.reasoning) parts.push(learned.reasoning === "think" ? "<think> tags" : learned.reasoning);
  if (learned.limit === "max_completion_tokens") parts.push("max_completion_tokens");
  if (learned.refused?.length) parts.push(`no ${learned.refused.join(", ")}`);
  return parts.join(" · ");
}

function windowWords(tokens: number): string {
  if (tokens >= 1_000_000) return `${Math.round(tokens / 100_000) / 10}M`;
  if (tokens >= 1_000) return `${Math.round(tokens / 1024)}k`;
  return String(tokens);
}

/** Whether `value` reads as learned facts (what a store gives back may have been written by another version). */
export function isLearned(value: unknown): value is Learned {
  if (!value || typeof value !== "object" || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  const optional = (name: string, ok: (x: unknown) => boolean): boolean =>
    v[name] === undefined || ok(v[name]);
  return (
    optional("window", (x) => typeof x === "number" && Number.isFinite(x) && x > 0) &&
    optional("held", (x) => typeof x === "number" && Number.isFinite(x) && x > 0) &&
    optional("textTools", (x) => typeof x === "boolean") &&
    optional("limit", (x) => x === "max_tokens" || x === "max_completion_tokens") &&
    optional("reasoning", (x) =>
      ["reasoning_content", "reasoning", "reasoning_details", "think"].includes(x as string),
    ) &&
    optional("opens", (x) => typeof x === "boolean") &&
    optional("refused", (x) => Array.isArray(x) && x.every((f) => typeof f === "string")) &&
    optional("jsonSchema", (x) => typeof x === "boolean") &&
    optional("constrain", (x) => typeof x === "boolean")
  );
}
