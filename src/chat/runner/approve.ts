/** The approval of a run's calls: each by the engine's rules or by the person (the first answer wins). */
import type { Call, Tool } from "../../agent/types";
import { askPerson, type Rules, approveWith, grantTo, refusedNote } from "../approval";
import type { Runs } from "./answer";
import type { Answer } from "./items";
import { t } from "../../protocol/l10n";

/**
 * How one answer decides its calls: false or the refusal the model reads, or true (the answer's
 * checkpoint is taken by the prepared run, see prepare.ts).
 */
export function approval(
  runs: Runs,
  written: Answer,
  all: Tool[],
  rules: Rules,
  halt: AbortSignal,
): (call: Call) => Promise<boolean | string> {
  return (call) => approveCall(runs, written, all, rules, call, halt);
}

/** The approval of one call: by the engine's rules, or by the person (the first answer wins). */
async function approveCall(
  runs: Runs,
  written: Answer,
  tools: Tool[],
  rules: Rules,
  call: Call,
  halt: AbortSignal,
): Promise<boolean | string> {
  const row = written.callItem(call);
  const tool = tools.find((t) => t.name === call.name);
  if (!row || !tool) return false;
  const asker = runs.host.approve?.bind(runs.host) ?? (() => new Promise<never>(() => undefined));
  const problem = runs.host.problem?.bind(runs.host);
  const allowed = runs.allowed(row.chat);
  const { judged, yes } = await approveWith(tool, call.arguments, rules, allowed, async (question, j) => {
    // The panel's "Always allow" grants what the engine offered here (nothing for a protected path).
    runs.asking.set(row.id, {
      always: question.always ?? "",
      grant: () => grantTo(allowed, j.always, rules),
    });
    try {
      return await askPerson(runs.store, row.id, asker, halt, problem, question);
    } finally {
      runs.asking.delete(row.id);
    }
  });
  if (judged.verdict === "refused") {
    const why = judged.reasons.join(" ") || t("The tool {0} may not run here.", call.name);
    runs.store.put("items", { ...row, state: "declined", text: why });
    return refusedNote(why);
  }
  return yes === true;
}
