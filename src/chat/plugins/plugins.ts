/**
 * MCP plugins: a connection to one MCP server (streamable HTTP, the older SSE, or a program over
 * stdio), its tools as the agent's tools, and a status for the Plugin row. A plugin that hangs or
 * dies fails its calls with a clear error and is reconnected on its next use.
 */

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import {
  StreamableHTTPClientTransport,
  StreamableHTTPError,
} from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { ErrorCode, McpError, type Tool as McpTool } from "@modelcontextprotocol/sdk/types.js";
import { scrub } from "../../agent/scrub";
import type { Tool } from "../../agent/types";
import { argsOf } from "../../protocol/args";
import { isIP } from "node:net";
import { AddressError, bareHost, checkPublic, kindOf } from "../net";
import { pluginFetch, type PluginFetch } from "./fetch";
import { distinctNames, parametersOf, resultText, toolNames } from "./result";
import { commandLine, isStdio, type HttpSource, type PluginSource, type StdioSource } from "./source";
import { reason } from "../../protocol/reason";

export * from "./source";

/** How long a plugin may take. */
export interface PluginLimits {
  /** Starting, connecting and listing tools (default 10 s). */
  connectMs?: number;
  /** One tool call (default 60 s). */
  callMs?: number;
}

/** The most tools one plugin may offer (more are left out). */
export const TOOL_LIMIT = 200;

/** The last characters of a program's error output kept for messages. */
const STDERR_KEPT = 1000;

/** One open connection. */
interface Link {
  client: Client;
  transport: Transport;
  fetcher?: PluginFetch;
  alive: boolean;
  stderr: string;
}

/** An error whose message is already what the person should read. */
class PluginError extends Error {}

/** The reason inside ERROR, in words (network codes, HTTP statuses, MCP errors). */
function reasonOf(error: unknown): string {
  if (error instanceof StreamableHTTPError) {
    if (error.code === 401 || error.code === 403) return `the server refused the key (HTTP ${error.code})`;
    if (error.code === -1 || error.code === 404 || error.code === 405)
      return `no MCP server answers there (${error.message})`;
    return `HTTP ${error.code}: ${error.message}`;
  }
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout)
    return "it did not answer in time";
  if (error instanceof McpError && error.code === ErrorCode.ConnectionClosed) return "the connection closed";
  const cause = (error as { cause?: unknown }).cause;
  const code = (error as NodeJS.ErrnoException).code ?? (cause as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ECONNREFUSED") return "connection refused";
  if (code === "ENOENT") return "the program was not found";
  if (code === "EACCES") return "the program may not be run";
  if (code === "ENOTFOUND") return "the name does not resolve";
  const message = reason(error);
  return code && !message.includes(code) ? `${code} ${message}` : message;
}

/** A connection to one MCP server; `tools()` lists them, each call reconnects if needed. */
export class McpPlugin {
  /** The plugin's name, its tools' prefix. */
  readonly name: string;
  /** For the Plugin row: "N tools", or why they could not be read. */
  status = "not read yet";
  private current: Link | undefined;
  private opening: Promise<Link> | undefined;
  private approved = false;
  private closed = false;

  constructor(
    readonly source: PluginSource,
    readonly limits: PluginLimits = {},
  ) {
    this.name = source.name;
  }

  /** Where the plugin is, as messages name it: its address or its command line. */
  get where(): string {
    const source = this.source;
    return isStdio(source) ? commandLine([source.command, ...(source.args ?? [])]) : source.address;
  }

  /** The process id of the running program (stdio plugins), or null. */
  get pid(): number | null {
    const transport = this.current?.transport;
    return transport instanceof StdioClientTransport ? transport.pid : null;
  }

  /** The plugin's tools as the agent's (named `<plugin>_<tool>`); none when it cannot be read, `status` says why. */
  async tools(): Promise<Tool[]> {
    const connectMs = this.limits.connectMs ?? 10_000;
    try {
      const link = await this.connected();
      const listed: McpTool[] = [];
      let cursor: string | undefined;
      do {
        const page = await link.client.listTools(cursor ? { cursor } : undefined, { timeout: connectMs });
        listed.push(...page.tools);
        cursor = page.nextCursor;
      } while (cursor && listed.length < TOOL_LIMIT);
      const kept = listed.slice(0, TOOL_LIMIT);
      const names = toolNames(
        this.name,
        kept.map((t) => t.name),
      );
      this.status = kept.length === 1 ? "1 tool" : `${kept.length} tools`;
      if (listed.length > TOOL_LIMIT) this.status += ` (of more; only the first ${TOOL_LIMIT} are offered)`;
      return kept.map((tool, i) => this.toolOf(tool, names[i]));
    } catch (error) {
      this.status = this.hidden(this.failure(error));
      return [];
    }
  }

