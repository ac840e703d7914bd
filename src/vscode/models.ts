import vscode = require("vscode");
import { described, factsKey, memoryFacts, type Facts } from "../agent/facts";
import type { Model } from "../agent/types";
import type { Choice } from "../chat/row-schemas";
import type { EndpointSetting as CatalogueEndpoint } from "../chat/models";
import { lmModel } from "./lm-model";
import { endpointKey, endpointSettings, settings, type EndpointSetting } from "./settings";
import { core } from "./core";

/** Tandem's own vendor in VS Code's model picker (its models are the configured endpoints'). */
export const VENDOR = "tandem";

/**
 * The models Tandem can answer with: the configured endpoints' (keys from SecretStorage), the model
 * servers on this computer, and the models VS Code offers. The catalogue and the endpoint client
 * (the openai SDK) load on first use, not at activation.
 */
export class Models {
  private listed?: Promise<Choice[]>;
  private own?: Promise<Choice[]>;

  /**
   * What endpoint checks and earlier runs learned of each model (kept in global state), given to
   * every model built so that no run pays for it again.
   */
  readonly facts: Facts;

  constructor(
    private readonly secrets: vscode.SecretStorage,
    kept: Facts = memoryFacts(),
  ) {
    // Something learned changes the picker's notes: the catalogue is listed again when next asked.
    this.facts = {
      get: (key) => kept.get(key),
      set: (key, learned) => {
        kept.set(key, learned);
        this.refresh();
      },
    };
  }

  /** The endpoints with their keys, in the catalogue's shape; the first is the default endpoint. */
  async endpoints(): Promise<Array<CatalogueEndpoint & { setting: EndpointSetting; withheld?: string }>> {
    return Promise.all(
      endpointSettings().map(async (setting) => {
        const sent = await endpointKey(this.secrets, setting);
        return {
          name: setting.name,
          baseURL: setting.baseURL,
          apiKey: sent.key,
          ...(sent.withheld ? { withheld: sent.withheld } : {}),
          model: Array.isArray(setting.models) ? setting.models[0] : undefined,
          setting,
        };
      }),
    );
  }

  /** The catalogue, asked once and kept until `refresh`. */
  choices(): Promise<Choice[]> {
    this.listed ??= this.list(true);
    return this.listed;
  }

  /**
   * The models Tandem itself serves (endpoints and this computer's servers), without asking vscode.lm:
   * Tandem's language model provider lists these, and asking vscode.lm from there would wait on itself.
   */
  ownChoices(): Promise<Choice[]> {
    this.own ??= this.list(false);
    return this.own;
  }

  refresh() {
    this.listed = undefined;
    this.own = undefined;
  }

  private async list(withEditor: boolean): Promise<Choice[]> {
    const { catalogue, LOCAL_SERVERS } = core();
    const editor = withEditor ? (await vscode.lm.selectChatModels()).filter((m) => m.vendor !== VENDOR) : [];
    const endpoints = await this.endpoints();
    const rows = await catalogue({
      endpoints,
      editor: editor.map((m) => ({
        vendor: m.vendor,
        id: m.id,
        name: m.name,
        family: m.family,
        maxInputTokens: m.maxInputTokens,
      })),
      local: settings().localServers ? LOCAL_SERVERS : [],
      localOnly: settings().localOnly,
    });
    // An endpoint that names its models offers exactly those.
    const offered = rows.filter((row) => {
      const e = endpoints.find((x) => row.group === x.name);
      return (
        !e ||
        !Array.isArray(e.setting.models) ||
        e.setting.models.some((m) => row.id === m || row.id.endsWith(`/${m}`))
      );
    });
    return offered.map((row) => this.noted(row, endpoints));
  }

  /** The row with what was learned of its model added to its note ("text tools · 8k window · reasoning_content"). */
  private noted(row: Choice, endpoints: CatalogueEndpoint[]): Choice {
    const key = this.keyOf(row.id, endpoints);
    const words = key ? described(this.facts.get(key)) : "";
    return words ? { ...row, note: [row.note, words].filter(Boolean).join(" · ") } : row;
  }

  /** The key of a catalogue id's model in `facts` (undefined for the editor's own models). */
  private keyOf(id: string, endpoints: CatalogueEndpoint[]): string | undefined {
    const { placeOf, endpointOf, LOCAL_SERVERS, localBaseURL } = core();
    const place = placeOf(id);
    if (place.where === "vscode") return undefined;
    if (place.where === "local") {
      const server = LOCAL_SERVERS.find((s) => s.name === place.server);
      return server && factsKey(localBaseURL(server), place.model);
    }
    const found = endpointOf(id, endpoints);
    return found && factsKey(found.endpoint.baseURL, found.model);
  }

  /** The id of the model to use when none is chosen: the setting, else the first in the catalogue. */
  async defaultId(): Promise<string> {
    const chosen = settings().defaultModel;
    if (chosen) return chosen;
    return (await this.choices())[0]?.id ?? "";
  }

  /** The core model of a catalogue id ("" the default), or undefined when none is configured. */
  async resolve(id: string): Promise<Model | undefined> {
    const wanted = id || (await this.defaultId());
    if (!wanted) return undefined;
    const { placeOf, endpointOf, LOCAL_SERVERS, localBaseURL, endpoint } = core();
    const place = placeOf(wanted);
    if (place.where === "vscode") {
      const [chat] = await vscode.lm.selectChatModels({ vendor: place.vendor, id: place.model });
      return chat && editorModel(chat);
    }
    if (place.where === "local") {
      const server = LOCAL_SERVERS.find((s) => s.name === place.server);
      if (!server) return undefined;
      const baseURL = localBaseURL(server);
      return endpoint({
        baseURL,
        model: place.model,
        apiKey: "none",
        facts: this.facts,
        key: factsKey(baseURL, place.model),
      });
    }
    const endpoints = await this.endpoints();
    const found = endpointOf(wanted, endpoints);
    if (!found) return undefined;
    const e = found.endpoint as (typeof endpoints)[number];
    // The person kept the key from this address: each turn says so instead of failing for want of a key.
    const withheld = e.withheld;
    if (withheld)
      return {
        name: found.model,
        turn: () => Promise.reject(new Error(withheld)),
      };
    // What "Check Endpoint" and earlier runs learned of this model is read (and added to) at each turn.
    const model = endpoint({
      baseURL: e.baseURL,
      apiKey: e.apiKey || "none",
      model: found.model,
      headers: e.setting.headers,
      facts: this.facts,
      key: factsKey(e.baseURL, found.model),
    });
    // The prices the person set for this endpoint's model, so each answer shows its cost.
    const prices = core().pricesFor(e.setting.prices, found.model);
    return prices ? { ...model, prices } : model;
  }
}

/**
 * The editor's model `chat` (vscode.lm) as a core model; while the person works locally only, one whose
 * every turn says why it is not used (VS Code may send its requests off this computer).
 */
export function editorModel(chat: vscode.LanguageModelChat): Model {
  if (!settings().localOnly) return lmModel(chat);
  const why = core().localOnlyModel(chat.name);
  return { name: chat.name, turn: () => Promise.reject(new Error(why)) };
}
