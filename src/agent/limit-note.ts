/** What a person reads when a limit ended a run, the same in the panel and in the Chat view. */
import type { Limit } from "./types";

/** The limits a note names (an Agent's). */
export interface Limits {
  rounds: number;
  maxTokens: number;
  maxMs: number;
}

/** The words the person sends to go on after a limit. */
export const CONTINUE = "Continue";

/** "Stopped: the 16-round limit was reached." (and the tokens' and time's). */
export function limitNote(limit: Limit, limits: Limits): string {
  switch (limit) {
    case "rounds":
      return `Stopped: the ${limits.rounds}-round limit was reached.`;
    case "tokens":
      return `Stopped: the limit of ${limits.maxTokens.toLocaleString("en-US")} tokens was reached.`;
    case "time":
      return `Stopped: the time limit of ${duration(limits.maxMs)} was reached.`;
  }
}

function duration(ms: number): string {
  const plural = (n: number, unit: string): string => `${n} ${unit}${n === 1 ? "" : "s"}`;
  if (ms >= 60_000 && ms % 60_000 === 0) return plural(ms / 60_000, "minute");
  if (ms >= 1000) return plural(Math.round(ms / 1000), "second");
  return `${ms} ms`;
}
