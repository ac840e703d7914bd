/** What a person reads when a limit ended a run, the same in the panel and in the Chat view. */
import type { Limit } from "./types";
import { t } from "../protocol/l10n";

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
      return t("Stopped: the {0}-round limit was reached.", limits.rounds);
    case "tokens":
      return t("Stopped: the limit of {0} tokens was reached.", limits.maxTokens.toLocaleString("en-US"));
    case "time":
      return t("Stopped: the time limit of {0} was reached.", duration(limits.maxMs));
  }
}

function duration(ms: number): string {
  if (ms >= 60_000 && ms % 60_000 === 0) {
    const n = ms / 60_000;
    return n === 1 ? t("1 minute") : t("{0} minutes", n);
  }
  if (ms >= 1000) {
    const n = Math.round(ms / 1000);
    return n === 1 ? t("1 second") : t("{0} seconds", n);
  }
  return t("{0} ms", ms);
}
