import vscode = require("vscode");
import { ENV_ENDPOINT, KeyChooser, originOf, type KeyToSend } from "../chat/models";
import {
  IgnoredReports,
  personSettingsIn,
  personValue,
  setByWorkspace,
  PERSON_ONLY,
  stricterLimit,
  type Ignored,
  type PersonSetting,
} from "../chat/assistants";
import { editsModeOf } from "../chat/pending";

export { ENV_ENDPOINT, keyName } from "../chat/models";

/** An OpenAI-compatible endpoint as the person configured it (its key lives in SecretStorage). */
export interface EndpointSetting {
  name: string;
  baseURL: string;
  headers?: Record<string, string>;
  models?: string[] | "list";
  /** Dollars per million tokens by model id ("*" the rest), read by `pricesFor`. */
  prices?: unknown;
}

/** Tandem's settings, read fresh each time (they change while VS Code runs). */
export function settings() {
  const c = vscode.workspace.getConfiguration("tandem");
  // Where requests go, which key is sent and what is approved come from the person's own settings only:
  // a repository's .vscode/settings.json is not asked, whatever scope the installed manifest declares.
  const own = <T>(key: string): T | undefined => personValue(c.inspect<T>(key));
  // Limits a repository may only tighten: raising them would spend the person's budget.
  const limit = (key: string, zeroIsNone = false) => stricterLimit(c.inspect<number>(key), zeroIsNone);
  return {
    endpoints: (own<EndpointSetting[]>("endpoints") ?? []).filter((e) => e && e.name && e.baseURL),
    defaultModel: own<string>("defaultModel") ?? "",
    approval: own<Record<string, "ask" | "allow">>("approval") ?? {},
    // Secret-looking variables the person lets commands see (see command-env.ts).
    passToCommands: names(own<unknown>("environment.passToCommands")),
    editsMode: editsModeOf(own<string>("edits.mode")),
    checkpoints: {
      enabled: own<boolean>("checkpoints.enabled") ?? true,
      maxTotalBytes: Math.max(64, own<number>("checkpoints.maxTotalMB") ?? 2048) * 1024 * 1024,
      maxFileBytes: Math.max(1, own<number>("checkpoints.maxFileMB") ?? 50) * 1024 * 1024,
    },
    rounds: limit("limits.rounds") ?? 16,
    maxTokens: limit("limits.maxTokens", true) ?? 0,
    maxMs: (limit("limits.maxSeconds", true) ?? 0) * 1000,
    allowPrivate: own<boolean>("plugins.allowPrivateAddresses") ?? false,
    // VS Code's and the plugins' tools sent with every request: the person's choice, never a repository's.
    chosenTools: names(own<unknown>("tools.alwaysOffered")).join(","),
    attachmentBytes: (limit("attachments.maxKB") ?? 25_600) * 1024,
    localServers: own<boolean>("localServers") ?? true,
    // No connection but to the endpoints and local model servers: no fetch_page, no remote plugins
    // or images, and commands sandboxed without network. The person's value only (see person-settings).
    localOnly: own<boolean>("localOnly") ?? false,
    execute: {
      autoStart: own<boolean>("execute.autoStart") ?? false,
      port: own<number>("execute.port") ?? 0,
      models: own<Record<string, string>>("execute.models") ?? {},
    },
  };
}

/** The strings of a list setting's value (anything malformed names nothing). */
function names(value: unknown): string[] {
  return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
}

/** Where AI_API_KEY goes when AI_URL is unset. */
const OPENROUTER = "https://openrouter.ai/api/v1";

/** The endpoint the environment names (AI_URL, AI_MODEL), if any. */
export function environmentEndpoint(env = process.env): EndpointSetting | undefined {
  if (!env.AI_URL && !env.AI_MODEL) return undefined;
  return {
    name: ENV_ENDPOINT,
    baseURL: env.AI_URL || OPENROUTER,
    models: env.AI_MODEL ? [env.AI_MODEL] : "list",
  };
}

/** Every configured endpoint: the settings' ones, then the environment's. */
export function endpointSettings(): EndpointSetting[] {
  const env = environmentEndpoint();
  const configured = settings().endpoints;
  return env && !configured.some((e) => e.name === ENV_ENDPOINT) ? [...configured, env] : configured;
}

