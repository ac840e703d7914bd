/**
 * The person's choice of how the agent's edits are written (`tandem.edits.mode`), and what it
 * means for approval. Light on purpose: the editor layer reads it at activation.
 */
import type { Setting } from "../approval";
import { listed } from "../approval";

/** How the agent's edits are written: applied at once as pending changes, or asked about first. */
export type EditsMode = "pending" | "ask";

/** The mode a setting's value names: "ask" only when it says so, else the default "pending". */
export function editsModeOf(value: unknown): EditsMode {
  return value === "ask" ? "ask" : "pending";
}

/** The tools whose writes become pending changes. */
export const PENDING_TOOLS = ["propose_edit", "create_file"] as const;

/**
 * The approval settings a run is judged by under `mode`: in pending mode the edit tools run
 * without a question (the person reviews the change after), unless the person's own setting for
 * the tool says otherwise or the assistant lists it under `approve` (its tools that wait for the
 * person). A write to a protected path is still asked: the engine pins it.
 */
export function approvalsFor(
  mode: EditsMode,
  own: Readonly<Record<string, Setting>>,
  approve = "",
): Readonly<Record<string, Setting>> {
  if (mode !== "pending") return own;
  const out: Record<string, Setting> = {};
  for (const name of PENDING_TOOLS) if (!listed(name, approve)) out[name] = "allow";
  return { ...out, ...own };
}
