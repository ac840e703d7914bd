/** How tokens and cost read in the panel: under an answer, and in the context meter's tooltip. */
import type { Usage } from "../src/protocol/rows";
import { t } from "../src/protocol/l10n";
import { compactCount } from "./dom";

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
      ? t("{0} in ({1} cached)", compactCount(usage.input), compactCount(usage.cached))
      : t("{0} in", compactCount(usage.input)),
    t("{0} out", compactCount(usage.output)),
  ];
  if (usage.cost !== undefined) parts.push(dollars(usage.cost));
  return parts.join(" · ");
}
