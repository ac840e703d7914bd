/**
 * The model catalogue: the models a person can choose, as Choice rows grouped by where they run —
 * each configured endpoint's (`GET /models`), the servers found on this computer, and the models
 * the editor offers. A source that fails gives a note or nothing, never an error.
 */

import OpenAI from "openai";
import { scrub } from "../../agent/scrub";
import { editorId, endpointId, endpointKey, placeOf, type Place } from "./id";
import { localChoices, LOCAL_SERVERS, PROBE_MS, type LocalServer } from "./local";
import { EDITOR_GROUP, ENDPOINT_GROUP } from "../make";
import type { Choice } from "../row-schemas";
import { reason } from "../../protocol/reason";
import { t } from "../../protocol/l10n";

export * from "./id";
export * from "./local";

/** An OpenAI-compatible endpoint as the settings give it. The key comes from the editor's secrets. */
export interface EndpointSetting {
  /** Its name, the group its models are listed under ("" for the default endpoint: "Endpoint"). */
  name: string;
  baseURL: string;
  apiKey?: string;
  /** The model the settings name, listed even when the endpoint cannot list its models. */
  model?: string;
}

/** A model the editor offers (vscode.lm), as the VS Code part passes it. */
export interface EditorModel {
  vendor: string;
  id: string;
  name: string;
  family?: string;
  maxInputTokens?: number;
}

/** What the catalogue is made of. */
export interface CatalogueOptions {
  endpoints?: EndpointSetting[];
  editor?: EditorModel[];
  /** The local servers looked for (default LOCAL_SERVERS; [] looks for none). */
  local?: readonly LocalServer[];
  /** Where local servers are looked for (default 127.0.0.1). */
  host?: string;
  /** How long an endpoint may take to list its models (default 3 s). */
  endpointMs?: number;
  /** How long a local probe may take (default 300 ms). */
  probeMs?: number;
  /**
   * The person works locally only (`tandem.localOnly`): the editor's models are left out, since where
   * VS Code sends their requests is not known to be this computer (see `localOnlyModel`).
   */
  localOnly?: boolean;
}

/** The most models one endpoint lists (OpenRouter lists hundreds). */
const MODEL_LIMIT = 1000;

/** Tokens in words: 131072 is "128k". */
function contextSize(n: number): string {
  return n >= 1024 ? `${Math.round(n / 1024)}k` : String(n);
}

/** The reason ERROR gives, short (the SDK's errors carry the HTTP status). */
function reasonOf(error: unknown): string {
  if (error instanceof OpenAI.APIConnectionTimeoutError) return "it did not answer in time";
  if (error instanceof OpenAI.APIConnectionError) {
    const cause = (error as { cause?: { code?: string; cause?: { code?: string } } }).cause;
    const code = cause?.code ?? cause?.cause?.code;
    return code === "ECONNREFUSED" ? "connection refused" : `could not connect${code ? ` (${code})` : ""}`;
  }
  if (error instanceof OpenAI.APIError && error.status) {
    const said = error.message.replace(/^\d{3}\s*/, "").slice(0, 200);
    return `HTTP ${error.status}${said ? `: ${said}` : ""}`;
  }
  if (error instanceof SyntaxError) return "its answer to GET /models is not JSON";
  return reason(error).slice(0, 200);
}

/**
 * The models of ENDPOINT (the INDEXth configured; 0 is the default), sorted by id. When it cannot
 * list them: its configured model, or one row naming the endpoint, with a note saying why.
 */
