import vscode = require("vscode");

/** An OpenAI-compatible endpoint as the person configured it (its key lives in SecretStorage). */
export interface EndpointSetting {
  name: string;
  baseURL: string;
  headers?: Record<string, string>;
  models?: string[] | "list";
  /** Dollars per million tokens by model id ("*" the rest), read by `pricesFor`. */
  prices?: unknown;
}

/** The name of the endpoint made from AI_URL / AI_MODEL / AI_API_KEY. */
export const ENV_ENDPOINT = "env";

/** Tandem's settings, read fresh each time (they change while VS Code runs). */
export function settings() {
  const c = vscode.workspace.getConfiguration("tandem");
  return {
    endpoints: (c.get<EndpointSetting[]>("endpoints") ?? []).filter((e) => e && e.name && e.baseURL),
    defaultModel: c.get<string>("defaultModel") ?? "",
    approval: c.get<Record<string, "ask" | "allow">>("approval") ?? {},
    rounds: c.get<number>("limits.rounds") ?? 16,
    maxTokens: c.get<number>("limits.maxTokens") ?? 0,
    maxMs: (c.get<number>("limits.maxSeconds") ?? 0) * 1000,
    allowPrivate: c.get<boolean>("plugins.allowPrivateAddresses") ?? false,
    attachmentBytes: (c.get<number>("attachments.maxKB") ?? 25_600) * 1024,
    localServers: c.get<boolean>("localServers") ?? true,
    execute: {
      autoStart: c.get<boolean>("execute.autoStart") ?? false,
      port: c.get<number>("execute.port") ?? 0,
      models: c.get<Record<string, string>>("execute.models") ?? {},
    },
  };
}

/** The endpoint the environment names (AI_URL, AI_MODEL), if any. */
export function environmentEndpoint(env = process.env): EndpointSetting | undefined {
  if (!env.AI_URL && !env.AI_MODEL) return undefined;
  return {
    name: ENV_ENDPOINT,
    baseURL: env.AI_URL || "https://openrouter.ai/api/v1",
    models: env.AI_MODEL ? [env.AI_MODEL] : "list",
  };
}

/** Every configured endpoint: the settings' ones, then the environment's. */
export function endpointSettings(): EndpointSetting[] {
  const env = environmentEndpoint();
  const configured = settings().endpoints;
  return env && !configured.some((e) => e.name === ENV_ENDPOINT) ? [...configured, env] : configured;
}

/** The SecretStorage key of an endpoint's API key. */
export const keyName = (endpoint: string) => `tandem.apiKey.${endpoint}`;

/** An endpoint's API key: SecretStorage, or AI_API_KEY for the environment's endpoint. */
export async function apiKey(secrets: vscode.SecretStorage, endpoint: string): Promise<string | undefined> {
  const stored = await secrets.get(keyName(endpoint));
  if (stored) return stored;
  return endpoint === ENV_ENDPOINT ? process.env.AI_API_KEY : undefined;
}
