/** The run loop: model turn, all calls of the turn at once, results back, until an answer or a limit. */
import { attach, documentsOf, reader } from "./attachments";
import { condensedTurn } from "./condense-turn";
import { HALTED, perform, reason, type Outcome } from "./perform";
import { Repeats } from "./repeats";
import { ignoredNote } from "./sampling";
import { readArgs } from "../protocol/args";
import { t } from "../protocol/l10n";
import {
  READ_FILE,
  type Agent,
  type Call,
  type FunctionTool,
  type Limit,
  type LimitCall,
  type Message,
  type Piece,
  type RunOptions,
  type Tool,
  type Turn,
} from "./types";

/** Why a run failed; its message is the text of the run's `error` piece. */
export class RunError extends Error {
  override name = "RunError";
}

/** What `ask` adds to a run: its tool, a line of instructions, and when the run has its answer. */
export interface Extra {
  tools: Tool[];
  instructions: string;
  /** The answer as JSON text once the run has it. */
  answered: () => string | undefined;
  /** Read when the model writes instead of calling; true when the text was taken as the answer. */
  wrote: (text: string) => boolean;
  nudge: string;
}

/** How a run ended without error. */
export interface Ending {
  kind: "done" | "stopped";
  text: string;
  limit?: Limit;
  /** The call a limit stopped the run at. */
  call?: LimitCall;
}

const POLL_MS = 50;

/** The most tokens the answer a limit asks for may take (it is not held to the run's own limits). */
export const FINAL_TOKENS = 1024;

/** Tokens in `chars` characters, as estimated while a turn streams (about 4 characters a token). */
function estimate(chars: number): number {
  return Math.ceil(chars / 4);
}

/**
 * Asks the agent `prompt` with the attached `files` and resolves to its answer, giving each piece
 * to `each` as it comes; the prompt and every message of the run join `a.history`.
 * A stop (`a.stop()` or `signal`) resolves to the text written so far after a `stopped` piece.
 * A failure (the model's or an attachment's) never escapes as a crash: the run gives an `error`
 * piece, then the promise rejects with a `RunError` carrying the same text.
 */
export async function run(a: Agent, prompt: string, options: RunOptions = {}): Promise<string> {
  return (await loop(a, prompt, options)).text;
}

