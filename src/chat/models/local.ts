/**
 * Model servers on this computer: a quick probe of the ports Ollama, LM Studio, llama.cpp and
 * vLLM listen on, all at once, each given a fraction of a second.
 */

import { localId } from "./id";
import { LOCAL_GROUP } from "../make";
import type { Choice } from "../row-schemas";

/** A kind of local model server and the port it listens on. */
export interface LocalServer {
  /** Its name in ids (`local:<name>/<model>`). */
  name: string;
  /** Its name as a person knows it. */
  label: string;
  port: number;
}

/** The servers looked for, in the order they are listed. */
export const LOCAL_SERVERS: readonly LocalServer[] = [
  { name: "ollama", label: "Ollama", port: 11434 },
  { name: "lmstudio", label: "LM Studio", port: 1234 },
  { name: "llamacpp", label: "llama.cpp", port: 8080 },
  { name: "vllm", label: "vLLM", port: 8000 },
];

/** How long a probe of one port may take. */
export const PROBE_MS = 300;

/** The most models one server lists. */
const MODEL_LIMIT = 500;

/** The OpenAI-compatible base URL of SERVER on HOST. */
export function localBaseURL(server: LocalServer, host = "127.0.0.1"): string {
  return `http://${host}:${server.port}/v1`;
}

/** One model a server listed: its id and a note (size, quantisation) if it says. */
interface Listed {
  id: string;
  note: string;
}

/** The JSON at URL, or undefined when it does not answer in time or not as JSON. */
async function json(url: string, ms: number): Promise<unknown> {
  try {
    const response = await fetch(url, {
      signal: AbortSignal.timeout(ms),
      headers: { accept: "application/json" },
    });
    if (!response.ok) {
      await response.body?.cancel();
      return undefined;
    }
    return await response.json();
  } catch {
    return undefined;
  }
}

/** The models of Ollama's own list (`/api/tags`): `{models: [{name, details}]}`. */
function ollamaModels(body: unknown): Listed[] | undefined {
  const models = (body as { models?: unknown })?.models;
  if (!Array.isArray(models)) return undefined;
  return models.flatMap((m: { name?: unknown; model?: unknown; details?: Record<string, unknown> }) => {
    const id = typeof m?.name === "string" ? m.name : typeof m?.model === "string" ? m.model : "";
    if (!id) return [];
    const details = m.details ?? {};
    const note = [details.parameter_size, details.quantization_level].filter(
      (x) => typeof x === "string" && x,
    );
    return [{ id, note: note.join(" ") }];
  });
}

/** The models of an OpenAI-compatible list (`/v1/models`): `{data: [{id}]}`. */
function openaiModels(body: unknown): Listed[] | undefined {
  const data = (body as { data?: unknown })?.data;
  if (!Array.isArray(data)) return undefined;
  return data.flatMap((m: { id?: unknown }) =>
    typeof m?.id === "string" && m.id ? [{ id: m.id, note: "" }] : [],
  );
}

/** The models SERVER on HOST lists, or undefined when nothing answers there as it would. */
export async function probe(
  server: LocalServer,
  host = "127.0.0.1",
  ms = PROBE_MS,
): Promise<Listed[] | undefined> {
  const base = `http://${host}:${server.port}`;
  if (server.name === "ollama") {
    const tags = ollamaModels(await json(`${base}/api/tags`, ms));
    if (tags) return tags;
  }
  return openaiModels(await json(`${base}/v1/models`, ms));
}

/**
 * The models of the servers found on this computer, as choices: SERVERS probed all at once,
 * listed in their order, each server's models sorted by id.
 */
export async function localChoices(
  servers: readonly LocalServer[] = LOCAL_SERVERS,
  host = "127.0.0.1",
  ms = PROBE_MS,
): Promise<Choice[]> {
  const found = await Promise.all(servers.map((server) => probe(server, host, ms)));
  return servers.flatMap((server, i) => {
    const seen = new Set<string>();
    const models = (found[i] ?? [])
      .filter((m) => !seen.has(m.id) && seen.add(m.id))
      .sort((a, b) => (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .slice(0, MODEL_LIMIT);
    return models.map((m) => ({
      id: localId(server.name, m.id),
      name: m.id,
      group: LOCAL_GROUP,
      note: m.note ? `${server.label} · ${m.note}` : server.label,
    }));
  });
}
