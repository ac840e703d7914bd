/**
 * The window a local model server really serves, where it says it: a model's trained maximum (what
 * most model lists give) is not what Ollama, llama.cpp or LM Studio load it with, and a prompt
 * between the two is refused or, on Ollama, cut without a word.
 *
 *   Ollama     GET /api/ps (`context_length` of a loaded model), POST /api/show (`num_ctx` among
 *              the model's parameters; `<arch>.context_length` of `model_info`, its trained maximum)
 *   llama.cpp  GET /props (`default_generation_settings.n_ctx`, the context of one slot)
 *   LM Studio  GET /api/v1/models (`loaded_instances[].config.context_length`, `max_context_length`),
 *              or GET /api/v0/models before 0.4 (`loaded_context_length` of a loaded model)
 *   vLLM       `max_model_len` in its /v1/models entry (what --max-model-len set)
 *
 * None of these servers takes the window per request through its OpenAI-compatible API: Ollama's
 * documentation says its /v1 endpoint has no way of setting the context size (its native /api/chat
 * takes `options.num_ctx`, which Tandem does not speak), llama.cpp and vLLM fix it when they start,
 * LM Studio when it loads the model. So Tandem fits its requests to what is served and says how to
 * serve more; it sends no window field.
 */
import { isIP } from "node:net";
import { kindOf } from "../protocol/address-kind";

/** The kinds of server whose served window can be read. */
export type ServerKind = "ollama" | "llamacpp" | "lmstudio" | "vllm";

/** What a server says of the window it serves a model with. */
export interface Served {
  kind: ServerKind;
  /** The tokens a prompt and its answer may take, as served now (0: the server does not say). */
  tokens: number;
  /** False when `tokens` is the server's documented default, not a value it gave for this model. */
  sure: boolean;
  /** The model's trained maximum, when the server gives it (0: not given). */
  trained: number;
  /** Where it was read, e.g. "/api/ps". */
  where: string;
}

/**
 * Ollama's documented default context for a model that neither its Modelfile nor a loaded runner
 * names (4k below 24 GiB of VRAM; larger machines get more, which /api/ps shows once it is loaded).
 */
export const OLLAMA_DEFAULT = 4096;

/** How long one metadata request may take: these servers answer from memory, on this computer or network. */
const ASK_MS = 2000;

/** The most bytes of one answer read (Ollama's /api/show carries the template and licence). */
const MOST_BYTES = 2_000_000;

/** Address kinds of a server on this computer or its network (0.0.0.0 reaches this computer; cloud metadata is not a model server). */
const LOCAL_KINDS = new Set([
  "loopback",
  "unspecified",
  "private",
  "unique-local",
  "link-local",
  "shared (CGNAT)",
]);

/**
 * The root of the server behind `baseURL` (its /v1 taken off) when it is on this computer or its
 * network, else undefined: the native metadata paths exist only on local servers, and a public API
 * is asked nothing beyond what the person configured.
 */