  /** Calls the plugin's tool TOOL (its own name) on ARGS (a JSON object's text); answers the text. */
  async call(tool: string, args: string, signal?: AbortSignal): Promise<string> {
    const input = argsOf(args);
    let link: Link;
    try {
      link = await this.connected();
    } catch (error) {
      throw new Error(this.hidden(`plugin ${this.name}: ${this.failure(error)}`));
    }
    const callMs = this.limits.callMs ?? 60_000;
    let result;
    try {
      result = await link.client.callTool({ name: tool, arguments: input }, undefined, {
        timeout: callMs,
        signal,
      });
    } catch (error) {
      throw new Error(this.hidden(this.callFailure(link, tool, error, callMs)));
    }
    return this.hidden(resultText(result));
  }

  /**
   * TEXT without the plugin's secrets (its key, its program's environment values): a server or a
   * program may echo them in an error or a result, which is shown, stored, exported and sent on.
   */
  hidden(text: string): string {
    const source = this.source;
    const secrets = isStdio(source) ? Object.values(source.env ?? {}) : [source.key];
    return secrets.reduce<string>((out, secret) => scrub(out, secret), text);
  }

  /** Closes the connection and ends the program, if any. */
  async close(): Promise<void> {
    this.closed = true;
    const link = this.current ?? (await this.opening?.catch(() => undefined));
    this.current = undefined;
    if (link) await this.dispose(link);
  }

  /** The core tool for the MCP tool TOOL, named NAME. */
  private toolOf(tool: McpTool, name: string): Tool {
    const callMs = this.limits.callMs ?? 60_000;
    return {
      name,
      description: (tool.description || tool.title || tool.name).slice(0, 1024),
      parameters: parametersOf(tool.inputSchema),
      readOnly: tool.annotations?.readOnlyHint === true,
      // A little longer than the call's own limit, so the plugin's clearer message comes first.
      timeoutMs: callMs + 2000,
      run: (args, signal) => this.call(tool.name, args, signal),
    };
  }

  /** The open connection, opened (again) when there is none or it died. */
  private async connected(): Promise<Link> {
    if (this.closed) throw new PluginError(`the plugin ${this.name} is closed`);
    if (this.current?.alive) return this.current;
    if (!this.opening) {
      const old = this.current;
      this.current = undefined;
      if (old) void this.dispose(old);
      this.opening = this.open()
        .then((link) => {
          if (this.closed) {
            void this.dispose(link);
            throw new PluginError(`the plugin ${this.name} is closed`);
          }
          this.current = link;
          return link;
        })
        .finally(() => {
          this.opening = undefined;
        });
    }
    return this.opening;
  }

  private open(): Promise<Link> {
    return isStdio(this.source) ? this.openStdio(this.source) : this.openHttp(this.source);
  }

  private async openStdio(source: StdioSource): Promise<Link> {
    const line = this.where;
    if (!source.trusted) {
      throw new PluginError(`refused: a plugin that runs a program (${line}) needs a trusted workspace`);
    }
    if (!this.approved) {
      if (!(await source.approveStart(line)))
        throw new PluginError(`refused: starting ${line} was not approved`);
      this.approved = true;
    }
    const transport = new StdioClientTransport({
      command: source.command,
      args: source.args ?? [],
      env: source.env,
      cwd: source.cwd,
      stderr: "pipe",
    });
    const link: Link = {
      client: new Client({ name: "tandem", version: "0.1.0" }),
      transport,
      alive: true,
      stderr: "",
    };
    transport.stderr?.on("data", (chunk: Buffer) => {
      link.stderr = (link.stderr + chunk.toString("utf8")).slice(-STDERR_KEPT);
    });
    link.client.onclose = () => {
      link.alive = false;
    };
    try {
      await link.client.connect(transport, { timeout: this.limits.connectMs ?? 10_000 });
      // What it wrote while starting is chatter; what comes later explains a crash.
      link.stderr = "";
      return link;
    } catch (error) {
      await this.dispose(link);
      const said = link.stderr.trim();
      throw new PluginError(`${reasonOf(error)}${said ? ` — it said: ${lastLines(said)}` : ""}`);
    }
  }

