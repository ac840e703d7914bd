/**
 * "Check Endpoint": what an OpenAI-compatible endpoint supports, found with a few small requests
 * (its model list, a short streamed answer, one tool call, one image) sent the way Tandem sends them.
 */
import OpenAI, { APIError } from "openai";
import { OPENROUTER, type EndpointOptions } from "./endpoint";
import { refusesTools } from "./failure";
import { failed, ms, streamed, type Session, type Streamed } from "./probe-stream";
import { joined, scrubbed, some, thousands, verdict, where, type Report } from "./probe-report";
import type { ReasoningField } from "./facts";
import type { FunctionTool, Request } from "./types";
import { windowIn } from "./window";

export {
  markdown,
  learned,
  type Finding,
  type Learned,
  type ReasoningField,
  type Report,
  type ToolMode,
} from "./probe-report";
import { t } from "../protocol/l10n";
import { reason } from "./perform";

/** The endpoint and model to probe; unset fields come from AI_URL, AI_API_KEY and AI_MODEL, as for `endpoint`. */
export type ProbeTarget = Pick<EndpointOptions, "baseURL" | "apiKey" | "model" | "headers">;

/** How the probe runs: `signal` stops it, `timeoutMs` bounds each request (default 30 000). */
export interface ProbeOptions {
  signal?: AbortSignal;
  timeoutMs?: number;
}

/** The trivial tool the model is asked to call. */
const ECHO: FunctionTool = {
  type: "function",
  function: {
    name: "echo",
    description: "Repeats a word back.",
    parameters: {
      type: "object",
      properties: { word: { type: "string", description: "The word to repeat." } },
      required: ["word"],
    },
  },
};

/** A 1×1 red PNG. */
const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

const IMAGE_WORDS = /image|vision|multi-?modal|mmproj|image_url/i;

/** The note of a check not made (translated when said, not at load). */
const NOT_CHECKED = (): string => t("Not checked.");

/** Probes `target` with at most about five small requests; endpoint failures become notes, never throws. */
export async function probe(target: ProbeTarget, options: ProbeOptions = {}): Promise<Report> {
  const env = process.env;
  const baseURL = target.baseURL || env.AI_URL || OPENROUTER;
  const model = target.model || env.AI_MODEL || "";
  const apiKey = target.apiKey || env.AI_API_KEY || "";
  const openrouter = baseURL.startsWith(OPENROUTER);
  const started = performance.now();
  const session: Session = {
    api: new OpenAI({
      baseURL,
      // Local servers take no key, but the SDK wants one.
      apiKey: apiKey || "none",
      defaultHeaders: { ...(openrouter ? { "X-Title": "Tandem" } : {}), ...target.headers },
      maxRetries: 0,
      logLevel: "off",
    }),
    model,
    openrouter,
    signal: options.signal,
    timeoutMs: options.timeoutMs ?? 30_000,
    limit: "max_tokens",
    requests: 0,
    fields: new Set(),
  };
  const report: Report = {
    baseURL,
    model,
    reachable: { ok: undefined, note: NOT_CHECKED(), models: [] },
    window: { ok: undefined, note: NOT_CHECKED(), tokens: 0 },
    streaming: { ok: undefined, note: NOT_CHECKED(), pieces: 0 },
    usage: { ok: undefined, note: NOT_CHECKED() },
    tools: { ok: undefined, note: NOT_CHECKED() },
    reasoning: { ok: undefined, note: NOT_CHECKED(), fields: [] },
    images: { ok: undefined, note: NOT_CHECKED() },
    verdict: { ok: undefined, note: "" },
    requests: 0,
    ms: 0,
  };
  const fatal = await list(session, report);
  if (!fatal && model) {
    // Each step runs unless an earlier one met a failure every request would meet (a refused key…).
    const halted = (await answer(session, report)) ?? (await tools(session, report));
    if (!halted) await images(session, report);
    const answered = report.streaming.ok !== undefined || report.tools.mode !== undefined;
    report.reasoning = seen([...session.fields], answered);
    if (session.opens) report.reasoning.opens = true;
    if (session.limit === "max_completion_tokens") report.limit = session.limit;
  }
  report.verdict = verdict(report, session.fatal ?? fatal);
  report.requests = session.requests;
  report.ms = Math.round(performance.now() - started);
  return scrubbed(report, apiKey);
}