/** The loop behind `run` and `ask`. */
export async function loop(a: Agent, prompt: string, options: RunOptions, extra?: Extra): Promise<Ending> {
  const started = Date.now();
  const halt = new AbortController();
  const onAbort = (): void => halt.abort();
  options.signal?.addEventListener("abort", onAbort, { once: true });
  if (options.signal?.aborted) halt.abort();
  // A stalled stream or a slow tool gives no piece to check `stop` at, so it is polled too.
  const poll = setInterval(() => {
    if (!halt.signal.aborted && a.stop()) halt.abort();
  }, POLL_MS);
  poll.unref?.();
  const stopped = (): boolean => {
    if (!halt.signal.aborted && a.stop()) halt.abort();
    return halt.signal.aborted;
  };
  let ended = false;
  // What a note says is said once a run, however many turns the model says it at.
  const noted = new Set<string>();
  const show = (piece: Piece): void => {
    // Argument parts are counted, not shown: the call is shown whole once it came.
    if (piece.kind === "arguments" || ended) return;
    if (piece.kind === "note") {
      if (noted.has(piece.text)) return;
      noted.add(piece.text);
    }
    options.each?.(piece);
  };
  const written: string[] = [];
  let partial = "";
  const end = (ending: Ending): Ending => {
    show(
      ending.kind === "done"
        ? { kind: "done", text: ending.text, limit: ending.limit }
        : {
            kind: "stopped",
            text: ending.text,
            ...(ending.limit ? { limit: ending.limit } : {}),
            ...(ending.call ? { call: ending.call } : {}),
          },
    );
    ended = true;
    return ending;
  };
  const stop = (pending: Call[] = [], limit?: Limit, call?: LimitCall): Ending => {
    for (const c of pending) a.history.push({ role: "tool", call: c.id, name: c.name, text: HALTED });
    return end({
      kind: "stopped",
      text: written.join("\n\n"),
      ...(limit ? { limit } : {}),
      ...(call ? { call } : {}),
    });
  };
  const deadline = a.maxMs > 0 ? started + a.maxMs : Infinity;
  const fail = (text: string): never => {
    try {
      show({ kind: "error", text });
    } finally {
      ended = true;
    }
    throw new RunError(text);
  };
  try {
    let user: Message = { role: "user", text: prompt };
    if (options.files?.length) {
      const given = await attach(options.files).catch((error: unknown) => fail(reason(error)));
      user = {
        role: "user",
        text: prompt + given.text,
        ...(given.images.length ? { images: given.images } : {}),
      };
      if (given.documents.length) documentsOf(a).push(...given.documents);
    }
    a.history.push(user);
    // Read again each round: a tool may give the model more tools (open_tools), from its next step on.
    let tools: Tool[] = [];
    let offered: FunctionTool[] = [];
    let documents: Tool | undefined;
    const offer = (): void => {
      const now = [...a.tools, ...(extra?.tools ?? [])];
      // The chat part may bring its own read_file; the core's is offered only when none is.
      if (documentsOf(a).length && !now.some((t) => t.name === READ_FILE)) {
        documents ??= reader(documentsOf(a));
        now.push(documents);
      }
      if (now.length === tools.length && now.every((t, i) => t === tools[i])) return;
      tools = now;
      offered = now.map((t) => ({
        type: "function",
        function: { name: t.name, description: t.description, parameters: t.parameters },
      }));
    };
    let tokens = 0;
    // What the run's tools spent for it (subagents), counted from this run's start.
    const before = a.spent?.() ?? 0;
    const outside = (): number => (a.spent?.() ?? 0) - before;
    let round = 0;
    let limit: Limit | undefined;
    const repeats = new Repeats();
    for (;;) {
      if (stopped()) return stop();
      // What the person sent while the last round ran joins here, before the model's next turn.
      if (round > 0 && a.steer) a.history.push(...(await a.steer()));
      if (stopped()) return stop();
      offer();
      const answer = limit !== undefined;
      // The answer a limit asks for has only the time that is left: none left, none asked.
      if (answer && Date.now() >= deadline) return stop([], "time");
      partial = "";
      const parameters = answer ? capped(a.parameters) : a.parameters;
      const ignored = parameters ? a.model.ignores?.(parameters) : undefined;
      if (ignored?.length) show({ kind: "note", text: ignoredNote(a.model.name, ignored) });
      // A turn is cut when the run's time or tokens run out while it streams (the call being
      // written, if any, does not run); the answer a limit asks for is held to its own token cap.
      let cut: Limit | undefined;
      let cutCall: LimitCall | undefined;
      const turnHalt = new AbortController();
      const onHalt = (): void => turnHalt.abort();
      halt.signal.addEventListener("abort", onHalt, { once: true });
      if (halt.signal.aborted) turnHalt.abort();
      const timer =
        deadline < Infinity
          ? setTimeout(
              () => {
                cut = "time";
                turnHalt.abort();
              },
              Math.max(0, deadline - Date.now()),
            )
          : undefined;
      const cap = answer ? FINAL_TOKENS : a.maxTokens > 0 ? a.maxTokens - tokens - outside() : Infinity;
      let chars = 0;
      let turn: Turn;
      try {
        // The history is condensed to the model's window before every round (condense-turn.ts).
        turn = await condensedTurn(
          a,
          {
            instructions: instructionsOf(a, extra, limit),
            messages: a.history,
            tools: offered,
            answer,
            parameters,
            signal: turnHalt.signal,
          },
          (piece) => {
            if (stopped() || cut) return false;
            if (piece.kind === "text") partial += piece.text;
            if (piece.kind === "retracted" && partial.endsWith(piece.text))
              partial = partial.slice(0, partial.length - piece.text.length);
            show(piece);
            if (piece.kind === "text" || piece.kind === "reasoning" || piece.kind === "arguments")
              chars += piece.text.length;
            if (estimate(chars) >= cap) {
              if (!answer) {
                cut = "tokens";
                if (piece.kind === "arguments") cutCall = { name: piece.name };
              }
              return false;
            }
            return !stopped();
          },
        );
      } catch (error) {
        if (!stopped() && !cut) return fail(reason(error));
        if (partial) {
          a.history.push({ role: "assistant", text: partial });
          written.push(partial);
        }
        return stop([], cut, cutCall);
      } finally {
        clearTimeout(timer);
        halt.signal.removeEventListener("abort", onHalt);
      }
      if (cut) {
        // What the cut turn wrote is kept; its calls (if any came whole) do not run.
        a.tokens += turn.tokens;
        a.input += turn.input;
        if (turn.text || turn.reasoning) a.history.push(assistant(turn, []));
        if (turn.text) written.push(turn.text);
        return stop([], cut, cutCall);
      }
      a.tokens += turn.tokens;
      a.input += turn.input;
      a.context = turn.input + turn.tokens;
      if (turn.window) a.window = turn.window;
      tokens += turn.tokens;
      const calls = answer ? [] : turn.calls;
      // An answer the server cut off at its token limit: its calls whose arguments were cut do not run
      // (and keep no broken JSON in the history, which some servers' templates refuse to read back).
      const outOfTokens = turn.finish === "length";
      // The provider's filter ended the answer: what came is kept, and the person is told why it stops there.
      if (turn.finish === "content_filter") show({ kind: "note", text: filteredNote(a.model.name) });
      const cutOff = new Set(outOfTokens ? calls.filter((c) => !readArgs(c.arguments).ok) : []);
      a.history.push(
        assistant(
          turn,
          calls.map((c) => (cutOff.has(c) ? { ...c, arguments: "{}" } : c)),
        ),
      );
      if (turn.text) written.push(turn.text);
      if (stopped()) return stop(calls);
      if (calls.length === 0) {
        // Cut off mid-answer: the run stops there, saying so, and Continue lets the model go on.
        if (outOfTokens && !extra && !answer) return stop([], "output");
        if (!extra || answer) return end({ kind: "done", text: turn.text, limit });
        if (extra.wrote(turn.text)) return end({ kind: "done", text: turn.text });
        a.history.push({ role: "user", text: extra.nudge });
      } else {
        for (const call of calls) {
          show({ kind: "call", call });
          if (stopped()) return stop(calls);
        }
        const budget = a.maxMs > 0 ? Math.max(1, a.maxMs - (Date.now() - started)) : Number.MAX_SAFE_INTEGER;
        const outcomes: Outcome[] = await Promise.all(
          calls.map((call) =>
            cutOff.has(call)
              ? notRun(call, show)
              : perform(a, tools, call, halt.signal, budget, (piece) => {
                  show(piece);
                  stopped();
                }),
          ),
        );
        calls.forEach((call, i) =>
          a.history.push({ role: "tool", call: call.id, name: call.name, text: outcomes[i].text }),
        );
        if (stopped()) return stop();
        const repeated = calls
          .map((call, i) => repeats.add(call, outcomes[i].failed, outcomes[i].text))
          .find((r) => r !== undefined);
        if (repeated) return stop([], "repeats", repeated);
        const answered = extra?.answered();
        if (answered !== undefined) return end({ kind: "done", text: answered });
      }
      round++;
      if (round >= a.rounds) limit = "rounds";
      else if (a.maxTokens > 0 && tokens + outside() >= a.maxTokens) limit = "tokens";
      else if (a.maxMs > 0 && Date.now() - started >= a.maxMs) limit = "time";
      if (limit && extra)
        return fail(`No answer that reads as the record asked for within the ${limitName(limit)}.`);
    }
  } catch (error) {
    if (error instanceof RunError) throw error;
    return fail(reason(error));
  } finally {
    clearInterval(poll);
    options.signal?.removeEventListener("abort", onAbort);
    // What a tool left running (a dev server, a watcher) ends with the run that started it.
    for (const t of a.tools) t.close?.();
  }
}

