/**
 * What an MCP tool looks like to the agent: its name (prefixed by its plugin's, in the characters
 * model APIs accept), its input schema, and its result as the text the model reads.
 */

import { createHash } from "node:crypto";
import type { ContentBlock, CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import type { Tool } from "../../agent/types";

/** The longest tool name model APIs accept. */
export const NAME_LIMIT = 64;

/** The longest text a tool result gives the model (the rest is cut with a note). */
export const RESULT_LIMIT = 100_000;

/** NAME in the characters model APIs accept (`^[a-zA-Z0-9_-]{1,64}$`). */
export function sanitised(name: string): string {
  const clean = name.replace(/[^a-zA-Z0-9_-]/g, "_");
  if (clean.length === 0) return "_";
  if (clean.length <= NAME_LIMIT) return clean;
  // A cut name keeps a hash of the whole so two long names stay apart.
  const hash = createHash("sha256").update(name).digest("hex").slice(0, 8);
  return `${clean.slice(0, NAME_LIMIT - 9)}_${hash}`;
}

/**
 * The agent's names of TOOLS of the plugin PLUGIN: `<plugin>_<tool>`, sanitised, each distinct
 * (a name taken by an earlier tool gets `_2`, `_3`…).
 */
export function toolNames(plugin: string, tools: string[]): string[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    const base = sanitised(`${plugin}_${tool}`);
    let name = base;
    for (let n = 2; taken.has(name); n++) {
      const suffix = `_${n}`;
      name = `${base.slice(0, NAME_LIMIT - suffix.length)}${suffix}`;
    }
    taken.add(name);
    return name;
  });
}

/**
 * TOOLS gathered from several plugins, each named distinctly: a name an earlier tool took gets
 * `_2`, `_3`… A tool whose name is kept is the same object.
 */
export function distinctNames(tools: Tool[]): Tool[] {
  const taken = new Set<string>();
  return tools.map((tool) => {
    let name = tool.name;
    for (let n = 2; taken.has(name); n++) name = `${tool.name.slice(0, 60)}_${n}`;
    taken.add(name);
    return name === tool.name ? tool : { ...tool, name };
  });
}

/** The tool's input schema as a model API takes it: an object schema without `$schema`. */
export function parametersOf(schema: Record<string, unknown> | undefined): Record<string, unknown> {
  const { $schema: _schema, ...rest } = schema ?? {};
  return { ...rest, type: "object", properties: rest.properties ?? {} };
}

/** The size of base64 DATA in readable units. */
function sizeOf(data: string): string {
  const bytes = Math.floor((data.length * 3) / 4);
  return bytes < 1024 ? `${bytes} bytes` : `${Math.round(bytes / 1024)} KB`;
}

/** One content block as text: text as is, the rest summarised in brackets. */
function textOf(block: ContentBlock): string {
  switch (block.type) {
    case "text":
      return block.text;
    case "image":
      return `[image: ${block.mimeType}, ${sizeOf(block.data)}]`;
    case "audio":
      return `[audio: ${block.mimeType}, ${sizeOf(block.data)}]`;
    case "resource_link":
      return `[resource link: ${block.name} ${block.uri}${block.description ? ` — ${block.description}` : ""}]`;
    case "resource": {
      const resource = block.resource;
      const type = resource.mimeType ? `, ${resource.mimeType}` : "";
      if ("text" in resource && typeof resource.text === "string") {
        return `[resource: ${resource.uri}${type}]\n${resource.text}`;
      }
      const blob =
        "blob" in resource && typeof resource.blob === "string" ? `, ${sizeOf(resource.blob)}` : "";
      return `[resource: ${resource.uri}${type}${blob}]`;
    }
    default:
      return `[${(block as { type: string }).type}]`;
  }
}

/** TEXT cut to RESULT_LIMIT characters, saying so. */
function limited(text: string): string {
  if (text.length <= RESULT_LIMIT) return text;
  return `${text.slice(0, RESULT_LIMIT)}\n[… ${text.length - RESULT_LIMIT} more characters cut]`;
}

/**
 * The text the model reads for RESULT: its content blocks joined (images and resources
 * summarised), else its structured content as JSON. Throws with that text when `isError`.
 */
export function resultText(result: CallToolResult | { toolResult: unknown }): string {
  if ("toolResult" in result) return limited(JSON.stringify(result.toolResult));
  const content = Array.isArray(result.content) ? result.content : [];
  let text = content.map(textOf).join("\n");
  if (text === "" && result.structuredContent !== undefined) text = JSON.stringify(result.structuredContent);
  if (result.isError) throw new Error(text === "" ? "the tool failed without saying why" : limited(text));
  return limited(text);
}
