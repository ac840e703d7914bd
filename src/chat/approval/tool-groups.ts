/**
 * Tools by group, and their short forms for small windows. The core tools (read, list, search,
 * edit, create, run) go with every request; the others belong to a group the model opens with
 * `open_tools` when the task needs them, and VS Code's and the plugins' tools are sent only when
 * the person chose them (or the model opened their group). No zod: the editor layer imports this.
 */
import type { Tool } from "../../agent/types";
import { argsOrEmpty } from "../../protocol/args";
import { listed } from "./tool-lists";

/** The name of the tool that opens a group of tools. */
export const OPEN_TOOLS = "open_tools";

/** The name of the tool that starts read-only subagents (src/chat/runner/delegate.ts). */
export const DELEGATE = "delegate";

/** The group of VS Code's own tools (`vscode.lm.tools`) and of the MCP plugins' tools. */
export const VSCODE_GROUP = "vscode";
export const PLUGINS_GROUP = "plugins";

/** A tool as the fitting sees it: its group when the editor gave one, and a short form of its own. */
export interface Grouped extends Tool {
  /** Where the tool comes from when it is not Tandem's: VS Code's tools, a plugin's. */
  group?: string;
  /** A shorter description (and schema) than the tool's, for small windows. */
  short?: { description: string; parameters?: Record<string, unknown> };
}

/** `tool` as one of the group `group` (VS Code's tools, the plugins'). */
export function inGroup(tool: Tool, group: string): Grouped {
  return { ...tool, group };
}

/** The core tools, in the order they are offered, with the description a small window gets. */
const CORE: Record<string, { description: string; keep: string[] }> = {
  read_file: {
    description: "Reads a workspace file (path relative to the root).",
    keep: ["path", "startLine"],
  },
  list_files: { description: "Lists workspace files matching a glob such as src/**/*.ts.", keep: ["glob"] },
  search_text: {
    description: "Finds lines containing a text in the workspace's files.",
    keep: ["query", "glob"],
  },
  propose_edit: {
    description:
      "Changes a file: oldText (copied exactly from the file) becomes newText. The person reviews it.",
    keep: ["path", "oldText", "newText"],
  },
  create_file: {
    description: "Writes a new file with its whole content. The person reviews it.",
    keep: ["path", "content"],
  },
  run_command: {
    description: "Runs a shell command line in the workspace; the person is asked first.",
    keep: ["command"],
  },
};

/** Tandem's other tools by the group that opens them. */
const GROUPS: Record<string, string> = {
  open_file: "code",
  problems: "code",
  definition: "code",
  references: "code",
  symbols: "code",
  git_diff: "git",
  fetch_page: "web",
  read_output: "commands",
  stop_command: "commands",
  update_plan: "plan",
  remember: "memory",
  [DELEGATE]: "agents",
};

/** What a group is for, as open_tools' description says it. */
const PURPOSES: Record<string, string> = {
  code: "problems, definitions, references, symbols",
  git: "the git diff",
  web: "fetch a web page",
  commands: "background commands",
  plan: "a checklist plan",
  memory: "remember a fact about the person",
  agents: "read-only subagents that read and report",
  [VSCODE_GROUP]: "VS Code's own tools",
  [PLUGINS_GROUP]: "the MCP plugins' tools",
  other: "more tools",
};

/** True for the tools that go with run_command when it is sent as written (its background commands). */
export function withCommands(name: string): boolean {
  return GROUPS[name] === "commands";
}

/** True for the tools every request carries. */
export function isCore(name: string): boolean {
  return Object.hasOwn(CORE, name) || name === "load_skill" || name === OPEN_TOOLS;
}

/** The group of `tool`: "" for a core tool, else its editor group or Tandem's group of its name. */
export function groupOf(tool: Grouped): string {
  if (tool.group) return tool.group;
  if (isCore(tool.name)) return "";
  return Object.hasOwn(GROUPS, tool.name) ? GROUPS[tool.name] : "other";
}

/** True when `tool` is VS Code's or a plugin's and the person did not choose it (names and `prefix*` by commas). */
export function unchosen(tool: Grouped, chosen: string): boolean {
  return (tool.group === VSCODE_GROUP || tool.group === PLUGINS_GROUP) && !listed(tool.name, chosen);
}

/** How far a tool is shortened: as written, without the schema's words, or with only what is needed. */
export type Form = "full" | "short" | "minimal";