/** What the person reads when the model's provider filtered the answer off. */
export function filteredNote(model: string): string {
  return t("The provider of {0} ended the answer here with its content filter.", model);
}

/** What the model and the person read of a call cut off at the answer's token limit (it was not run). */
export const CUT_OFF_CALL =
  "This call was cut off: the answer reached the model's output limit (its most tokens per answer) while " +
  "writing the call's arguments, so the call did not run. Make smaller calls instead: write a long file in " +
  "parts (its start first, then the rest in further edits).";

/** The outcome of a call cut off at the answer's token limit: shown as failed, never approved nor run. */
async function notRun(call: Call, show: (piece: Piece) => void): Promise<Outcome> {
  show({ kind: "failed", call, text: CUT_OFF_CALL });
  return { text: CUT_OFF_CALL, failed: true, halted: false };
}

function assistant(turn: Turn, calls: Call[]): Message {
  return {
    role: "assistant",
    text: turn.text,
    ...(turn.reasoning ? { reasoning: turn.reasoning } : {}),
    ...(calls.length ? { calls } : {}),
    ...(turn.details.length ? { details: turn.details } : {}),
  };
}

/** The sampling settings of the answer a limit asks for: its tokens capped. */
function capped(parameters: Agent["parameters"]): NonNullable<Agent["parameters"]> {
  const given = parameters?.maxTokens;
  return { ...parameters, maxTokens: given && given < FINAL_TOKENS ? given : FINAL_TOKENS };
}

function instructionsOf(a: Agent, extra: Extra | undefined, limit: Limit | undefined): string {
  const parts = [a.instructions, extra?.instructions ?? ""];
  if (limit) {
    parts.push(
      `This run has reached its ${limitName(limit)}: answer now with what you have, without calling a tool.`,
    );
  }
  return parts.filter(Boolean).join("\n\n");
}

function limitName(limit: Limit): string {
  return {
    rounds: "limit of tool rounds",
    tokens: "limit of tokens",
    time: "time limit",
    repeats: "limit of repeated failing calls",
    output: "output limit of one answer",
  }[limit];
}