/** Asks the person, in a modal, whether the key of `endpoint` set for `bound` may go to `origin`. */
async function askToSend(endpoint: string, origin: string, bound: string): Promise<boolean> {
  const send = vscode.l10n.t("Send");
  const keep = vscode.l10n.t("Don't Send");
  const said = await vscode.window.showWarningMessage(
    vscode.l10n.t("Send the key for {0} to {1}?", endpoint, origin),
    {
      modal: true,
      detail: vscode.l10n.t(
        "The key was set for {0}. Your settings now send the requests of {1} to {2}. If you did not change them, choose Don't Send.",
        bound,
        endpoint,
        origin,
      ),
    },
    send,
    keep,
  );
  return said === send;
}

let chooser: KeyChooser | undefined;

/**
 * The key to send to `endpoint` (the one place Tandem reads an endpoint's key): SecretStorage, or
 * AI_API_KEY for the environment's endpoint, sent only to the origin it belongs to unless the person
 * says yes.
 */
export function endpointKey(secrets: vscode.SecretStorage, endpoint: EndpointSetting): Promise<KeyToSend> {
  chooser ??= new KeyChooser({
    secrets,
    // AI_API_KEY belongs to AI_URL (read at each use: the environment is the person's, and may change).
    get env() {
      return { key: process.env.AI_API_KEY, origin: originOf(process.env.AI_URL || OPENROUTER) };
    },
    ask: askToSend,
  });
  return chooser.keyFor(endpoint.name, endpoint.baseURL);
}

/** Forgets the answers given about `endpoint`'s key (the person set it again). */
export function keySetAgain(endpoint: string): void {
  chooser?.forget(endpoint);
}

const reports = new IgnoredReports();

/** The files of this workspace that may hold settings, with what each says of the person-only settings. */
async function workspaceFiles(uris: Map<string, vscode.Uri>): Promise<Ignored[]> {
  const folders = vscode.workspace.workspaceFolders ?? [];
  const read = async (uri: vscode.Uri): Promise<string> =>
    vscode.workspace.fs.readFile(uri).then(
      (bytes) => new TextDecoder().decode(bytes),
      () => "",
    );
  const found: Ignored[] = [];
  const config = vscode.workspace.getConfiguration("tandem");
  const seen = (levels: "workspaceValue" | "workspaceFolderValue") =>
    PERSON_ONLY.filter((name) => {
      const inspected = config.inspect(name.slice("tandem.".length));
      return setByWorkspace(inspected) && inspected?.[levels] !== undefined;
    });
  const file = vscode.workspace.workspaceFile;
  if (file && file.scheme !== "untitled") {
    const settings = new Set<PersonSetting>([
      ...personSettingsIn(await read(file), "settings"),
      ...seen("workspaceValue"),
    ]);
    const name = file.path.split("/").pop() ?? file.path;
    uris.set(name, file);
    found.push({ file: name, settings: order(settings) });
  }
  for (const folder of folders) {
    const uri = vscode.Uri.joinPath(folder.uri, ".vscode", "settings.json");
    const settings = new Set<PersonSetting>(personSettingsIn(await read(uri)));
    // With one folder and no workspace file, the workspace's settings are that folder's file.
    if (!file && folders.length === 1) for (const s of seen("workspaceValue")) settings.add(s);
    if (folders.length === 1) for (const s of seen("workspaceFolderValue")) settings.add(s);
    const name = folders.length > 1 ? `${folder.name}/.vscode/settings.json` : ".vscode/settings.json";
    uris.set(name, uri);
    found.push({ file: name, settings: order(settings) });
  }
  return found;
}

function order(settings: Set<PersonSetting>): PersonSetting[] {
  return PERSON_ONLY.filter((s) => settings.has(s));
}

/**
 * Tells the person, once per setting and file, that this workspace's settings try to set where requests
 * go, which key is sent or what is approved, and that Tandem ignores them. Resolves with what it told.
 */
export async function reportIgnoredSettings(): Promise<Ignored[]> {
  const uris = new Map<string, vscode.Uri>();
  const fresh = reports.fresh(await workspaceFiles(uris));
  const open = vscode.l10n.t("Open File");
  for (const { file, settings } of fresh) {
    const text =
      settings.length === 1
        ? vscode.l10n.t(
            "This workspace's {0} sets {1}; Tandem ignores it: where requests go, keys and approvals are your settings only.",
            file,
            settings[0],
          )
        : vscode.l10n.t(
            "This workspace's {0} sets {1}; Tandem ignores them: where requests go, keys and approvals are your settings only.",
            file,
            settings.join(", "),
          );
    const uri = uris.get(file);
    void vscode.window.showWarningMessage(text, open).then((said) => {
      if (said === open && uri) void vscode.window.showTextDocument(uri);
    });
  }
  return fresh;
}
