/** A model's prices as its API lists them: OpenRouter gives `pricing` in dollars per token, as strings. */
import type OpenAI from "openai";
import type { Prices } from "./types";
import { entryOf } from "./window";

/** A price per token (a number or its text) as dollars per million tokens; undefined when it is not one. */
function perMillion(value: unknown): number | undefined {
  const n = typeof value === "string" ? Number(value) : value;
  if (typeof n !== "number" || !Number.isFinite(n) || n < 0) return undefined;
  // Rounded to a millionth of a dollar: "0.0000025" is 2.5, not 2.4999999999999996.
  return Math.round(n * 1e12) / 1e6;
}

/** The prices in a model's entry (`pricing.prompt`, `.completion`, `.input_cache_read`), or undefined. */
export function pricesIn(entry: Record<string, unknown>): Prices | undefined {
  const pricing = entry.pricing;
  if (!pricing || typeof pricing !== "object") return undefined;
  const p = pricing as Record<string, unknown>;
  const input = perMillion(p.prompt);
  const output = perMillion(p.completion);
  if (input === undefined || output === undefined) return undefined;
  const cached = perMillion(p.input_cache_read);
  return { input, output, ...(cached !== undefined ? { cached } : {}) };
}

/** The prices of model `model` as `api` lists them; undefined when it does not say or does not answer. */
export async function pricesOf(api: OpenAI, model: string): Promise<Prices | undefined> {
  const entry = await entryOf(api, model).catch(() => undefined);
  return entry ? pricesIn(entry) : undefined;
}
