/**
 * An endpoint's API key is bound to the origin (scheme://host:port) it was set for. Before the key goes
 * to another origin the person is asked; a "no" keeps it home. Every key Tandem sends is chosen here.
 */
import type { Secrets } from "../row-schemas";
import { t } from "../../protocol/l10n";

/** The name of the endpoint made from AI_URL / AI_MODEL / AI_API_KEY. */
export const ENV_ENDPOINT = "env";

/** The secret-storage name of an endpoint's API key. */
export const keyName = (endpoint: string): string => `tandem.apiKey.${endpoint}`;

/** A key as it is kept: the key and the origin it was set for (none: kept before keys were bound). */
export interface BoundKey {
  key: string;
  origin?: string;
}

/** The origin of `url` (`https://api.openai.com`, `http://127.0.0.1:11434`), or undefined when it is not a URL. */
export function originOf(url: string): string | undefined {
  try {
    const { origin } = new URL(url);
    return origin === "null" ? undefined : origin;
  } catch {
    return undefined;
  }
}

/** The stored text of a bound key. */
export function storedKey(bound: BoundKey): string {
  return JSON.stringify(bound);
}

/** A stored key read back: a bound key, or a plain key kept before keys were bound (no origin). */
export function readStoredKey(text: string | undefined): BoundKey | undefined {
  if (!text) return undefined;
  if (text.startsWith("{")) {
    try {
      const value = JSON.parse(text) as { key?: unknown; origin?: unknown };
      if (typeof value.key === "string" && value.key)
        return { key: value.key, ...(typeof value.origin === "string" ? { origin: value.origin } : {}) };
    } catch {
      // Not one of ours: a key that happens to start with a brace.
    }
  }
  return { key: text };
}

/** Keeps `key` for `endpoint`, bound to the origin of `baseURL`. */
export async function storeKey(
  secrets: Secrets,
  endpoint: string,
  key: string,
  baseURL: string,
): Promise<void> {
  const origin = originOf(baseURL);
  await secrets.store(keyName(endpoint), storedKey({ key, ...(origin ? { origin } : {}) }));
}

/** What is sent to an endpoint: its key, or none with why the person's key was kept back. */
export interface KeyToSend {
  key?: string;
  /** Set when a key exists but was not sent: a sentence for the person. */
  withheld?: string;
}

/** Where the key choice looks: the secrets, the environment's key, and the person to ask. */
export interface KeyOptions {
  secrets: Secrets;
  /** AI_API_KEY and AI_URL's origin (the environment's key belongs to AI_URL). */
  env?: { key?: string; origin?: string };
  /** Asks the person whether the key of `endpoint`, set for `bound`, may go to `origin`. */
  ask(endpoint: string, origin: string, bound: string): Promise<boolean>;
}

/**
 * Chooses the key to send to `endpoint` at `baseURL` (as the person's own settings give it). A key bound
 * to another origin is sent only when the person says yes, and then is bound to the new origin; a key
 * kept before keys were bound is bound now, to `baseURL`'s origin. Questions for the same endpoint and
 * origin are asked once at a time, and a "no" holds for as long as this object lives.
 */
export class KeyChooser {
  private readonly asking = new Map<string, Promise<boolean>>();
  private readonly answered = new Map<string, boolean>();

  constructor(private readonly options: KeyOptions) {}

  /** The key to send to `endpoint` at `baseURL`. */
  async keyFor(endpoint: string, baseURL: string): Promise<KeyToSend> {
    const { secrets, env } = this.options;
    const origin = originOf(baseURL);
    const stored = readStoredKey(await secrets.get(keyName(endpoint)));
    const bound =
      stored ?? (endpoint === ENV_ENDPOINT && env?.key ? { key: env.key, origin: env.origin } : undefined);
    if (!bound) return {};
    if (!origin) return { withheld: t('The key of {0} is not sent: "{1}" is not a URL.', endpoint, baseURL) };
    if (!bound.origin) {
      // Kept before keys were bound: it belongs to where the person's own settings send it.
      if (stored) await secrets.store(keyName(endpoint), storedKey({ key: bound.key, origin }));
      return { key: bound.key };
    }
    if (bound.origin === origin) return { key: bound.key };
    if (!(await this.decide(endpoint, origin, bound.origin)))
      return {
        withheld: t(
          "The key of {0} was not sent to {1}: it was set for {2}. " +
            'Set the key again with "Tandem: Set API Key" to use it there.',
          endpoint,
          origin,
          bound.origin,
        ),
      };
    // Yes: the key now belongs to the new origin (the environment's key is not stored, only allowed here).
    if (stored) await secrets.store(keyName(endpoint), storedKey({ key: bound.key, origin }));
    return { key: bound.key };
  }

  /** Forgets the answers about `endpoint` (its key was set again). */
  forget(endpoint: string): void {
    for (const key of [...this.answered.keys()])
      if (key.startsWith(`${endpoint}\n`)) this.answered.delete(key);
  }

  private async decide(endpoint: string, origin: string, bound: string): Promise<boolean> {
    const id = `${endpoint}\n${origin}\n${bound}`;
    const known = this.answered.get(id);
    if (known !== undefined) return known;
    let pending = this.asking.get(id);
    if (!pending) {
      pending = this.options.ask(endpoint, origin, bound).catch(() => false);
      this.asking.set(id, pending);
    }
    const yes = await pending;
    this.asking.delete(id);
    // A yes for a stored key rebinds it, so it need not be remembered; the environment's key is allowed for this session.
    this.answered.set(id, yes);
    return yes;
  }
}
