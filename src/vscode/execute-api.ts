import { randomBytes } from "node:crypto";
import vscode = require("vscode");
import type { Model } from "../agent/types";
import type { ExecuteConfig, ExecuteServer, Outcome } from "../execute/index";
import type { Models } from "./models";
import { settings } from "./settings";
import { core } from "./core";
import { shown } from "./failures";
import { reason } from "../protocol/reason";

const KEY = "tandem.execute.key";

/**
 * The execute-agent API in VS Code: `execute(body)` for other extensions, and its loopback HTTP server
 * (127.0.0.1 only, an API key Tandem makes and keeps in SecretStorage).
 */
export class ExecuteApi implements vscode.Disposable {
  private server?: ExecuteServer;

  constructor(
    private readonly models: Models,
    private readonly secrets: vscode.SecretStorage,
  ) {}

  /**
   * The models the API may use: the spec's names through the `tandem.execute.models` setting, and any
   * model of Tandem's catalogue by its id. Each resolves to the person's model on first use.
   */
  private async config(): Promise<ExecuteConfig> {
    const ids = new Set((await this.models.choices()).map((c) => c.id));
    const models = this.models;
    const lazy = (id: string): Model => {
      let model: Promise<Model | undefined> | undefined;
      return {
        name: id,
        async turn(request, each) {
          const resolved = await (model ??= models.resolve(id));
          if (!resolved) throw new Error(`Tandem has no model ${id}.`);
          return resolved.turn(request, each);
        },
      };
    };
    const mapped = new Set(Object.values(settings().execute.models));
    return {
      models: settings().execute.models,
      resolve: (id) => (ids.has(id) || mapped.has(id) ? lazy(id) : undefined),
    };
  }

  /** One agent step, as `POST /v4/agents/execute` answers it (status and JSON body). */
  async execute(body: unknown, signal?: AbortSignal): Promise<Outcome> {
    const { execute } = core();
    return execute(body, await this.config(), signal);
  }

  /** The server's key, made on first use. */
  async key(): Promise<string> {
    let key = await this.secrets.get(KEY);
    if (!key) {
      key = randomBytes(24).toString("base64url");
      await this.secrets.store(KEY, key);
    }
    return key;
  }

  /**
   * Starts the server (once); resolves with its URL. Its models are read at each request, as
   * `execute` reads them; only its port is read here (a changed port takes a new start).
   */
  async start(): Promise<string> {
    if (this.server) return this.server.url;
    const { serveExecute } = core();
    this.server = await serveExecute({
      key: await this.key(),
      port: settings().execute.port,
      config: () => this.config(),
      log: (line) => console.warn(`Tandem: ${line}`),
    });
    return this.server.url;
  }

  get url(): string | undefined {
    return this.server?.url;
  }

  dispose() {
    void this.server?.close();
    this.server = undefined;
  }
}

export function registerExecute(context: vscode.ExtensionContext, models: Models): ExecuteApi {
  const api = new ExecuteApi(models, context.secrets);
  context.subscriptions.push(
    api,
    vscode.commands.registerCommand("tandem.startExecuteServer", async () => {
      try {
        const url = await api.start();
        const copy = vscode.l10n.t("Copy URL and Key");
        const pick = await vscode.window.showInformationMessage(
          vscode.l10n.t("Tandem's execute server listens on {0}.", url),
          copy,
        );
        if (pick === copy) await vscode.commands.executeCommand("tandem.copyExecuteServer");
        return url;
      } catch (e) {
        vscode.window.showErrorMessage(vscode.l10n.t("The execute server did not start: {0}", reason(e)));
        return undefined;
      }
    }),
    vscode.commands.registerCommand("tandem.copyExecuteServer", async () => {
      const url = api.url ?? (await api.start());
      await vscode.env.clipboard.writeText(`${url}/v4/agents/execute\nx-api-key: ${await api.key()}`);
      vscode.window.setStatusBarMessage(vscode.l10n.t("Copied the execute server's URL and key"), 3000);
    }),
  );
  // A server that cannot start (its port taken) is said: the person turned it on. Read just after
  // activation: the first read of the settings is the costliest, and activation itself needs none.
  const autoStart = setTimeout(() => {
    if (settings().execute.autoStart) shown(vscode.l10n.t("Starting the execute server"), api.start());
  }, 0);
  context.subscriptions.push({ dispose: () => clearTimeout(autoStart) });
  return api;
}
