/**
 * Condensing, applied: before each round's request the model's view of the history is made to fit
 * its window (old tool outputs become stubs, then the oldest turns a summary the same model writes),
 * the real prompt tokens calibrate the estimate, and a refusal for length is answered once by
 * condensing harder. `a.history` keeps every message; only what is sent changes.
 */
import {
  FALLBACK_WINDOW,
  SUMMARY_INSTRUCTIONS,
  THRESHOLD,
  bounded,
  cut,
  fixedTokens,
  shape,
  summaryInput,
  roomOf,
  tooLarge,
  type Measure,
  type Summary,
  type View,
} from "./condense";
import type { Cut } from "./cut";
import { isOverflow, overflowWindow } from "./overflow";
import type { Agent, Message, Piece, Request, Turn } from "./types";
import { reason } from "../protocol/reason";

/** What a person or a host tells condensing, and what it keeps between rounds (on `Agent.condensing`). */
export interface Condensing {
  /** The share of the window a request may fill (default 0.8). */
  threshold?: number;
  /** The window assumed when the model's is unknown (default 8192). */
  fallback?: number;
  /** The summary of the first messages of the history, once one is made. */
  summary?: Summary;
  /** Reported prompt tokens over estimated ones (1 until a turn reports them). */
  ratio?: number;
  /** Told when a summary was made and each round what the view took. */
  told?(event: Condensed): void;
  /** Told when the server cut a prompt without a word (the next rounds fit what it held). */
  cut?(cut: Cut): void;
}

/** What one round's condensing did. */
export interface Condensed {
  /** The new summary, when one was made this round. */
  summary?: Summary;
  /** Tool outputs replaced by stubs in this round's view. */
  stubbed: number;
  /** The estimated tokens of the request sent. */
  tokens: number;
  window: number;
}

/** The state of condensing of `a`, made on first use. */
export function condensingOf(a: Agent): Condensing {
  a.condensing ??= {};
  return a.condensing;
}

/** The window condensing works to: the model's, else the fallback. */
async function windowOf(a: Agent): Promise<number> {
  if (!a.window && a.model.window) a.window = await a.model.window().catch(() => 0);
  return a.window > 0 ? a.window : (a.condensing?.fallback ?? FALLBACK_WINDOW);
}

function measureOf(a: Agent, request: Request, window: number): Measure {
  const c = condensingOf(a);
  return {
    budget: Math.floor(window * (c.threshold ?? THRESHOLD)),
    fixed: fixedTokens(request.instructions, request.tools),
    ratio: c.ratio ?? 1,
  };
}

/**
 * Asks the model to summarise the history up to message `count` (after the summary so far) and
 * keeps the summary on `a`; a model that fails or says nothing leaves a plain note instead, so the
 * run goes on.
 */
export async function summarise(
  a: Agent,
  count: number,
  window: number,
  signal?: AbortSignal,
): Promise<Summary> {
  const c = condensingOf(a);
  const previous = c.summary;
  const from = previous ? Math.min(previous.count, count) : 0;
  const budget = Math.floor(window * (c.threshold ?? THRESHOLD));
  const allowance = Math.max(256, Math.floor(budget / 6));
  const room = Math.floor((budget - allowance) / (c.ratio ?? 1)) - fixedTokens(SUMMARY_INSTRUCTIONS, []);
  const input = summaryInput(a.history, previous?.text ?? "", from, count, Math.max(200, room));
  let text = "";
  try {
    const turn = await a.model.turn(
      {
        instructions: SUMMARY_INSTRUCTIONS,
        messages: [{ role: "user", text: input }],
        tools: [],
        answer: true,
        parameters: a.parameters,
        signal,
        summary: true,
      },
      () => !signal?.aborted,
    );
    a.tokens += turn.tokens;
    a.input += turn.input;
    text = turn.text.trim();
  } catch {
    // A summary is a help, not a must: the note below keeps the run going.
  }
  if (signal?.aborted) throw new Error("stopped");
  if (!text) {
    const first = a.history.find((m): m is Extract<Message, { role: "user" }> => m.role === "user");
    text = [
      previous?.text ?? "",
      `${count - from} earlier messages were left out to fit the model's window; tool outputs among them can be read again.`,
      first ? `The person first asked: ${first.text.slice(0, 600)}` : "",
    ]
      .filter(Boolean)
      .join("\n\n");
  }
  const summary = { count, text: bounded(text, allowance) };
  c.summary = summary;
  return summary;
}

