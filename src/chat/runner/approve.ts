/**
 * The approval of a run's calls: each by the engine's rules or by the person (the first answer
 * wins), and, before the first approved call that may change the workspace, the answer's one
 * checkpoint.
 */
import { reason } from "../../agent/perform";
import type { Call, Tool } from "../../agent/types";
import { askPerson, type Rules, approveWith, grantTo, refusedNote } from "../approval";
import { checkpointBefore } from "./checkpoint-once";
import type { Runs } from "./answer";
import type { Work } from "./history";
import type { Answer } from "./items";
import { t } from "../../protocol/l10n";

/**
 * The `approve` of one answer's agent: false or the refusal the model reads, or true once the
 * checkpoint a call that may write waits for is taken. `own` are the chat's own tools.
 */
export function approval(
  runs: Runs,
  work: Work,
  written: Answer,
  all: Tool[],
  rules: Rules,
  own: Tool[],
  halt: AbortSignal,
): (call: Call) => Promise<boolean | string> {
  const { host } = runs;
  // One checkpoint per answer, before its first call that may change the workspace (the chat's own
  // tools write only the store); every such call waits for it. A failed one is said, not a stop.
  const take = host.checkpoint?.bind(host);
  const before = checkpointBefore(take && (() => take(work.user)), new Set(own.map((t) => t.name)), (error) =>
    host.problem?.(`The files were not recorded: ${reason(error)}`),
  );
  return async (call) => {
    // false or the refusal the model reads: only a yes takes the checkpoint and runs the call.
    const yes = await approveCall(runs, written, all, rules, call, halt);
    if (yes !== true) return yes;
    await before(call.name);
    return true;
  };
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