/** The JSON Schema `schema` without its descriptions, defaults and bounds; `keep` lists the properties kept (all when undefined). */
export function compactSchema(
  schema: Record<string, unknown>,
  keep?: readonly string[],
): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (
      [
        "description",
        "default",
        "minimum",
        "maximum",
        "minLength",
        "maxLength",
        "title",
        "examples",
        "$schema",
        "additionalProperties",
      ].includes(key)
    )
      continue;
    if (key === "properties" && value && typeof value === "object") {
      const properties: Record<string, unknown> = {};
      const required = Array.isArray(schema.required) ? (schema.required as unknown[]) : [];
      for (const [name, property] of Object.entries(value as Record<string, unknown>)) {
        if (keep && !keep.includes(name) && !required.includes(name)) continue;
        properties[name] =
          property && typeof property === "object"
            ? compactSchema(property as Record<string, unknown>)
            : property;
      }
      out.properties = properties;
    } else if (key === "items" && value && typeof value === "object" && !Array.isArray(value)) {
      out.items = compactSchema(value as Record<string, unknown>);
    } else out[key] = value;
  }
  return out;
}

/** The first sentence of `text`, at most `chars` long. */
function firstSentence(text: string, chars: number): string {
  const flat = text.replace(/\s+/g, " ").trim();
  const end = flat.search(/[.!?](\s|$)/);
  const sentence = end >= 0 ? flat.slice(0, end + 1) : flat;
  return sentence.length > chars ? `${sentence.slice(0, chars - 1)}…` : sentence;
}

/** `tool` in the form `form`: its description and schema shortened, everything else (its run, approval) kept. */
export function shortened(tool: Grouped, form: Form): Grouped {
  if (form === "full") return tool;
  const core = Object.hasOwn(CORE, tool.name) ? CORE[tool.name] : undefined;
  const description = tool.short?.description ?? core?.description ?? firstSentence(tool.description, 120);
  const properties = Object.keys((tool.parameters.properties as Record<string, unknown> | undefined) ?? {});
  // A background command needs read_output and stop_command, which a short form does not send.
  const keep =
    form === "minimal"
      ? (core?.keep ?? [])
      : tool.name === "run_command"
        ? properties.filter((p) => p !== "background")
        : undefined;
  const parameters = tool.short?.parameters ?? compactSchema(tool.parameters, keep);
  return { ...tool, description, parameters };
}

/** The tools of `tools` by group, in the order first met. */
export function byGroup(tools: readonly Grouped[]): Map<string, Grouped[]> {
  const out = new Map<string, Grouped[]>();
  for (const tool of tools) {
    const group = groupOf(tool);
    out.set(group, [...(out.get(group) ?? []), tool]);
  }
  return out;
}

/**
 * The `open_tools` tool over the groups `closed` (each group's tools not sent yet): its
 * description lists each group with its purpose and tools, so a small model sees what it can
 * open (in a short form, the tools' names only, and how many a large group has);
 * `open(tools)` makes the tools join the next request and says which did and which did not fit.
 */
export function openTools(
  closed: ReadonlyMap<string, readonly Grouped[]>,
  open: (tools: Grouped[]) => string,
  form: Form = "full",
): Tool {
  const named = form === "full" ? 6 : 3;
  const lines = [...closed].map(([group, tools]) => {
    const names = tools.map((t) => t.name);
    const shown =
      names.slice(0, named).join(", ") + (names.length > named ? ` and ${names.length - named} more` : "");
    return form === "full"
      ? `${group}: ${PURPOSES[group] ?? PURPOSES.other} (${shown})`
      : `${group} (${shown})`;
  });
  return {
    name: OPEN_TOOLS,
    description:
      form === "full"
        ? "Gives you more tools, from your next step on. Call it with a group's name (or one tool's name) when the task needs them. Groups:\n" +
          lines.join("\n")
        : `Gives you more tools from your next step on: name a group or a tool. Groups: ${lines.join("; ")}.`,
    parameters: { type: "object", properties: { name: { type: "string" } }, required: ["name"] },
    readOnly: true,
    async run(args) {
      const name = readName(args);
      const all = [...closed.values()].flat();
      const group = closed.get(name);
      const chosen = group ? [...group] : all.filter((t) => t.name === name);
      if (!chosen.length)
        throw new Error(
          `There is no group or tool named "${name}". The groups are: ${[...closed.keys()].join(", ")}.`,
        );
      return open(chosen);
    },
  };
}

/** The `name` argument of an open_tools call ("" when there is none). */
function readName(args: string): string {
  const name = argsOrEmpty(args).name;
  return typeof name === "string" ? name.trim() : "";
}