/** GET /models: whether the endpoint answers, lists the model, and gives its window. Returns a reason to stop. */
async function list(session: Session, report: Report): Promise<string | undefined> {
  const { api, model } = session;
  session.requests++;
  let entries: Record<string, unknown>[];
  try {
    const page = await api.models.list({ maxRetries: 0, timeout: session.timeoutMs, signal: session.signal });
    // Necessary cast: the fields servers add to a model (context_length…) are not in the SDK's
    // Model interface; each is read as unknown and checked.
    entries = page.data as unknown as Record<string, unknown>[];
  } catch (error) {
    const failure = failed(error, session);
    report.window = { ok: undefined, note: t("Not known: the model list was not read."), tokens: 0 };
    const status = error instanceof APIError ? error.status : undefined;
    // Nothing answers (or the person stopped): every later request would fail the same way.
    if (failure.fatal && status === undefined) {
      report.reachable = { ok: false, note: failure.note, models: [] };
      return failure.note;
    }
    report.reachable =
      status !== undefined && status !== 401 && status !== 403
        ? {
            ok: true,
            note: t("It answers, but does not list its models ({0}).", reason(error)),
            models: [],
          }
        : { ok: false, note: failure.note, models: [] };
    return undefined;
  }
  const ids = entries.map((e) => String(e.id));
  const entry = entries.find((e) => e.id === model);
  const count = ids.length === 1 ? t("1 model") : t("{0} models", ids.length);
  if (!model) {
    report.reachable = { ok: true, note: t("It answers and lists {0}{1}.", count, some(ids)), models: ids };
    return undefined;
  }
  if (!entry) {
    report.reachable = {
      ok: false,
      note: t("It answers, but {0} is not among the {1} it lists{2}.", model, count, some(ids)),
      models: ids,
    };
    report.window = { ok: undefined, note: t("Not known: the model is not in the list."), tokens: 0 };
    return undefined;
  }
  const note =
    ids.length > 1
      ? t("It answers and lists {0} among its {1}.", model, count)
      : t("It answers and lists {0}.", model);
  report.reachable = { ok: true, note, models: ids };
  // The window from the entry just read (windowOf would ask GET /models again, and caches).
  const tokens = windowIn(entry);
  report.window = tokens
    ? { ok: true, note: t("{0} tokens, as the model list says.", thousands(tokens)), tokens }
    : {
        ok: false,
        note: t(
          "The model list does not give the context window: Tandem cannot tell when a conversation is full.",
        ),
        tokens: 0,
      };
  return undefined;
}

/** A short streamed answer: streaming, its timing, and usage. Returns a reason to stop. */
async function answer(session: Session, report: Report): Promise<string | undefined> {
  const request: Request = {
    instructions: "",
    messages: [{ role: "user", text: "Reply with the single word: ready" }],
    tools: [],
    answer: false,
    parameters: { maxTokens: 64 },
  };
  let seen: Streamed;
  try {
    seen = await streamed(session, request);
  } catch (error) {
    // OpenAI's reasoning models take max_completion_tokens only.
    if (!(error instanceof APIError && error.status === 400 && /max_tokens/.test(error.message)))
      return stop(error, session, report, "streaming");
    session.limit = "max_completion_tokens";
    try {
      seen = await streamed(session, request);
    } catch (again) {
      return stop(again, session, report, "streaming");
    }
  }
  const timing = seen.firstMs === undefined ? "" : t("First chunk after {0}", ms(seen.firstMs));
  if (seen.late) {
    report.streaming = seen.chunks
      ? {
          ok: true,
          note: t("{0}, but the answer had not ended after {1}.", timing, ms(session.timeoutMs)),
          firstMs: seen.firstMs,
          pieces: seen.pieces,
        }
      : { ok: false, note: t("No answer within {0}.", ms(session.timeoutMs)), pieces: 0 };
    report.usage = { ok: undefined, note: t("Not known: the answer did not end in time.") };
    return undefined;
  }
  const parts = seen.pieces
    ? seen.pieces === 1
      ? t("one piece")
      : t("{0} pieces", seen.pieces)
    : t("no text");
  const said = seen.turn.text.trim();
  const whole = seen.pieces === 1 ? t(" It sent the answer whole, so it may not really stream.") : "";
  report.streaming = {
    ok: seen.chunks > 0,
    note: seen.chunks
      ? said
        ? t(
            '{0}, the whole answer in {1} ({2}: "{3}").{4}',
            timing,
            ms(seen.totalMs),
            parts,
            clip(said),
            whole,
          )
        : t("{0}, the whole answer in {1} ({2}).{3}", timing, ms(seen.totalMs), parts, whole)
      : t("The stream ended without a chunk."),
    firstMs: seen.firstMs,
    totalMs: seen.totalMs,
    pieces: seen.pieces,
  };
  report.usage = seen.usage
    ? {
        ok: true,
        note: t(
          "A usage chunk came at the end ({0} tokens read, {1} written).",
          seen.usage.prompt,
          seen.usage.completion,
        ),
      }
    : {
        ok: false,
        note: t(
          "No usage chunk came: Tandem cannot count this model's tokens or show how full the context is.",
        ),
      };
  return undefined;
}

