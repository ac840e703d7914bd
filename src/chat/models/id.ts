/**
 * The ids of the model catalogue, as `choiceOf` (make.ts) reads them:
 *
 * - `<model>` — a model of the first configured endpoint (the default one), e.g. `gpt-4o`;
 * - `endpoint:<endpoint>/<model>` — a model of another configured endpoint, by its name;
 * - `local:<server>/<model>` — a model of a server found on this computer (`ollama`, `lmstudio`,
 *   `llamacpp`, `vllm`), e.g. `local:ollama/qwen3:8b`;
 * - `vscode:<vendor>/<id>` — a model the editor offers, e.g. `vscode:copilot/gpt-4o`.
 *
 * Only the first "/" after the prefix separates: model ids keep theirs (`openai/gpt-4o`).
 */

/** Where the model of an id runs. */
export type Place =
  | { where: "endpoint"; endpoint: string; model: string }
  | { where: "local"; server: string; model: string }
  | { where: "vscode"; vendor: string; model: string };

/** An endpoint's name as an id holds it (no "/"). */
export function endpointKey(name: string): string {
  return name.trim().replace(/\//g, "_");
}

/** The id of MODEL of the endpoint at INDEX (0: the default, a bare id) named NAME. */
export function endpointId(index: number, name: string, model: string): string {
  return index === 0 ? model : `endpoint:${endpointKey(name)}/${model}`;
}

/** The id of MODEL of the local server SERVER. */
export function localId(server: string, model: string): string {
  return `local:${server}/${model}`;
}

/** The id of the editor's model ID from VENDOR. */
export function editorId(vendor: string, id: string): string {
  return `vscode:${vendor}/${id}`;
}

/**
 * Where the model of ID runs (the scheme above). `endpoint` is "" for the default endpoint; an
 * `endpoint:` id without a model (a listing that failed) has model "".
 */
export function placeOf(id: string): Place {
  const match = /^(endpoint|local|vscode):([^/]*)(?:\/(.*))?$/s.exec(id);
  if (!match || !match[2]) return { where: "endpoint", endpoint: "", model: id };
  const [, prefix, source, model = ""] = match;
  if (prefix === "local") return { where: "local", server: source, model };
  if (prefix === "vscode") return { where: "vscode", vendor: source, model };
  return { where: "endpoint", endpoint: source, model };
}
