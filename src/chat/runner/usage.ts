/**
 * The tokens and cost of an answer as its turns come: the model of a run is wrapped so each turn
 * writes the conversation's Context row (what the model was sent, its window, and the running
 * total), and the answer ends with a "usage" item. A summary request costs tokens like any turn but
 * is not the model's view of the conversation, so it leaves `used` alone.
 */
import type { Model, Prices, Turn } from "../../agent/types";
import type { Usage } from "../row-schemas";
import type { Store } from "../store";

/** What `usage` cost at `prices` (per million tokens). */
export function costOf(usage: Omit<Usage, "cost">, prices: Prices): number {
  const cached = Math.min(usage.cached, usage.input);
  const cost =
    ((usage.input - cached) * prices.input +
      cached * (prices.cached ?? prices.input) +
      usage.output * prices.output) /
    1_000_000;
  // Rounded to a millionth of a dollar so sums of many turns stay exact enough to show.
  return Math.round(cost * 1e6) / 1e6;
}

/** The sum of two usages; the cost is known only when both know it. */
export function added(a: Usage | undefined, b: Usage): Usage {
  if (!a) return b;
  const cost =
    a.cost !== undefined && b.cost !== undefined ? Math.round((a.cost + b.cost) * 1e6) / 1e6 : undefined;
  return {
    input: a.input + b.input,
    output: a.output + b.output,
    cached: a.cached + b.cached,
    ...(cost !== undefined ? { cost } : {}),
  };
}

/** What one turn took: its tokens, and their cost at `prices` when known. */
export function turnUsage(turn: Turn, prices: Prices | undefined): Usage {
  const tokens = {
    input: Math.max(0, Math.round(turn.input)),
    output: Math.max(0, Math.round(turn.tokens)),
    cached: Math.max(0, Math.round(turn.cached ?? 0)),
  };
  return prices ? { ...tokens, cost: costOf(tokens, prices) } : tokens;
}

/** The tokens of one answer, counted turn by turn. */
export class Tally {
  private sum: Usage | undefined;

  constructor(
    private readonly store: Store,
    private readonly chat: string,
  ) {}

  /** What the answer took so far (undefined before its first turn). */
  get usage(): Usage | undefined {
    return this.sum;
  }

  /** `model`, each of its turns counted and written to the conversation's Context row. */
  counted(model: Model): Model {
    const wrapped: Model = {
      name: model.name,
      turn: async (request, each) => {
        const turn = await model.turn(request, each);
        // Read at each turn: an endpoint learns its prices from its model list at the first one.
        this.add(turn, request.summary === true, model.prices);
        return turn;
      },
    };
    if (model.window) wrapped.window = () => model.window!();
    if (model.ignores) wrapped.ignores = (parameters) => model.ignores!(parameters);
    return wrapped;
  }

  /** Keeps what the fixed part of the run's requests takes (instructions and tools), for the meter. */
  fixed(tokens: number, window: number): void {
    const before = this.store.get("contexts", this.chat);
    if (this.store.writable)
      this.store.put("contexts", {
        ...(before ?? { id: this.chat, used: 0, window: 0 }),
        fixed: Math.max(0, Math.round(tokens)),
        window: Math.max(0, Math.round(window || before?.window || 0)),
      });
  }

  /** Sets the model's view to `used` tokens (after a `/compact`, before the next turn reports it). */
  viewed(used: number, window: number): void {
    const before = this.store.get("contexts", this.chat);
    if (this.store.writable)
      this.store.put("contexts", {
        ...(before ?? { id: this.chat, used: 0, window: 0 }),
        used: Math.max(0, Math.round(used)),
        window: Math.max(0, Math.round(window || before?.window || 0)),
      });
  }

  /**
   * Adds what a subagent's turn took to the answer and the conversation's total; the model's view
   * of this conversation (`used`) is not the subagent's, so it stays.
   */
  besides(usage: Usage): void {
    this.sum = added(this.sum, usage);
    const before = this.store.get("contexts", this.chat);
    if (this.store.writable)
      this.store.put("contexts", {
        ...(before ?? { id: this.chat, used: 0, window: 0 }),
        total: added(before?.total, usage),
      });
  }

  private add(turn: Turn, summary: boolean, prices: Prices | undefined): void {
    const usage = turnUsage(turn, prices);
    this.sum = added(this.sum, usage);
    const before = this.store.get("contexts", this.chat);
    const window = Math.max(0, Math.round(turn.window || before?.window || 0));
    const used = summary ? (before?.used ?? 0) : usage.input + usage.output;
    if (this.store.writable)
      this.store.put("contexts", {
        ...before,
        id: this.chat,
        used,
        window,
        total: added(before?.total, usage),
      });
  }
}

/**
 * The prices of `model` in an endpoint's `prices` setting (by model id, "*" for the rest), read
 * with care: a price that is not a number of dollars per million tokens ≥ 0 is no price.
 */
export function pricesFor(setting: unknown, model: string): Prices | undefined {
  if (!setting || typeof setting !== "object" || Array.isArray(setting)) return undefined;
  const table = setting as Record<string, unknown>;
  const entry = Object.hasOwn(table, model)
    ? table[model]
    : Object.hasOwn(table, "*")
      ? table["*"]
      : undefined;
  if (!entry || typeof entry !== "object") return undefined;
  const { input, output, cached } = entry as Record<string, unknown>;
  const price = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n >= 0;
  if (!price(input) || !price(output)) return undefined;
  return { input, output, ...(price(cached) ? { cached } : {}) };
}
