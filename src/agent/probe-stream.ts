/**
 * One request of the endpoint probe: streamed as Tandem streams a turn, timed, and watched for what
 * the endpoint sends; and what its failure means for the report.
 */
import type OpenAI from "openai";
import { APIConnectionError, APIError } from "openai";
import { Assembly } from "./assembly";
import type { ResponseFormat } from "./constrained";
import type { Report } from "./probe-report";
import { explain } from "./failure";
import type { ReasoningField } from "./facts";
import type { Request, Turn } from "./types";
import { body } from "./wire";
import { t } from "../protocol/l10n";

/** What every request of one probe shares. */
export interface Session {
  api: OpenAI;
  model: string;
  openrouter: boolean;
  signal?: AbortSignal;
  /** The longest wait for one request. */
  timeoutMs: number;
  /** The field that caps the answer's tokens (OpenAI's reasoning models refuse max_tokens). */
  limit: "max_tokens" | "max_completion_tokens";
  /** Requests sent so far. */
  requests: number;
  /** Reasoning fields seen in any answer. */
  fields: Set<ReasoningField>;
  /** An answer began inside reasoning (a lone `</think>`: the template opens `<think>`). */
  opens?: boolean;
  /** Why the probe stopped early (a failure every later request would meet). */
  fatal?: string;
}

/** One streamed answer as the probe saw it. */
export interface Streamed {
  turn: Turn;
  /** Chunks received, and text or reasoning pieces among them. */
  chunks: number;
  pieces: number;
  firstMs?: number;
  totalMs: number;
  usage?: { prompt: number; completion: number };
  /** Whether a `tool_calls` delta came (a native call). */
  native: boolean;
  finish?: string;
  /** The answer had not ended when the request's time was up. */
  late: boolean;
}

/** The person stopped the probe. */
export class Stopped extends Error {
  override name = "Stopped";
}

/** A failure in words, and whether every later request would meet it too. */
export interface Failure {
  note: string;
  fatal: boolean;
}

/**
 * Sends `request` as Tandem would (with `textTools`, the tools described in the instructions; with
 * `format`, that `response_format`) and reads the whole stream.
 */
export async function streamed(
  session: Session,
  request: Request,
  textTools = false,
  format?: ResponseFormat,
): Promise<Streamed> {
  const params = body(request, session.model, {
    textTools,
    baseURL: session.api.baseURL,
    openrouter: session.openrouter,
    learned: { limit: session.limit },
  });
  if (format) params.response_format = format;
  const names = new Set(request.tools.map((t) => t.function.name));
  const seen: Streamed = {
    turn: { text: "", reasoning: "", calls: [], details: [], tokens: 0, input: 0, window: 0 },
    chunks: 0,
    pieces: 0,
    totalMs: 0,
    native: false,
    late: false,
  };
  const assembly = new Assembly((piece) => {
    if (piece.kind === "text" || piece.kind === "reasoning") seen.pieces++;
  }, names);
  let content = "";
  const halt = new AbortController();
  const stop = (): void => halt.abort();
  session.signal?.addEventListener("abort", stop, { once: true });
  if (session.signal?.aborted) halt.abort();
  const timer = setTimeout(() => {
    seen.late = true;
    halt.abort();
  }, session.timeoutMs);
  session.requests++;
  const started = performance.now();
  try {
    const stream = await session.api.chat.completions.create(params, { signal: halt.signal, maxRetries: 0 });
    for await (const chunk of stream) {
      seen.chunks++;
      seen.firstMs ??= performance.now() - started;
      if (chunk.usage) {
        seen.usage = {
          prompt: chunk.usage.prompt_tokens ?? 0,
          completion: chunk.usage.completion_tokens ?? 0,
        };
      }
      const choice = chunk.choices?.[0];
      if (choice?.finish_reason) seen.finish = choice.finish_reason;
      const delta = (choice?.delta ?? {}) as Record<string, unknown>;
      if (Array.isArray(delta.tool_calls) && delta.tool_calls.length) seen.native = true;
      if (typeof delta.content === "string") content += delta.content;
      for (const field of ["reasoning_content", "reasoning"] as const)
        if (typeof delta[field] === "string" && delta[field]) session.fields.add(field);
      if (Array.isArray(delta.reasoning_details) && delta.reasoning_details.length)
        session.fields.add("reasoning_details");
      assembly.add(chunk);
    }
  } catch (error) {
    if (session.signal?.aborted) throw new Stopped("stopped");
    if (!seen.late) throw error;
  } finally {
    clearTimeout(timer);
    session.signal?.removeEventListener("abort", stop);
  }
  // The SDK ends an aborted stream silently: a stop is only seen here.
  if (session.signal?.aborted) throw new Stopped("stopped");
  if (/<\/?think(ing)?>/.test(content)) session.fields.add("think");
  if (assembly.opens) session.opens = true;
  seen.totalMs = performance.now() - started;
  seen.turn = assembly.turn(0);
  return seen;
}

/** What a failure means for the person, and whether every later request would meet it too. */
export function failed(error: unknown, session: Session): Failure {
  const baseURL = session.api.baseURL;
  const model = session.model;
  if (error instanceof Stopped || session.signal?.aborted)
    return { note: t("The check was stopped."), fatal: true };
  if (error instanceof APIConnectionError) {
    if (/timed? ?out/i.test(error.message))
      return { note: t("No answer within {0}.", ms(session.timeoutMs)), fatal: false };
    return { note: t("Nothing answers at {0} ({1}).", baseURL, root(error)), fatal: true };
  }
  if (error instanceof APIError && (error.status === 401 || error.status === 403))
    return { note: t("The key was refused ({0}).", error.message), fatal: true };
  if (
    error instanceof APIError &&
    error.status !== undefined &&
    (error.status === 404 ||
      (/model/i.test(error.message) &&
        /not (found|exist|a valid|served)|does not exist|unknown model|invalid model/i.test(error.message)))
  ) {
    return {
      note: t("The model {0} is not served at {1} ({2}).", model, baseURL, error.message),
      fatal: true,
    };
  }
  return { note: explain(error, { model, baseURL, window: 0, shown: false }), fatal: false };
}

/** A 4xx (not a rate limit) to a request that differs from an answer that streamed: what differs is refused. */
export function refusal(error: unknown, report: Report): boolean {
  if (!(error instanceof APIError) || error.status === undefined || !report.streaming.ok) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/** Records a failure of `step`; when every later request would meet it too, returns it as the reason to stop. */
export function stop(
  error: unknown,
  session: Session,
  report: Report,
  step: "streaming" | "tools" | "images",
): string | undefined {
  const failure = failed(error, session);
  // A step that could not run says nothing about the capability: the verdict gives the reason.
  Object.assign(report[step], { ok: failure.fatal ? undefined : false, note: failure.note });
  if (!failure.fatal) return undefined;
  session.fatal = failure.note;
  return failure.note;
}

/** The innermost cause of a connection failure, e.g. "ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:9". */
function root(error: Error): string {
  let inner: Error = error;
  while (inner.cause instanceof Error) inner = inner.cause;
  const code = (inner as { code?: unknown }).code;
  return typeof code === "string" && !inner.message.includes(code)
    ? `${code}: ${inner.message}`
    : inner.message;
}

/** A duration as a person reads it. */
export function ms(value: number): string {
  return value >= 10_000 ? t("{0} s", Math.round(value / 1000)) : t("{0} ms", Math.round(value));
}
