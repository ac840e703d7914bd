/**
 * What starting a prompt file gives an answer: its text with the arguments filled in, and what its
 * front matter may change. A prompt file is text for the model: it may only narrow the tools (its
 * `tools`, or a `mode` that reads only) and choose among the person's own models. It can never
 * allow a tool, choose where requests go or set a key; what it asked for and did not get is said.
 */

import path from "node:path";
import { t } from "../../protocol/l10n";
import type { PromptFile } from "./prompt-files";

/** What a prompt file narrows an answer's tools to, as the person's message keeps it. */
export interface PromptTools {
  /** The only tools offered (Tandem's names, or as a plugin or VS Code names them); absent: as usual. */
  tools?: string[];
  /** True: only tools that read are offered (a `mode` of ask or plan). */
  readOnly?: boolean;
  /** True: no tool that runs commands is offered (`mode: edit`). */
  noCommands?: boolean;
}

/** What starting a prompt file gives the answer. */
export interface PromptUse extends PromptTools {
  /** What the model is given: where the text comes from, and the text with its arguments. */
  text: string;
  /** The id of the person's model it chose (undefined: the conversation's). */
  model?: string;
  /** What the file asked for and did not get, in words for the person. */
  notes: string[];
}

/** What the editor holds that a prompt file's variables may name. */
export interface PromptVariables {
  /** The workspace folder's path. */
  workspaceFolder?: string;
  /** The active editor's file, and its selected text. */
  file?: string;
  selection?: string;
}

/** The tools the names of VS Code's and Claude Code's prompt files mean, by Tandem's names. */
const TOOL_NAMES: Record<string, string[]> = {
  codebase: ["read_file", "list_files", "search_text", "symbols", "definition", "references"],
  search: ["search_text", "list_files"],
  read: ["read_file", "list_files"],
  readfile: ["read_file"],
  grep: ["search_text"],
  glob: ["list_files"],
  usages: ["references", "definition"],
  problems: ["problems"],
  testfailure: ["problems"],
  changes: ["git_diff"],
  edit: ["propose_edit", "create_file"],
  editfiles: ["propose_edit", "create_file"],
  new: ["create_file"],
  write: ["create_file", "propose_edit"],
  multiedit: ["propose_edit"],
  runcommands: ["run_command", "read_output", "stop_command"],
  runinterminal: ["run_command", "read_output", "stop_command"],
  terminallastcommand: ["read_output"],
  runtasks: ["run_command", "read_output", "stop_command"],
  runtests: ["run_command", "read_output", "stop_command"],
  bash: ["run_command", "read_output", "stop_command"],
  fetch: ["fetch_page"],
  webfetch: ["fetch_page"],
};

/** Tandem's own tools an answer keeps whatever a prompt file names: they change nothing outside it. */
const KEPT_TOOLS = ["update_plan", "load_skill", "open_tools"];

/** The tools that run commands, which `mode: edit` leaves out. */
const COMMAND_TOOLS = TOOL_NAMES.runcommands;

/** Front matter keys that ask for what a file cannot have: approvals, addresses, keys. */
const REFUSED_KEYS = [
  "allowed-tools",
  "approve",
  "approval",
  "auto-approve",
  "autoapprove",
  "endpoint",
  "baseurl",
  "base_url",
  "url",
  "apikey",
  "api_key",
  "api-key",
];

/** The items of a front matter list: `[a, 'b']`, `a, b` or one per line (`- a`). */
export function listOf(value: string): string[] {
  const inner = value.trim().replace(/^\[|\]$/g, "");
  return inner
    .split(/[,\n]|\s+-\s+/)
    .map((v) =>
      v
        .trim()
        .replace(/^-\s*/, "")
        .replace(/^['"]|['"]$/g, "")
        .trim(),
    )
    .filter(Boolean);
}

/** ARGS split as a shell would split words (quotes keep spaces); `name=value` words apart. */
function words(args: string): { positional: string[]; named: Map<string, string> } {
  const positional: string[] = [];
  const named = new Map<string, string>();
  for (const match of args.matchAll(/(?:([A-Za-z_][\w-]*)=)?(?:"([^"]*)"|'([^']*)'|(\S+))/g)) {
    const value = match[2] ?? match[3] ?? match[4] ?? "";
    if (match[1]) named.set(match[1], value);
    else positional.push(value);
  }
  return { positional, named };
}

/**
 * BODY with ARGS filled in: Claude Code's `$ARGUMENTS` and `$1`…`$9`, VS Code's `${input:name}` and
 * `${input:name:placeholder}` (from `name=value`, or all the arguments when the file has one input),
 * and the editor's `${workspaceFolder}`, `${file}`, `${selection}` and their kin.
 */
export function filledIn(body: string, args: string, variables: PromptVariables = {}): string {
  const { positional, named } = words(args);
  const inputs = new Set([...body.matchAll(/\$\{input:([\w-]+)(?::[^}]*)?\}/g)].map((m) => m[1]));
  const editor: Record<string, string | undefined> = {
    workspaceFolder: variables.workspaceFolder,
    workspaceFolderBasename: variables.workspaceFolder && path.basename(variables.workspaceFolder),
    file: variables.file,
    fileBasename: variables.file && path.basename(variables.file),
    fileDirname: variables.file && path.dirname(variables.file),
    fileBasenameNoExtension: variables.file && path.parse(variables.file).name,
    selection: variables.selection,
    selectedText: variables.selection,
  };
  return body
    .replace(/\$ARGUMENTS\b/g, () => args)
    .replace(/\$([1-9])(?!\d)/g, (all, n: string) => positional[Number(n) - 1] ?? "")
    .replace(/\$\{input:([\w-]+)(?::([^}]*))?\}/g, (all, name: string, placeholder?: string) => {
      const given = named.get(name) ?? (inputs.size === 1 && named.size === 0 && args ? args : undefined);
      // Words for the model, in the language of its instructions.
      return given ?? `[${placeholder?.trim() || name} not given: ask the person]`;
    })
    .replace(/\$\{(\w+)\}/g, (all, name: string) => (name in editor ? (editor[name] ?? "") : all));
}

