/** OpenAI-compatible endpoints over the `openai` SDK: streamed turns, retries, and text-only tool calling. */
import OpenAI from "openai";
import { Assembly } from "./assembly";
import { failing, Held, refusesFormat } from "./constrained-turn";
import { factsKey, learn, memoryFacts, type Facts, type Learned } from "./facts";
import { explain, refusedFields, refusesTools, retryAfter, RETRY, Stall, type Retry } from "./failure";
import { scrub } from "./scrub";
import type { Model, Request, Turn } from "./types";
import { pricesOf } from "./prices";
import { fittedWindow } from "./window";
import { heldBy, type Counting } from "./cut";
import { body } from "./wire";
import { t } from "../protocol/l10n";
import { reason } from "../protocol/reason";

export { windowOf } from "./window";

/** The OpenRouter API, used when AI_URL is unset. */
export const OPENROUTER = "https://openrouter.ai/api/v1";

/** How a served model streams: retries and how long it may stay silent. */
export interface Streaming {
  retry?: Partial<Retry>;
  /** Longest silence before the first chunk, in ms (default 300 000: a local model may read for long). */
  firstMs?: number;
  /** Longest silence between chunks, in ms (default 60 000). */
  idleMs?: number;
  /** Describe tools in the instructions and read calls from the text from the first turn (a probe found no native calls). */
  textTools?: boolean;
  /**
   * Where what is learned of the model is kept, to be shared by every model object made for it
   * (default: this model object's own memory; the editor gives its global state).
   */
  facts?: Facts;
  /** The model's key in `facts` (default: its base URL and id). */
  key?: string;
}

/** Where an endpoint is and which of its models to use; unset fields come from AI_URL, AI_API_KEY, AI_MODEL. */
export interface EndpointOptions extends Streaming {
  baseURL?: string;
  apiKey?: string;
  model?: string;
  headers?: Record<string, string>;
  /** The model's context window in tokens; unset or -1: read from GET /models at the first turn. */
  window?: number;
}

/** The model `model` (default AI_MODEL) of the OpenAI-compatible API at AI_URL (OpenRouter when unset). */
export function endpoint(options: EndpointOptions = {}): Model {
  const env = process.env;
  const baseURL = options.baseURL || env.AI_URL || OPENROUTER;
  const model = options.model || env.AI_MODEL || "";
  if (!model) throw new Error(`No model is set for ${baseURL}: give one or set AI_MODEL.`);
  const openrouter = baseURL.startsWith(OPENROUTER);
  const api = new OpenAI({
    baseURL,
    // Local servers take no key, but the SDK wants one.
    apiKey: options.apiKey || env.AI_API_KEY || "none",
    defaultHeaders: { ...(openrouter ? { "X-Title": "Tandem" } : {}), ...options.headers },
    maxRetries: 0,
    logLevel: "off",
  });
  return served(model, model, options.window ?? -1, () => api, options);
}

/**
 * Model `id` of the API that `api` gives at each turn (a key may expire), shown as `name`;
 * `window` is its context window in tokens (-1: read from the API at the first turn, 0: unknown).
 * A turn whose API cannot be had fails with why, and the next turn asks again.
 */