/** One trivial tool and an instruction to call it; if refused or ignored, the tool described in the instructions. */
async function tools(session: Session, report: Report): Promise<string | undefined> {
  const request: Request = {
    instructions: 'You are being tested. Call the tool echo with the word "ping". Write nothing else.',
    messages: [{ role: "user", text: "Call echo with the word ping." }],
    tools: [ECHO],
    answer: false,
    // Room for a reasoning model to think before it calls.
    parameters: { maxTokens: 512 },
  };
  let seen: Streamed;
  try {
    seen = await streamed(session, request);
  } catch (error) {
    if (!session.signal?.aborted && (refusesTools(error) || refusal(error, report))) {
      const refused = t("It refuses the tools field ({0})", reason(error));
      return described(session, request, report, "refused", refused);
    }
    const failure = failed(error, session);
    if (failure.fatal) return stop(error, session, report, "tools");
    report.tools = { ok: undefined, note: failure.note };
    return undefined;
  }
  const call = seen.turn.calls[0];
  if (call) {
    const written = `${call.name}(${call.arguments || "{}"})`;
    report.tools = seen.native
      ? { ok: true, mode: "native", note: t("It calls tools natively: {0}.", written) }
      : {
          ok: true,
          mode: "text",
          note: t(
            "It writes the call as text instead of a native call ({0}): Tandem will describe tools in its instructions and read calls from the text.",
            written,
          ),
        };
    return undefined;
  }
  if (seen.late) {
    report.tools = { ok: undefined, note: t("No call within {0}.", ms(session.timeoutMs)) };
    return undefined;
  }
  const text = seen.turn.text.trim();
  const cut = seen.finish === "length" ? t(" before its tokens ran out") : "";
  const ignored = text
    ? t('It was offered the tool but did not call it{0} (it wrote "{1}")', cut, clip(text))
    : t("It was offered the tool but did not call it{0}", cut);
  return described(session, request, report, "ignored", ignored);
}

/** The tool described in the instructions, after it was refused or ignored natively. */
async function described(
  session: Session,
  request: Request,
  report: Report,
  mode: "refused" | "ignored",
  before: string,
): Promise<string | undefined> {
  try {
    const seen = await streamed(session, request, true);
    const call = seen.turn.calls[0];
    report.tools = call
      ? {
          ok: true,
          mode,
          described: true,
          note: t(
            "{0}; described in the instructions, it calls by writing {1}: Tandem will call tools that way.",
            before,
            `${call.name}(${call.arguments || "{}"})`,
          ),
        }
      : {
          ok: false,
          mode,
          described: false,
          note: t(
            "{0}, and did not call the tool when it was described in the instructions either: tools will not work with this model.",
            before,
          ),
        };
    return undefined;
  } catch (error) {
    const failure = failed(error, session);
    report.tools = { ok: mode === "refused" ? false : undefined, mode, note: `${before}. ${failure.note}` };
    return failure.fatal ? failure.note : undefined;
  }
}

/** A 1×1 PNG data URL: accepted, or refused with a 4xx that names images (or only on this request). */
async function images(session: Session, report: Report): Promise<void> {
  const request: Request = {
    instructions: "",
    messages: [{ role: "user", text: "What colour is this image? Answer with one word.", images: [PIXEL] }],
    tools: [],
    answer: false,
    parameters: { maxTokens: 16 },
  };
  try {
    const seen = await streamed(session, request);
    const said = seen.turn.text.trim();
    report.images =
      seen.late && !seen.chunks
        ? { ok: undefined, note: t("No answer within {0}.", ms(session.timeoutMs)) }
        : {
            ok: true,
            note: said
              ? t('It accepts an image (asked the colour of a red pixel, it said "{0}").', clip(said))
              : t("It accepts an image (asked the colour of a red pixel)."),
          };
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    // A server without image support may say so with a 5xx (llama.cpp without its projector) or mid-stream.
    const named = error instanceof APIError && error.status !== 429 && IMAGE_WORDS.test(message);
    if (!session.signal?.aborted && (named || refusal(error, report))) {
      report.images = { ok: false, note: t("It refuses images ({0}).", message) };
      return;
    }
    const failure = failed(error, session);
    if (failure.fatal) stop(error, session, report, "images");
    else report.images = { ok: undefined, note: failure.note };
  }
}

/** A 4xx (not a rate limit) to a request that differs from an answer that streamed: what differs is refused. */
function refusal(error: unknown, report: Report): boolean {
  if (!(error instanceof APIError) || error.status === undefined || !report.streaming.ok) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;
}

/** The reasoning fields seen in every streamed answer. */
function seen(fields: ReasoningField[], answered: boolean): Report["reasoning"] {
  if (!answered) return { ok: undefined, note: NOT_CHECKED(), fields };
  if (!fields.length) {
    return {
      ok: false,
      note: t("No reasoning was seen (the model may not reason, or only when asked to)."),
      fields,
    };
  }
  const places = fields.map((f) => (f === "think" ? t("{0} in its text", where(f)) : t("the {0} field", f)));
  return { ok: true, note: t("It reasons in {0}: Tandem shows it as reasoning.", joined(places)), fields };
}

/** Records a failure of `step`; when every later request would meet it too, returns it as the reason to stop. */
function stop(
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

function clip(text: string, max = 60): string {
  const line = text.replace(/\s+/g, " ");
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