export function localRoot(baseURL: string): string | undefined {
  let url: URL;
  try {
    url = new URL(baseURL);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  let host = url.hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  const local = isIP(host)
    ? LOCAL_KINDS.has(kindOf(host) ?? "")
    : host === "localhost" ||
      host.endsWith(".localhost") ||
      !host.includes(".") ||
      [".local", ".lan", ".home.arpa", ".internal"].some((suffix) => host.endsWith(suffix));
  if (!local) return undefined;
  return `${url.origin}${url.pathname.replace(/\/+$/, "").replace(/\/v1$/, "")}`;
}

/** How a metadata request is sent: the endpoint's key (same origin only), and a signal. */
export interface Asking {
  apiKey?: string;
  signal?: AbortSignal;
}

/** The JSON at `url` (GET, or POST of `body`), or undefined when it does not answer as JSON in time. */
async function ask(url: string, asking: Asking, body?: unknown): Promise<unknown> {
  const headers: Record<string, string> = { accept: "application/json" };
  // The key goes only to the origin the person gave it for; a redirect is not followed.
  if (asking.apiKey && asking.apiKey !== "none") headers.authorization = `Bearer ${asking.apiKey}`;
  if (body !== undefined) headers["content-type"] = "application/json";
  const timeout = AbortSignal.timeout(ASK_MS);
  try {
    const response = await fetch(url, {
      method: body === undefined ? "GET" : "POST",
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      redirect: "error",
      signal: asking.signal ? AbortSignal.any([asking.signal, timeout]) : timeout,
    });
    const length = Number(response.headers.get("content-length") ?? 0);
    if (!response.ok || length > MOST_BYTES) {
      await response.body?.cancel();
      return undefined;
    }
    const text = await response.text();
    return text.length > MOST_BYTES ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}

/** No model serves more (the largest today take 10M): a larger window is a server that is not believed. */
const MOST_TOKENS = 100_000_000;

/** A positive whole number of tokens a server may really serve, else 0. */
function count(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) && value > 0 && value <= MOST_TOKENS
    ? Math.floor(value)
    : 0;
}

function record(value: unknown): Record<string, unknown> {
  return value && typeof value === "object" && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}

/** Whether Ollama's name `name` is the model `model` (Ollama adds ":latest" to a name without a tag). */
function sameOllamaModel(name: unknown, model: string): boolean {
  if (typeof name !== "string") return false;
  const tagged = (id: string): string => (id.includes(":") ? id : `${id}:latest`);
  return tagged(name) === tagged(model);
}

/** Ollama: the loaded runner's context (/api/ps), else the Modelfile's num_ctx, else its default. */
async function ollama(root: string, model: string, asking: Asking): Promise<Served | undefined> {
  const [ps, show] = await Promise.all([
    ask(`${root}/api/ps`, asking),
    ask(`${root}/api/show`, asking, { model }),
  ]);
  const info = record(record(show).model_info);
  const parameters = record(show).parameters;
  // Neither answered as Ollama does: this is another server.
  if (!Object.keys(info).length && typeof parameters !== "string" && !Array.isArray(record(ps).models))
    return undefined;
  const arch = info["general.architecture"];
  const trained = typeof arch === "string" ? count(info[`${arch}.context_length`]) : 0;
  const models = record(ps).models;
  const loaded = Array.isArray(models)
    ? models.map(record).find((m) => sameOllamaModel(m.name, model) || sameOllamaModel(m.model, model))
    : undefined;
  const running = count(loaded?.context_length);
  if (running) return { kind: "ollama", tokens: running, sure: true, trained, where: "/api/ps" };
  // The parameters are one "name value" a line, as `ollama show --parameters` prints them.
  const set = typeof parameters === "string" ? /^\s*num_ctx\s+(\d+)\s*$/m.exec(parameters) : null;
  if (set && count(Number(set[1])))
    return { kind: "ollama", tokens: Number(set[1]), sure: true, trained, where: "/api/show" };
  const tokens = trained ? Math.min(trained, OLLAMA_DEFAULT) : OLLAMA_DEFAULT;
  return { kind: "ollama", tokens, sure: false, trained, where: "/api/show" };
}

/** llama.cpp's server: the context of a slot, which is what one request may fill. */
async function llamacpp(
  root: string,
  asking: Asking,
  entry: Record<string, unknown>,
): Promise<Served | undefined> {
  const props = record(await ask(`${root}/props`, asking));
  const settings = record(props.default_generation_settings);
  // Older servers put n_ctx under params.
  const tokens = count(settings.n_ctx) || count(record(settings.params).n_ctx);
  if (!tokens) return undefined;
  const trained = count(record(entry.meta).n_ctx_train);
  return { kind: "llamacpp", tokens, sure: true, trained, where: "/props" };
}

/**
 * LM Studio: the context a loaded model was loaded with; a model not loaded says only its maximum.
 * Its native v1 API (0.4 and later) lists loaded instances with their config; v0 (0.3.6 and later)
 * puts `loaded_context_length` on a loaded model's entry.
 */
async function lmstudio(root: string, model: string, asking: Asking): Promise<Served | undefined> {
  const [v1, v0] = await Promise.all([
    ask(`${root}/api/v1/models`, asking),
    ask(`${root}/api/v0/models`, asking),
  ]);
  const listed = record(v1).models;
  const modern = Array.isArray(listed)
    ? listed
        .map(record)
        .find(
          (m) =>
            m.key === model ||
            (Array.isArray(m.loaded_instances) && m.loaded_instances.some((i) => record(i).id === model)),
        )
    : undefined;
  if (modern) {
    const trained = count(modern.max_context_length);
    const instances = Array.isArray(modern.loaded_instances) ? modern.loaded_instances.map(record) : [];
    const instance = instances.find((i) => i.id === model) ?? instances[0];
    const loaded = count(record(instance?.config).context_length);
    if (loaded) return { kind: "lmstudio", tokens: loaded, sure: true, trained, where: "/api/v1/models" };
    return { kind: "lmstudio", tokens: 0, sure: false, trained, where: "/api/v1/models" };
  }
  const data = record(v0).data;
  if (!Array.isArray(data)) return undefined;
  const entry = data.map(record).find((m) => m.id === model);
  if (!entry) return undefined;
  const trained = count(entry.max_context_length);
  const loaded = count(entry.loaded_context_length);
  if (loaded) return { kind: "lmstudio", tokens: loaded, sure: true, trained, where: "/api/v0/models" };
  return { kind: "lmstudio", tokens: 0, sure: false, trained, where: "/api/v0/models" };
}

/**
 * What the server behind `baseURL` says of the window it serves `model` with; `entry` is the
 * model's entry in its /v1/models list (vLLM's `max_model_len` is there). Undefined when no server
 * kind answers; never throws.
 */
export async function servedOf(
  baseURL: string,
  model: string,
  entry: Record<string, unknown> | undefined,
  asking: Asking = {},
): Promise<Served | undefined> {
  const listed = entry ?? {};
  if (count(listed.max_model_len) && listed.owned_by === "vllm")
    return { kind: "vllm", tokens: count(listed.max_model_len), sure: true, trained: 0, where: "/v1/models" };
  const root = localRoot(baseURL);
  if (!root) return undefined;
  const found = await Promise.all([
    ollama(root, model, asking),
    llamacpp(root, asking, listed),
    lmstudio(root, model, asking),
  ]);
  return found.find((s) => s?.sure) ?? found.find((s) => s !== undefined);
}
