/**
 * The plugins of the assistants, kept open between runs: each enabled Plugin row of an assistant
 * becomes an open MCP plugin whose tools join that assistant's runs, and whose status is written
 * back on the row. A row that changes is opened again; one deleted or turned off is closed.
 *
 * Using it:
 *   const plugins = new AgentPlugins(store, secrets, { trusted, approveStart, allowPrivate });
 *   host.tools = async (assistant) => [...ownTools, ...(await plugins.tools(assistant))];
 *   await plugins.close();   // ends every plugin's program and connection
 */

import { createHash } from "node:crypto";
import type { Tool } from "../../agent/types";
import type { Lookup } from "../net";
import { McpPlugin, type PluginLimits } from "./plugins";
import { distinctNames } from "./result";
import { isStdio, sourceOf, type PluginSource } from "./source";
import { secretKey, type Assistant, type Plugin, type Secrets } from "../row-schemas";
import type { Store } from "../store";
import { visible } from "../workspace";
import { reason } from "../../protocol/reason";

/** What the editor decides for the plugins; each is asked again at every run. */
export interface AgentPluginsOptions {
  /** The workspace is trusted: only then may a plugin start a program. */
  trusted: () => boolean;
  /** Asks the person before a plugin's program first starts, with its command line; true starts it. */
  approveStart: (commandLine: string) => boolean | Promise<boolean>;
  /** Plugins may reach private addresses (the setting is on). */
  allowPrivate: () => boolean;
  /** Tandem works locally only (`tandem.localOnly`): a plugin at an address on another computer is not connected. */
  localOnly?: () => boolean;
  /**
   * The servers' `readOnlyHint`s are believed, so a tool a server calls read-only runs without
   * asking. Off by default: a hostile server could call a tool that writes read-only.
   */
  trustReadOnlyHints?: () => boolean;
  /** The folder a plugin's program starts in (the workspace). */
  cwd?: () => string | undefined;
  /** How long a plugin may take to connect and to answer a call. */
  limits?: PluginLimits;
  /** Resolves host names (the system's by default; tests give their own). */
  lookup?: Lookup;
}

/** One plugin row's open plugin and what it was opened with. */
interface Entry {
  /** The row's fields, its key and the editor's decisions the plugin was opened with. */
  print: string;
  plugin: McpPlugin;
}

/** Fields of a row whose change means the plugin is another one: it is closed and opened anew. */
const IDENTITY = ["agent", "name", "address", "header", "enabled"] as const;

/** What makes SOURCE the plugin it is: a change of any of it opens the plugin again. */
function printOf(source: PluginSource): string {
  if (isStdio(source)) {
    return JSON.stringify(["stdio", source.name, source.command, source.args, source.cwd, source.trusted]);
  }
  // The key is kept as a hash: a change shows, and no second copy of the key lies around.
  const key = source.key === undefined ? "" : createHash("sha256").update(source.key).digest("hex");
  return JSON.stringify([
    "http",
    source.name,
    source.address,
    source.header,
    key,
    source.allowPrivate,
    source.localOnly,
  ]);
}

/**
 * The open plugins of every assistant of a store, by Plugin row. Keys come from the editor's
 * secret storage (under `secretKey(row.id)`), never from a row.
 */
export class AgentPlugins {
  private readonly open = new Map<string, Entry>();
  private readonly closing = new Set<Promise<void>>();
  /** Rows whose program the person declined to start: not asked again until the row changes. */
  private readonly declined = new Set<string>();
  /** Openings run one at a time, so a key read late never replaces a newer one. */
  private queue: Promise<unknown> = Promise.resolve();
  private readonly unfollow: () => void;
  private closed = false;

  constructor(
    private readonly store: Store,
    private readonly secrets: Secrets,
    private readonly options: AgentPluginsOptions,
  ) {
    this.unfollow = store.follow({ table: "plugins" }, ({ key, row, before }) => {
      // A row deleted, turned off or pointed elsewhere ends its plugin now, not at the next run.
      const same = row && before && row.enabled && IDENTITY.every((field) => row[field] === before[field]);
      if (same) return;
      this.end(key);
      this.declined.delete(key);
    });
  }

