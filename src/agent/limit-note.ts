/** What a person reads when a limit ended a run, the same in the panel and in the Chat view. */
import type { Limit, LimitCall } from "./types";
import { t } from "../protocol/l10n";

/** The limits a note names (an Agent's). */
export interface Limits {
  rounds: number;
  maxTokens: number;
  maxMs: number;
}

/** The words the person sends to go on after a limit. */
export const CONTINUE = "Continue";

/**
 * "Stopped: the 16-round limit was reached." (and the tokens', the time's, and the repeated failing
 * call's); `call` names the call the run was stopped at, when the run said which.
 */
export function limitNote(limit: Limit, limits: Limits, call?: LimitCall): string {
  switch (limit) {
    case "rounds":
      return t("Stopped: the {0}-round limit was reached.", limits.rounds);
    case "tokens": {
      const tokens = limits.maxTokens.toLocaleString("en-US");
      if (!call) return t("Stopped: the limit of {0} tokens was reached.", tokens);
      if (!call.name)
        return t(
          "Stopped: the limit of {0} tokens was reached while the model was writing a tool call, which did not run.",
          tokens,
        );
      return t(
        "Stopped: the limit of {0} tokens was reached while the model was writing a call of {1}, which did not run.",
        tokens,
        call.name,
      );
    }
    case "time":
      return t("Stopped: the time limit of {0} was reached.", duration(limits.maxMs));
    case "output":
      return t(
        "Stopped: the answer reached the model's output limit (its most tokens per answer) and was cut off.",
      );
    case "repeats":
      if (!call) return t("Stopped: the model made the same failing tool call three times.");
      return t(
        "Stopped: the model called {0} three times with the same arguments and got the same error each time: {1}",
        call.name,
        firstLine(call.error ?? ""),
      );
  }
}

/** The first line of an error, short enough for a note. */
function firstLine(text: string): string {
  const line = text.split("\n")[0].trim();
  return line.length > 200 ? `${line.slice(0, 200)}…` : line;
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