/** The person's model a prompt file's `model` names (by id or name, any case), or undefined. */
function modelNamed(value: string, models: readonly { id: string; name: string }[]): string | undefined {
  const wanted = value
    .replace(/\s*\([^)]*\)\s*$/, "")
    .trim()
    .toLowerCase();
  const found = models.find((m) => m.id.toLowerCase() === wanted || m.name.toLowerCase() === wanted);
  return found?.id;
}

/**
 * What starting PROMPT with ARGS gives: MODELS are the person's own (a file chooses only among them);
 * the tools it names are kept for the answer, which offers only those of them it offers anyway.
 */
export function usePrompt(
  prompt: PromptFile,
  args: string,
  models: readonly { id: string; name: string }[],
  variables: PromptVariables = {},
): PromptUse {
  const notes: string[] = [];
  const file = `/${prompt.name} (${prompt.shown})`;
  for (const key of REFUSED_KEYS) {
    const value = prompt.keys.get(key);
    if (value === undefined) continue;
    notes.push(
      key === "allowed-tools"
        ? t(
            "{0} asks to allow {1} without asking. A prompt file cannot allow a tool: each call asks as your settings say.",
            file,
            listOf(value).join(", ") || value,
          )
        : t(
            "{0} asks to set {1}. A prompt file cannot set approvals, addresses or keys: it was left out.",
            file,
            key,
          ),
    );
  }
  let model: string | undefined;
  const wanted = prompt.keys.get("model")?.trim();
  if (wanted && /:\/\/|^[\w.-]+:\d+/.test(wanted)) {
    notes.push(t("{0} names the address {1}. A prompt file cannot choose where requests go.", file, wanted));
  } else if (wanted) {
    model = modelNamed(wanted, models);
    if (!model)
      notes.push(
        t("{0} asks for the model {1}, which is not one of yours: the chosen model answers.", file, wanted),
      );
  }
  const use: PromptUse = { text: "", model, notes };
  const mode = (prompt.keys.get("mode") ?? prompt.keys.get("agent") ?? "").trim().toLowerCase();
  if (mode === "ask" || mode === "plan") use.readOnly = true;
  if (mode === "edit") use.noCommands = true;
  if (mode && !["ask", "plan", "edit", "agent"].includes(mode))
    notes.push(t("{0} asks for the mode {1}, which Tandem does not have: it answers as usual.", file, mode));
  const listed = prompt.keys.get("tools");
  if (listed !== undefined)
    use.tools = [
      ...new Set([...listOf(listed).flatMap((n) => TOOL_NAMES[n.toLowerCase()] ?? [n]), ...KEPT_TOOLS]),
    ];
  const filled = filledIn(prompt.body, args, variables);
  const intro = args
    ? `The person started the prompt file ${file} with: ${args}`
    : `The person started the prompt file ${file}.`;
  use.text = `${intro}\n\n${filled}`;
  return use;
}

/** Of TOOLS (what the answer offers anyway), those a prompt file's NARROWING leaves: never one more. */
export function narrowed<T extends { name: string; readOnly: boolean }>(
  tools: readonly T[],
  narrowing?: PromptTools,
): T[] {
  if (!narrowing) return [...tools];
  return tools.filter(
    (tool) =>
      (!narrowing.tools || narrowing.tools.includes(tool.name)) &&
      (!narrowing.readOnly || tool.readOnly) &&
      (!narrowing.noCommands || !COMMAND_TOOLS.includes(tool.name)),
  );
}