export function served(
  name: string,
  id: string,
  window: number,
  api: () => OpenAI | Promise<OpenAI>,
  streaming: Streaming = {},
): Model {
  const retry: Retry = { ...RETRY, ...streaming.retry };
  const firstMs = streaming.firstMs ?? 300_000;
  const idleMs = streaming.idleMs ?? 60_000;
  const facts = streaming.facts ?? memoryFacts();
  const counting: Counting = { ratio: 1 };
  /** Native turns in a row whose calls did not fit their tools. */
  let misfits = 0;
  /** The window: what was learned of the model, else its listing (read once). */
  const windowFor = async (client: OpenAI): Promise<number> => {
    if (window < 0) {
      const key = streaming.key ?? factsKey(client.baseURL, id);
      window = await listedWindow(client, key);
      if (window > 0) learn(facts, key, { window });
    }
    return window;
  };
  const model: Model = {
    name,
    async window(): Promise<number> {
      return window >= 0 ? window : windowFor(await api());
    },
    async turn(request: Request, each): Promise<Turn> {
      let client: OpenAI;
      try {
        client = await api();
      } catch (error) {
        throw new Error(`Cannot reach the model ${name}: ${reason(error)}`);
      }
      const key = streaming.key ?? factsKey(client.baseURL, id);
      // What earlier turns and runs learned: read at each turn, as another model object may have learned more.
      const known = (): Learned => facts.get(key) ?? {};
      await windowFor(client);
      const names = new Set(request.tools.map((t) => t.function.name));
      const openrouter = client.baseURL.startsWith(OPENROUTER);
      for (let attempt = 0; ; attempt++) {
        const learned = known();
        const textTools = learned.textTools ?? streaming.textTools ?? false;
        // Held to the tools' schemas where the endpoint honours one and native calls are not used
        // (a model whose native calls kept failing tries it until the endpoint shows it does not).
        const schema = learned.jsonSchema;
        const hold = (schema === true && textTools) || (learned.constrain === true && schema !== false);
        const held = hold && names.size && !request.answer ? new Held(each) : undefined;
        // Stop sequences apply to the answer's text, not to the JSON a held turn streams.
        const assembly = held
          ? new Assembly(held.pass, new Set())
          : new Assembly(each, names, learned.opens === true, request.parameters?.stop);
        const halt = new AbortController();
        const stop = (): void => halt.abort();
        request.signal?.addEventListener("abort", stop, { once: true });
        if (request.signal?.aborted) halt.abort();
        let stalled: Stall | undefined;
        let timer: NodeJS.Timeout | undefined;
        const silence = (ms: number): void => {
          clearTimeout(timer);
          timer = setTimeout(() => {
            stalled = new Stall(t("sent nothing for {0} s", Math.round(ms / 1000)));
            halt.abort();
          }, ms);
        };
        silence(firstMs);
        const dialect = { textTools, baseURL: client.baseURL, openrouter, learned, constrained: !!held };
        const sent = body(request, id, dialect);
        try {
          const stream = await client.chat.completions.create(sent, {
            signal: halt.signal,
            maxRetries: 0,
          });
          for await (const chunk of stream) {
            silence(idleMs);
            if (!assembly.add(chunk)) {
              halt.abort();
              break;
            }
          }
          // The SDK ends an aborted stream silently: a stall is only seen here.
          if (stalled && !request.signal?.aborted) throw stalled;
          const turn = seen(assembly, held);
          // A server that read far fewer tokens than were sent cut the prompt (cut.ts).
          const cut = heldBy(counting, sent, turn, { facts, key, baseURL: client.baseURL, model: id });
          if (cut) window = cut.held;
          return cut ? { ...turn, window, cut } : turn;
        } catch (thrown) {
          if (request.signal?.aborted || assembly.halted) return seen(assembly, held);
          const error = stalled ?? thrown;
          if (held && !assembly.shown && refusesFormat(error)) {
            // The check found the format honoured, but this request was refused for it: text calls from now.
            learn(facts, key, { jsonSchema: false });
            attempt--;
            continue;
          }
          if (!assembly.shown) {
            // A refusal that names what it wants is learned once and the request sent again.
            const wanted = refusedFields(error);
            if (
              wanted ? learn(facts, key, wanted) : !textTools && request.tools.length && refusesTools(error)
            ) {
              if (!wanted) learn(facts, key, { textTools: true });
              attempt--;
              continue;
            }
          }
          const wait = assembly.shown ? undefined : retryAfter(error, attempt, retry);
          if (wait === undefined) {
            // A server may echo the key (LiteLLM does): it is cut out before the error is stored or shown.
            const said = explain(error, {
              model: id,
              baseURL: client.baseURL,
              window,
              shown: assembly.shown,
            });
            throw new Error(scrub(said, client.apiKey));
          }
          if (!(await pause(wait, request.signal))) return seen(assembly, held);
        } finally {
          clearTimeout(timer);
          request.signal?.removeEventListener("abort", stop);
        }
      }

      /** The turn `assembly` holds (read back from its JSON when `held`), after keeping what it showed of the model. */
      function seen(assembly: Assembly, held?: Held): Turn {
        // A turn cut short says nothing of whether the template opens <think>.
        const whole = !assembly.halted && !request.signal?.aborted;
        if (held) {
          // JSON cut off at the answer's token limit is read as far as it goes: no call comes of it.
          const turn = held.read(assembly.turn(window), names, !whole || assembly.finish === "length");
          // What the endpoint did with the format is learned (a run may try it before any check).
          learn(facts, key, { jsonSchema: !held.ignored });
          return turn;
        }
        const turn = assembly.turn(window);
        const field = known().reasoning ? undefined : assembly.field;
        learn(facts, key, { reasoning: field, opens: whole ? assembly.opens : undefined });
        // Native calls that keep missing their tools' schemas: the output is held to them instead.
        if (whole && turn.calls.length && !known().textTools) {
          misfits = failing(turn, request.tools) ? misfits + 1 : 0;
          if (misfits >= MISFITS && known().jsonSchema !== false) learn(facts, key, { constrain: true });
        }
        return turn;
      }
    },
  };
  // The model list is read once, for the window; the same entry gives prices when it lists them (OpenRouter).
  const listedWindow = async (client: OpenAI, key: string): Promise<number> => {
    const listed = await fittedWindow(client, id, facts, key);
    const prices = await pricesOf(client, id);
    if (prices && !model.prices) model.prices = prices;
    return listed;
  };
  return model;
}

/** Native turns in a row whose calls miss their tools' schemas before a model's output is held to them. */
const MISFITS = 2;

/** Waits `ms`; false when `signal` aborts first. */
function pause(ms: number, signal?: AbortSignal): Promise<boolean> {
  return new Promise((resolve) => {
    if (signal?.aborted) return resolve(false);
    const done = (): void => {
      clearTimeout(timer);
      resolve(false);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", done);
      resolve(true);
    }, ms);
    signal?.addEventListener("abort", done, { once: true });
  });
}
