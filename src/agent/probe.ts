/**
 * "Check Endpoint": what an OpenAI-compatible endpoint supports, found with a few small requests
 * (its model list, a short streamed answer, one tool call, one image) sent the way Tandem sends them.
 */
import OpenAI, { APIError } from "openai";
import { OPENROUTER, type EndpointOptions } from "./endpoint";
import { failed, type Session } from "./probe-stream";
import { answer } from "./probe-answer";
import { images } from "./probe-images";
import { format } from "./probe-format";
import { tools } from "./probe-tools";
import { joined, scrubbed, some, verdict, where, type Report } from "./probe-report";
import type { Learned, ReasoningField } from "./facts";
import { cutFinding, windowFinding } from "./probe-window";
import { servedOf } from "./served";
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
  /** What earlier runs learned of the model (a prompt the server cut), reported with the rest. */
  known?: Learned;
}

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
  const fatal = await list(session, report, apiKey);
  const cut = cutFinding(options.known, report.window);
  if (cut) report.cut = cut;
  if (!fatal && model) {
    // Each step runs unless an earlier one met a failure every request would meet (a refused key…).
    const halted = (await answer(session, report)) ?? (await tools(session, report));
    if (!halted) await images(session, report);
    // Asked only where it matters: a model without native calls is held to the tools' schemas.
    if (!halted && !session.fatal && report.streaming.ok && report.tools.mode !== "native")
      await format(session, report);
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
async function list(session: Session, report: Report, apiKey: string): Promise<string | undefined> {
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
  // The window from the entry just read (windowOf would ask GET /models again, and caches), and
  // the one a local server says it serves, which wins: a prompt between the two is refused or cut.
  const server = await servedOf(report.baseURL, model, entry, { apiKey, signal: session.signal });
  report.window = windowFinding(windowIn(entry), server);
  return undefined;
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
