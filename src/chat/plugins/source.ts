/**
 * Where a plugin is: an MCP server at an HTTP address (with an optional header and key), or a
 * program started by a command line that speaks MCP on its standard input and output.
 */

import type { Plugin } from "../row-schemas";
import type { Lookup } from "../net";

/** An MCP server at an http(s) address. The key comes from the editor's secrets, never a row. */
export interface HttpSource {
  name: string;
  address: string;
  /** The header that carries the key ("" or absent: Authorization, as `Bearer <key>`). */
  header?: string;
  key?: string;
  /** Private addresses may be reached (the setting is on). */
  allowPrivate?: boolean;
  lookup?: Lookup;
  /** Tandem works locally only (`tandem.localOnly`): only a server on this computer is connected. */
  localOnly?: boolean;
}

/** A program that speaks MCP over stdio. It runs on this computer, so it needs trust and a yes. */
export interface StdioSource {
  name: string;
  command: string;
  args?: string[];
  env?: Record<string, string>;
  cwd?: string;
  /** The workspace is trusted. */
  trusted: boolean;
  /** Asks the person before the program first starts; true starts it. */
  approveStart: (commandLine: string) => boolean | Promise<boolean>;
}

/** Where a plugin is. */
export type PluginSource = HttpSource | StdioSource;

/** True when SOURCE starts a program. */
export function isStdio(source: PluginSource): source is StdioSource {
  return "command" in source;
}

/** Splits a command line into words the way a POSIX shell quotes them (no expansion). */
export function splitCommand(line: string): string[] {
  const words: string[] = [];
  let word = "";
  let inWord = false;
  let quote: "'" | '"' | "" = "";
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quote === "'") {
      if (c === "'") quote = "";
      else word += c;
    } else if (quote === '"') {
      if (c === '"') quote = "";
      else if (c === "\\" && i + 1 < line.length && '"\\$`'.includes(line[i + 1])) word += line[++i];
      else word += c;
    } else if (c === "'" || c === '"') {
      quote = c;
      inWord = true;
    } else if (c === "\\" && i + 1 < line.length) {
      word += line[++i];
      inWord = true;
    } else if (/\s/.test(c)) {
      if (inWord) words.push(word);
      word = "";
      inWord = false;
    } else {
      word += c;
      inWord = true;
    }
  }
  if (quote) throw new Error(`the command line has an unclosed ${quote} quote`);
  if (inWord) words.push(word);
  return words;
}

/** WORDS as one command line a person can read and paste into a shell. */
export function commandLine(words: string[]): string {
  return words.map((w) => (/^[\w@%+=:,./-]+$/.test(w) ? w : `'${w.replace(/'/g, `'\\''`)}'`)).join(" ");
}

/** What `sourceOf` needs besides the row: the key and what the editor decides. */
export interface SourceContext {
  key?: string;
  allowPrivate?: boolean;
  lookup?: Lookup;
  /** Tandem works locally only: a plugin at an address is connected only on this computer. */
  localOnly?: boolean;
  trusted: boolean;
  approveStart: (commandLine: string) => boolean | Promise<boolean>;
  /** The folder a program starts in (the workspace). */
  cwd?: string;
}

/**
 * Where the plugin row PLUGIN is. Its `address` is an http(s) URL; a bare host name
 * (`mcp.example.com/path`) means https; anything else, or text after `stdio:`, is a command line.
 */
export function sourceOf(
  plugin: Pick<Plugin, "name" | "address" | "header">,
  context: SourceContext,
): PluginSource {
  const address = plugin.address.trim();
  if (/^https?:\/\//i.test(address)) {
    return {
      name: plugin.name,
      address,
      header: plugin.header,
      key: context.key,
      allowPrivate: context.allowPrivate,
      lookup: context.lookup,
      localOnly: context.localOnly,
    };
  }
  if (!/^stdio:/i.test(address) && /^[a-z0-9][a-z0-9-]*(\.[a-z0-9-]+)+(:\d+)?(\/\S*)?$/i.test(address)) {
    return sourceOf({ ...plugin, address: `https://${address}` }, context);
  }
  const [command, ...args] = splitCommand(address.replace(/^stdio:/i, ""));
  if (!command) throw new Error("the plugin has no address or command");
  return {
    name: plugin.name,
    command,
    args,
    cwd: context.cwd,
    trusted: context.trusted,
    approveStart: context.approveStart,
  };
}