  private async openHttp(source: HttpSource): Promise<Link> {
    if (source.localOnly && !onThisComputer(source.address))
      throw new PluginError(localOnlyRefusal(source.address));
    const options = { allowPrivate: source.allowPrivate, lookup: source.lookup };
    const { url } = await checkPublic(source.address, options);
    const headers: Record<string, string> = {};
    if (source.key) {
      const header = source.header?.trim() || "Authorization";
      if (!/^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/.test(header))
        throw new PluginError(`refused: "${header}" is not a header name`);
      if (/[\r\n]/.test(source.key)) throw new PluginError("refused: the key holds a line break");
      const bearer = header.toLowerCase() === "authorization" && !source.key.includes(" ");
      headers[header] = bearer ? `Bearer ${source.key}` : source.key;
    }
    const connectMs = this.limits.connectMs ?? 10_000;
    const attempt = async (transport: Transport, fetcher: PluginFetch): Promise<Link> => {
      const link: Link = {
        client: new Client({ name: "tandem", version: "0.1.0" }),
        transport,
        fetcher,
        alive: true,
        stderr: "",
      };
      link.client.onclose = () => {
        link.alive = false;
      };
      link.client.onerror = (error) => {
        // A broken event stream may be a blip the transport resumes, or a dead server: a ping
        // tells them apart, and a dead one fails the calls waiting on it now, not at their limit.
        if (!link.alive || !/disconnected|reconnect/i.test(error.message)) return;
        link.client.ping({ timeout: connectMs }).catch(() => {
          if (!link.alive) return;
          link.alive = false;
          void link.client.close().catch(() => undefined);
        });
      };
      try {
        await link.client.connect(transport, { timeout: connectMs });
        return link;
      } catch (error) {
        await this.dispose(link);
        throw error;
      }
    };
    const streamable = pluginFetch(options);
    try {
      return await attempt(
        new StreamableHTTPClientTransport(url, { fetch: streamable.fetch, requestInit: { headers } }),
        streamable,
      );
    } catch (error) {
      if (!fallsBack(error)) throw error;
      // Servers of the older protocol answer a POST with 404 or 405: try their SSE stream.
      const sse = pluginFetch(options);
      try {
        return await attempt(
          new SSEClientTransport(url, { fetch: sse.fetch, requestInit: { headers } }),
          sse,
        );
      } catch {
        throw error;
      }
    }
  }

  /** The status text for ERROR, met while connecting or listing. */
  private failure(error: unknown): string {
    if (error instanceof AddressError || error instanceof PluginError) {
      const message = error.message;
      return message.startsWith("refused:") ||
        message.startsWith("could not") ||
        message.startsWith("the plugin")
        ? message
        : `could not connect to ${this.where}: ${message}`;
    }
    return `could not connect to ${this.where}: ${reasonOf(error)}`;
  }

  /** What the model reads when a call of TOOL failed with ERROR on LINK. */
  private callFailure(link: Link, tool: string, error: unknown, callMs: number): string {
    if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) {
      return `plugin ${this.name}: ${tool} did not answer within ${Math.round(callMs / 100) / 10} s`;
    }
    if (!link.alive) {
      const said = link.stderr.trim();
      const what = isStdio(this.source) ? "its program ended" : "its connection closed";
      return `plugin ${this.name}: ${what} during ${tool}${said ? ` (it said: ${lastLines(said)})` : ""}; it restarts on the next call`;
    }
    if (error instanceof McpError) return `plugin ${this.name}: ${tool} failed: ${error.message}`;
    if (error instanceof Error && error.name === "AbortError")
      return `plugin ${this.name}: ${tool} was stopped`;
    // The network failed under us: the next call opens a new connection.
    link.alive = false;
    return `plugin ${this.name}: could not reach ${this.where} during ${tool}: ${reasonOf(error)}; it reconnects on the next call`;
  }

  /** Closes LINK: its session, its transport (ending the program) and its sockets. */
  private async dispose(link: Link): Promise<void> {
    link.alive = false;
    if (link.transport instanceof StreamableHTTPClientTransport && link.transport.sessionId) {
      await Promise.race([link.transport.terminateSession().catch(() => undefined), delay(1000)]);
    }
    await link.client.close().catch(() => undefined);
    await link.transport.close().catch(() => undefined);
    link.fetcher?.close();
  }
}

/**
 * True when ADDRESS names this computer by itself: `localhost` (and `*.localhost`, which resolve
 * there by definition) or a loopback IP. Any other name could resolve to another computer.
 */
export function onThisComputer(address: string): boolean {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    return false;
  }
  const host = bareHost(url);
  if (host === "localhost" || host.endsWith(".localhost")) return true;
  return isIP(host) !== 0 && kindOf(host) === "loopback";
}

/** The status of a plugin at another computer while Tandem works locally only. */
function localOnlyRefusal(address: string): string {
  return `refused: Tandem works locally only (tandem.localOnly), and ${address} is not on this computer`;
}

/** True when the streamable HTTP failure ERROR may mean a server of the older SSE protocol. */
function fallsBack(error: unknown): boolean {
  if (error instanceof AddressError || error instanceof PluginError) return false;
  if (error instanceof McpError && error.code === ErrorCode.RequestTimeout) return false;
  if (error instanceof StreamableHTTPError) return error.code !== 401 && error.code !== 403;
  return true;
}

/** The last three lines of TEXT, on one line. */
function lastLines(text: string): string {
  return text.split(/\r?\n/).filter(Boolean).slice(-3).join(" / ");
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}

/** Open plugins and all their tools, named distinctly across plugins. */
export interface PluginSet {
  plugins: McpPlugin[];
  tools: Tool[];
  close(): Promise<void>;
}

/** Opens SOURCES side by side and gathers their tools; a plugin that fails gives none and a status. */
export async function openPlugins(sources: PluginSource[], limits: PluginLimits = {}): Promise<PluginSet> {
  const plugins = sources.map((source) => new McpPlugin(source, limits));
  const lists = await Promise.all(plugins.map((plugin) => plugin.tools()));
  const tools = distinctNames(lists.flat());
  return { plugins, tools, close: async () => void (await Promise.all(plugins.map((p) => p.close()))) };
}
