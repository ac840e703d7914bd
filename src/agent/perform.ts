/** Running the tool calls of one turn: approval, argument errors, timeouts, and stop. */
import { reason } from "../protocol/reason";
import { DECLINED, type Agent, type Call, type Piece, type Tool } from "./types";

// Kept here too, where the core has always imported it from.
export { reason };

/** How long a tool call may take when neither the tool nor the agent says. */
export const TOOL_TIMEOUT_MS = 120_000;

/** What a call gave: its text, whether it failed, or that the run was halted before it ended. */
export interface Outcome {
  text: string;
  failed: boolean;
  halted: boolean;
}

/** Marks a call the run ended before its result, so the conversation stays well formed. */
export const HALTED = "The run was stopped before this call finished.";

/**
 * Runs one call: asks `approve` for a tool that writes, runs it with its timeout (capped by
 * `budgetMs`), and gives `show` its result or failed piece. Never throws.
 */
export async function perform(
  a: Agent,
  tools: Tool[],
  call: Call,
  halt: AbortSignal,
  budgetMs: number,
  show: (piece: Piece) => void,
): Promise<Outcome> {
  const found = tools.find((t) => t.name === call.name);
  if (!found) {
    const names = tools.map((t) => t.name).join(", ") || "none";
    return settle(call, show, `There is no tool named "${call.name}". The tools are: ${names}.`, true);
  }
  if (!found.readOnly) {
    let approved: boolean | string | undefined;
    try {
      approved = await until(Promise.resolve(a.approve(call)), halt);
    } catch (error) {
      return settle(call, show, `The call could not be approved: ${reason(error)}`, true);
    }
    if (approved === undefined) return { text: HALTED, failed: true, halted: true };
    // A refusal by rule says why, so the model can change course instead of trying again.
    if (typeof approved === "string") return settle(call, show, approved, false);
    if (!approved) return settle(call, show, DECLINED, false);
  }
  const ms = Math.max(1, Math.min(found.timeoutMs ?? a.timeoutMs ?? TOOL_TIMEOUT_MS, budgetMs));
  const own = new AbortController();
  const timer = setTimeout(() => own.abort(new Error("timeout")), ms);
  const stop = (): void => own.abort(new Error("halt"));
  halt.addEventListener("abort", stop, { once: true });
  try {
    const ran = found.run(call.arguments, own.signal, call);
    const text = await until(ran, own.signal);
    if (text !== undefined) return settle(call, show, text, false);
    if (halt.aborted) return { text: HALTED, failed: true, halted: true };
    return settle(call, show, `The tool ${call.name} took longer than ${ms} ms and was stopped.`, true);
  } catch (error) {
    if (halt.aborted) return { text: HALTED, failed: true, halted: true };
    return settle(call, show, reason(error), true);
  } finally {
    clearTimeout(timer);
    halt.removeEventListener("abort", stop);
  }
}

function settle(call: Call, show: (piece: Piece) => void, text: string, failed: boolean): Outcome {
  show(failed ? { kind: "failed", call, text } : { kind: "result", call, text });
  return { text, failed, halted: false };
}

/** The value of `promise`, or undefined once `signal` aborts first. */
function until<T>(promise: Promise<T>, signal: AbortSignal): Promise<T | undefined> {
  if (signal.aborted) {
    promise.catch(() => undefined);
    return Promise.resolve(undefined);
  }
  return new Promise<T | undefined>((resolve, reject) => {
    const quit = (): void => resolve(undefined);
    signal.addEventListener("abort", quit, { once: true });
    promise.then(
      (value) => {
        signal.removeEventListener("abort", quit);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener("abort", quit);
        reject(error);
      },
    );
  });
}
