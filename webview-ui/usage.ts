/** How tokens and cost read in the panel: under an answer, and in the context meter's tooltip. */
import type { Usage } from "../src/protocol/rows";
import { t } from "../src/protocol/l10n";

/** A count of tokens, short: 950, 12.3k, 1.2M. */
export function tokenCount(n: number): string {
  if (n >= 1_000_000) return `${(n / 1_000_000).toFixed(1)}M`;
  if (n >= 10_000) return `${Math.round(n / 1000)}k`;
  if (n >= 1000) return `${(n / 1000).toFixed(1)}k`;
  return String(n);
}

/** A cost in US dollars, with the digits a small amount needs: $0.0042, $0.12, $3.40. */
export function dollars(cost: number): string {
  if (cost === 0) return "$0";
  if (cost < 0.01) return `$${cost.toPrecision(2)}`;
  return `$${cost.toFixed(2)}`;
}

/** A usage in one line: "1.2k in (800 cached) · 350 out · $0.0042". */
export function usageLine(usage: Usage): string {
  const parts = [
    usage.cached
      ? t("{0} in ({1} cached)", tokenCount(usage.input), tokenCount(usage.cached))
      : t("{0} in", tokenCount(usage.input)),
    t("{0} out", tokenCount(usage.output)),
  ];
  if (usage.cost !== undefined) parts.push(dollars(usage.cost));
  return parts.join(" · ");
}