export async function endpointChoices(endpoint: EndpointSetting, index = 0, ms = 3000): Promise<Choice[]> {
  const group = endpoint.name.trim() || ENDPOINT_GROUP;
  const client = new OpenAI({
    baseURL: endpoint.baseURL,
    apiKey: endpoint.apiKey || "none",
    timeout: ms,
    maxRetries: 0,
  });
  try {
    // The raw answer, not the typed page: a server that answers something else must be told apart.
    const body = await client.get<{ data?: unknown } | null>("/models");
    if (!Array.isArray(body?.data)) throw new Error("its answer to GET /models is not a list of models");
    const seen = new Set<string>();
    const rows: Choice[] = [];
    for (const model of body.data as { id?: unknown; context_length?: unknown; owned_by?: unknown }[]) {
      if (typeof model?.id !== "string" || !model.id.trim() || /[\r\n]/.test(model.id) || seen.has(model.id))
        continue;
      seen.add(model.id);
      const extra = model;
      const notes = [
        typeof extra.owned_by === "string" && extra.owned_by !== "system" ? extra.owned_by : "",
        typeof extra.context_length === "number" ? `${contextSize(extra.context_length)} context` : "",
      ].filter(Boolean);
      rows.push({
        id: endpointId(index, endpoint.name, model.id),
        name: model.id,
        group,
        note: notes.join(" · "),
      });
    }
    rows.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    if (endpoint.model && !seen.has(endpoint.model)) {
      rows.unshift({
        id: endpointId(index, endpoint.name, endpoint.model),
        name: endpoint.model,
        group,
        note: "not in its list",
      });
    }
    return rows.slice(0, MODEL_LIMIT);
  } catch (error) {
    // The note is shown in the model picker: a key the server echoed is cut out of it.
    const note = `could not list models: ${scrub(reasonOf(error), endpoint.apiKey)}`;
    const id = endpoint.model
      ? endpointId(index, endpoint.name, endpoint.model)
      : `endpoint:${endpointKey(endpoint.name) || "default"}`;
    return [{ id, name: endpoint.model || group, group, note }];
  }
}

/** The editor's MODELS as choices, in the order it gives them. */
export function editorChoices(models: EditorModel[]): Choice[] {
  const seen = new Set<string>();
  return models.flatMap((m) => {
    const id = editorId(m.vendor, m.id);
    if (!m.id || seen.has(id)) return [];
    seen.add(id);
    const notes = [m.vendor, m.maxInputTokens ? `${contextSize(m.maxInputTokens)} context` : ""].filter(
      Boolean,
    );
    return [{ id, name: m.name || m.id, group: EDITOR_GROUP, note: notes.join(" · ") }];
  });
}

/**
 * The catalogue: the configured endpoints' models (in their order), then this computer's, then
 * the editor's. Everything is asked at once; it takes as long as the slowest endpoint allows.
 */
export async function catalogue(options: CatalogueOptions = {}): Promise<Choice[]> {
  const endpoints = options.endpoints ?? [];
  const [listed, local] = await Promise.all([
    Promise.all(endpoints.map((e, i) => endpointChoices(e, i, options.endpointMs ?? 3000))),
    localChoices(options.local ?? LOCAL_SERVERS, options.host ?? "127.0.0.1", options.probeMs ?? PROBE_MS),
  ]);
  const editor = options.localOnly ? [] : editorChoices(options.editor ?? []);
  const rows = [...listed.flat(), ...local, ...editor];
  // Two endpoints may share a name: the first keeps its models' ids.
  const seen = new Set<string>();
  return rows.filter((row) => !seen.has(row.id) && seen.add(row.id));
}

/**
 * Why the editor's model `name` is not used while the person works locally only: VS Code sends its
 * requests where its provider does (often another company's servers), not to one of the person's endpoints.
 */
export function localOnlyModel(name: string): string {
  return t(
    "Tandem works locally only (tandem.localOnly): the editor's model {0} is not used, because VS Code may send its requests off this computer. Choose one of your endpoints' models or a model server on this computer.",
    name,
  );
}

/** The endpoint and model an endpoint id names among ENDPOINTS, or undefined (another place). */
export function endpointOf(
  id: string,
  endpoints: EndpointSetting[],
): { endpoint: EndpointSetting; model: string } | undefined {
  const place: Place = placeOf(id);
  if (place.where !== "endpoint") return undefined;
  const endpoint = place.endpoint
    ? endpoints.find((e) => endpointKey(e.name) === place.endpoint)
    : endpoints[0];
  return endpoint ? { endpoint, model: place.model } : undefined;
}