  /**
   * The tools of the enabled plugins of ASSISTANT, named `<plugin>_<tool>` and distinct; each
   * plugin row's status is written when it changes. A plugin that cannot be read gives no tools
   * and says why in its status; one that died is started or reconnected here.
   */
  async tools(assistant: Pick<Assistant, "id">): Promise<Tool[]> {
    if (this.closed) return [];
    const plugins = await this.opened(assistant.id);
    const lists = await Promise.all(
      plugins.map(async ({ row, plugin }) => {
        const tools = await plugin.tools();
        // A plugin closed meanwhile (its row turned off) says nothing about the row.
        if (this.plugin(row.id) !== plugin) return [];
        this.note(row.id, plugin.status);
        return tools;
      }),
    );
    const believe = this.options.trustReadOnlyHints?.() ?? false;
    return distinctNames(lists.flat()).map((tool) => ({ ...tool, readOnly: believe && tool.readOnly }));
  }

  /** The open plugin of the Plugin row ID, if it is open. */
  plugin(id: string): McpPlugin | undefined {
    return this.open.get(id)?.plugin;
  }

  /** Closes every plugin (ending their programs) and stops following the rows. */
  async close(): Promise<void> {
    this.closed = true;
    this.unfollow();
    await this.queue.catch(() => undefined);
    for (const id of [...this.open.keys()]) this.end(id);
    await Promise.all(this.closing);
  }

  /** The open plugins of the agent AGENT's enabled rows, opened (again) where needed. */
  private opened(agent: string): Promise<{ row: Plugin; plugin: McpPlugin }[]> {
    const next = this.queue.then(() => this.reconcile(agent));
    this.queue = next.catch(() => undefined);
    return next;
  }

  private async reconcile(agent: string): Promise<{ row: Plugin; plugin: McpPlugin }[]> {
    const rows = this.store.rows("plugins").filter((row) => row.agent === agent && row.enabled);
    const keys = await Promise.all(
      rows.map(async (row): Promise<{ key: string | undefined } | { failure: string }> => {
        try {
          return { key: await this.secrets.get(secretKey(row.id)) };
        } catch (error) {
          return { failure: `could not read its key: ${reason(error)}` };
        }
      }),
    );
    const out: { row: Plugin; plugin: McpPlugin }[] = [];
    for (const [i, row] of rows.entries()) {
      // The row may have been turned off or deleted while the keys were read.
      const now = this.store.get("plugins", row.id);
      if (this.closed || !now?.enabled || now.agent !== agent) continue;
      const read = keys[i];
      if ("failure" in read) {
        this.end(row.id);
        this.note(row.id, read.failure);
        continue;
      }
      let source: PluginSource;
      try {
        source = sourceOf(now, {
          key: read.key,
          allowPrivate: this.options.allowPrivate(),
          localOnly: this.options.localOnly?.() ?? false,
          lookup: this.options.lookup,
          trusted: this.options.trusted(),
          approveStart: (line) => this.approveStart(row.id, line),
          cwd: this.options.cwd?.(),
        });
      } catch (error) {
        this.end(row.id);
        this.note(row.id, `could not read its address: ${reason(error)}`);
        continue;
      }
      const print = printOf(source);
      let entry = this.open.get(row.id);
      if (entry?.print !== print) {
        this.end(row.id);
        entry = { print, plugin: new McpPlugin(source, this.options.limits) };
        this.open.set(row.id, entry);
      }
      out.push({ row: now, plugin: entry.plugin });
    }
    return out;
  }

  /** Asks the person to start the program of the row ID, once: a no stands until the row changes. */
  private async approveStart(id: string, line: string): Promise<boolean> {
    if (this.declined.has(id)) return false;
    // The person reads every character of what will run: controls, bidi and zero-width ones written out.
    const yes = await this.options.approveStart(visible(line));
    if (!yes) this.declined.add(id);
    return yes;
  }

  /** Closes the plugin of the row ID, if open; `close()` waits for it. */
  private end(id: string): void {
    const entry = this.open.get(id);
    if (!entry) return;
    this.open.delete(id);
    const closing = entry.plugin.close().catch(() => undefined);
    this.closing.add(closing);
    void closing.finally(() => this.closing.delete(closing));
  }

  /** Writes STATUS on the row ID when it says something new (not in a window that only reads). */
  private note(id: string, status: string): void {
    const row = this.store.get("plugins", id);
    if (this.closed || !row || row.status === status || !this.store.writable) return;
    try {
      this.store.put("plugins", { ...row, status });
    } catch {
      // The store closed meanwhile: the status is written at the next run.
    }
  }
}
