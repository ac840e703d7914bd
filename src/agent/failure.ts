/** What went wrong with a model API, in words a person understands, and whether to try again. */
import { APIConnectionError, APIError } from "openai";
import type { Learned } from "./facts";
import { t } from "../protocol/l10n";
import { reason } from "../protocol/reason";

/** How failed requests are tried again: at most `attempts` more times, waiting `baseMs` · 2^n (or Retry-After). */
export interface Retry {
  attempts: number;
  baseMs: number;
  /** The longest Retry-After honoured; a longer one ends the turn with the wait in the message. */
  maxWaitMs: number;
}

export const RETRY: Retry = { attempts: 3, baseMs: 500, maxWaitMs: 60_000 };

/** The turn's stream sent nothing for too long. */
export class Stall extends Error {
  override name = "Stall";
}

/** Where a failure happened, for its message. */
export interface Place {
  model: string;
  baseURL: string;
  window: number;
  /** Whether a piece of the answer had been shown. */
  shown: boolean;
}

/** How long to wait before trying `error` again (attempt n from 0), or undefined when it is not worth it. */
export function retryAfter(error: unknown, attempt: number, retry: Retry): number | undefined {
  if (attempt >= retry.attempts) return undefined;
  const backoff = retry.baseMs * 2 ** attempt;
  // A stall is not retried: a server that accepted the request and went silent would only be waited on again.
  if (error instanceof Stall) return undefined;
  if (isDropped(error)) return backoff;
  if (!(error instanceof APIError) || error.status === undefined) return undefined;
  if (error.status !== 429 && error.status < 500) return undefined;
  const asked = askedWait(error.headers);
  if (asked === undefined) return backoff;
  return asked <= retry.maxWaitMs ? asked : undefined;
}

/** The wait a response asks for in Retry-After (seconds or a date) or retry-after-ms. */
export function askedWait(headers: Headers | undefined): number | undefined {
  const ms = Number(headers?.get("retry-after-ms"));
  if (headers?.get("retry-after-ms") && Number.isFinite(ms)) return Math.max(0, ms);
  const value = headers?.get("retry-after");
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds)) return Math.max(0, seconds * 1000);
  const date = Date.parse(value);
  return Number.isNaN(date) ? undefined : Math.max(0, date - Date.now());
}

/** Whether the endpoint refused the `tools` field itself (a server or model without tool calling). */
export function refusesTools(error: unknown): boolean {
  if (!(error instanceof APIError) || error.status === undefined || error.status < 400) return false;
  const text = said(error);
  return (
    /\btools?\b|tool[_ ]choice|function calling/i.test(text) &&
    /support|requires?|enable|jinja|not allowed|unrecognized|unknown|extra|invalid|unexpected/i.test(text)
  );
}

/**
 * What a refusal teaches of the model, when it names a field: reasoning that must come back on
 * tool-call turns ("reasoning_content is missing in assistant tool call message"), max_tokens to be
 * sent as max_completion_tokens, or a field the model does not take (OpenAI's "Unsupported
 * parameter: 'stop'", "Unsupported value: 'temperature'…", "Unrecognized request argument supplied: top_k").
 */
export function refusedFields(error: unknown): Learned | undefined {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return undefined;
  const text = said(error);
  const missing =
    /\b(reasoning_content|reasoning)\b[^.]*\b(missing|required)\b|\b(missing|requires?)\b[^.]*\b(reasoning_content|reasoning)\b/i.exec(
      text,
    );
  if (missing) {
    const field = (missing[1] ?? missing[4]).toLowerCase();
    return { reasoning: field === "reasoning" ? "reasoning" : "reasoning_content" };
  }
  const named =
    /unsupported (?:parameter|value):\s*'([a-z_]+)'/i.exec(text)?.[1] ??
    /unrecognized request arguments? supplied:\s*([a-z_]+)/i.exec(text)?.[1] ??
    (typeof error.param === "string" && /unsupported|not supported/i.test(text) ? error.param : undefined);
  if (!named) return undefined;
  if (named === "max_tokens") return { limit: "max_completion_tokens" };
  // The fields Tandem may leave out; a refusal of anything else is the person's to read.
  return SAMPLING.has(named) ? { refused: [named] } : undefined;
}

const SAMPLING = new Set([
  "temperature",
  "top_p",
  "top_k",
  "stop",
  "frequency_penalty",
  "presence_penalty",
  "reasoning_effort",
]);

/** A sentence that says what went wrong with a turn of `place.model`. */
export function explain(error: unknown, place: Place): string {
  const { model, baseURL } = place;
  if (error instanceof Stall) return t("The model {0} at {1} {2}.", model, baseURL, error.message);
  if (error instanceof SyntaxError)
    return t("The endpoint {0} sent a chunk that is not JSON ({1}).", baseURL, error.message);
  if (isDropped(error)) {
    return place.shown
      ? t("The connection to {0} dropped in the middle of the answer ({1}).", baseURL, cause(error))
      : t("Cannot reach the endpoint {0} ({1}).", baseURL, cause(error));
  }
  if (!(error instanceof APIError)) return reason(error);
  const text = said(error);
  const status = error.status;
  if (status === undefined) return t("The model {0} failed in the middle of its answer: {1}", model, text);
  if (isContext(text)) {
    return place.window > 0
      ? t(
          "The conversation is too long for the context window of {0} tokens of the model {1}: {2}",
          place.window,
          model,
          text,
        )
      : t("The conversation is too long for the context window of the model {0}: {1}", model, text);
  }
  if (status === 401 || status === 403) {
    return t(
      "The endpoint {0} refused the API key ({1}): {2}. Check the key set for it.",
      baseURL,
      status,
      text,
    );
  }
  if (
    status === 404 ||
    (/model/i.test(text) &&
      /not (found|exist|a valid)|does not exist|unknown model|invalid model/i.test(text))
  ) {
    return t("The model {0} is not served at {1} ({2}: {3}).", model, baseURL, status, text);
  }
  if (status === 429)
    return t("The endpoint {0} is limiting requests (429) and still was after retrying: {1}", baseURL, text);
  if (status >= 500) return t("The endpoint {0} failed ({1}): {2}", baseURL, status, text);
  return t("The endpoint {0} refused the request ({1}): {2}", baseURL, status, text);
}

function isContext(text: string): boolean {
  return /context[_ ]length|context window|maximum context|too many tokens|exceeds? (the )?(max|context)|prompt is too long|input is too long/i.test(
    text,
  );
}

/** Whether the connection failed or dropped (not a refusal by the server). */
function isDropped(error: unknown): boolean {
  if (error instanceof APIConnectionError) return true;
  if (error instanceof APIError) return false;
  if (!(error instanceof Error)) return false;
  const code = (error as { code?: string }).code ?? (error.cause as { code?: string } | undefined)?.code;
  return (
    error.message === "terminated" ||
    /ECONNRESET|ECONNREFUSED|EPIPE|UND_ERR|ETIMEDOUT/.test(String(code)) ||
    /socket|network|fetch failed/i.test(error.message)
  );
}

function cause(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const inner = error.cause instanceof Error ? error.cause : undefined;
  const code = (inner as { code?: string } | undefined)?.code;
  return code ? `${code}: ${inner?.message}` : inner?.message || error.message;
}

/** What the server said, without the SDK's status prefix. */
function said(error: APIError): string {
  const body = error.error as { message?: unknown } | undefined;
  if (body && typeof body.message === "string" && body.message) return body.message;
  return error.message.replace(/^\d{3}\s+/, "") || "no message";
}