/** The view of `a`'s history for `request`, summarising when stubs are not enough; throws when even the newest turn does not fit. */
export async function viewFor(a: Agent, request: Request, signal?: AbortSignal): Promise<View> {
  const c = condensingOf(a);
  const window = await windowOf(a);
  const measure = measureOf(a, request, window);
  // A summary costs a request and loses detail: it is made for a window the model is known to
  // have (or that a refusal taught); against the fallback only the lossless stubs are used.
  const known = a.window > 0;
  let view = shape(a.history, c.summary, measure);
  let made: Summary | undefined;
  if (known && view.tokens > measure.budget) {
    const count = cut(a.history, c.summary, measure);
    if (count !== undefined) {
      made = await summarise(a, count, window, signal);
      view = shape(a.history, made, measure);
    }
  }
  // Past the budget the answer's room shrinks; past the window the server refuses.
  if (known && view.tokens > window * 0.95)
    throw new Error(
      tooLarge(window, roomOf(request.instructions, request.tools, view.messages, c.ratio ?? 1)),
    );
  c.told?.({ summary: made, stubbed: view.stubbed, tokens: view.tokens, window });
  return view;
}

/** True when `error` says the request was longer than the model's window. */
function overflowed(error: unknown): boolean {
  return isOverflow(reason(error));
}

/** The window an overflow message names ("maximum context length is 8192 tokens"), or 0. */
export function windowIn(text: string): number {
  return overflowWindow(text);
}

/**
 * One round's turn of `a`'s model on `request`, its messages condensed to fit the window. The
 * reported prompt tokens calibrate the next estimate; a refusal for length before anything was
 * shown is met once by learning the window it names (or a stricter estimate) and trying again.
 */
export async function condensedTurn(
  a: Agent,
  request: Request,
  each: (piece: Piece) => boolean | void,
): Promise<Turn> {
  const c = condensingOf(a);
  let view = await viewFor(a, request, request.signal);
  for (let attempt = 0; ; attempt++) {
    let shown = false;
    try {
      const turn = await a.model.turn({ ...request, messages: view.messages }, (piece) => {
        shown = true;
        return each(piece);
      });
      const estimated = view.tokens / (c.ratio ?? 1);
      // A cut prompt's count is what the server kept, not how it counts: it says nothing of the tokenizer.
      if (turn.cut) c.cut?.(turn.cut);
      // Small requests say little about the tokenizer; a ratio far off is a server that counts its own way.
      else if (turn.input > 0 && estimated >= 256)
        c.ratio = Math.min(3, Math.max(0.5, turn.input / estimated));
      return turn;
    } catch (error) {
      if (attempt > 0 || shown || request.signal?.aborted || !overflowed(error)) throw error;
      const named = windowIn(reason(error));
      if (named > 0 && (a.window <= 0 || named < a.window)) a.window = named;
      else if (a.window <= 0) a.window = c.fallback ?? FALLBACK_WINDOW;
      else c.ratio = Math.min(3, (c.ratio ?? 1) * 1.5);
      const again = await viewFor(a, request, request.signal);
      // Sending the same request again would only be refused again.
      if (JSON.stringify(again.messages) === JSON.stringify(view.messages)) throw error;
      view = again;
    }
  }
}

/**
 * Summarises the whole history now, as `/compact` asks, and tells `a.condensing.told`; undefined
 * when there is nothing that is not summarised already.
 */
export async function compact(a: Agent, signal?: AbortSignal): Promise<Summary | undefined> {
  const c = condensingOf(a);
  if (a.history.length <= (c.summary?.count ?? 0)) return undefined;
  const window = await windowOf(a);
  const made = await summarise(a, a.history.length, window, signal);
  const view = shape(
    a.history,
    made,
    measureOf(a, { instructions: "", messages: [], tools: [], answer: false }, window),
  );
  c.told?.({ summary: made, stubbed: 0, tokens: view.tokens, window });
  return made;
}
