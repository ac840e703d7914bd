/**
 * The one approval engine: for each tool call it says whether it is allowed by rule, needs the
 * person, or is refused. How the person is asked is each face's (the runner's: runner/approve.ts).
 */
import type { Tool } from "../../agent/types";
import type { CommandRuleBook, Folder, Sandboxing } from "../workspace";
import { listed, names } from "./tool-lists";
import { ALWAYS_ASK } from "../workspace";

export { listed, names };

/** What the engine says of a call: it runs, it waits for the person, or it does not run. */
export type ApprovalVerdict = "allowed" | "ask" | "refused";

/** The person's own rule for a tool (the `tandem.approval` setting): wait for them, or run without asking. */
export type Setting = "ask" | "allow";

/** The rules one conversation's calls are judged by. */
export interface Rules {
  /** The tools the assistant may use, by commas ("" all of them). */
  tools: string;
  /** The tools that wait for the person before they run, by commas. */
  approve: string;
  /** The tools the person allowed for this conversation ("always"). */
  always: ReadonlySet<string>;
  /** False in an untrusted workspace: tools that write or run are refused. */
  trusted: boolean;
  /** Tools asked about on every call, whatever "always" said (default: the workspace's, such as run_command). */
  askEvery?: ReadonlySet<string>;
  /** The person's per-tool settings (`tandem.approval`); never a workspace's. */
  settings?: Readonly<Record<string, Setting>>;
  /** The hosts fetch_page may reach without asking in this conversation (the person allowed them). */
  hosts?: ReadonlySet<string>;
  /** What the person wrote in this conversation: a URL they named counts as their yes to its host. */
  said?: readonly string[];
  /** The workspace folder, where protected paths are looked for (with one folder; see `folders`). */
  root?: string;
  /** Every folder of the workspace, named as the tools name them: each path is guarded in its own. */
  folders?: readonly Folder[];
  /** The person's allow and deny rules for run_command (kept in their own settings, never a workspace's). */
  commands?: CommandBook;
  /** Whether commands run in a sandbox (default: this machine's answer, see sandbox.ts): rules apply only inside one. */
  sandbox?: Sandboxing;
}

/** The person's command rules, and which of their allow rules let the command reach the network. */
export interface CommandBook extends CommandRuleBook {
  /** The allow rules whose commands may reach the network (`network` in the setting); default none. */
  networked?(): readonly string[];
}

/**
 * What the person answers: yes, no, yes to what "Always allow" offered for this conversation
 * (the tool, or the host of a fetch), or, for a command, yes with the network reachable from its
 * sandbox. The one answer type of every face: panel, notification, `@tandem`, plugins.
 */
export type Decision = boolean | "always" | "network";

/** True when the assistant may use the tool `name` (`tools` "" is all of them). */
export function allowedTool(name: string, tools: string): boolean {
  return names(tools).length === 0 || listed(name, tools);
}

/** Tools whose every call is judged by its input although they only read: a fetch sends its address out. */
export const JUDGED = new Set(["fetch_page"]);

/** True when "Always allow" or an `allow` setting may let calls of `name` by (never run_command's). */
export function coverable(name: string, rules: Pick<Rules, "askEvery">): boolean {
  return !(rules.askEvery ?? ALWAYS_ASK).has(name);
}

/**
 * The verdict on a call of `tool`, by its name alone: a tool the assistant may not use, or one that
 * writes in an untrusted workspace, is refused; one the assistant lists under `approve` or the
 * person's setting says `ask` for, or one that writes or runs (not read-only), needs the person
 * unless they allowed it for this conversation or set it to `allow` (a tool of `askEvery` is asked
 * about every time); a read-only tool is allowed. `judge` (judge.ts) adds what the input says.
 */
export function verdict(tool: Pick<Tool, "name" | "readOnly">, rules: Rules): ApprovalVerdict {
  if (!allowedTool(tool.name, rules.tools)) return "refused";
  if (!tool.readOnly && !rules.trusted) return "refused";
  const setting = rules.settings?.[tool.name];
  if (coverable(tool.name, rules) && (rules.always.has(tool.name) || setting === "allow")) return "allowed";
  if (listed(tool.name, rules.approve) || setting === "ask" || !tool.readOnly) return "ask";
  return "allowed";
}

/**
 * The tools an assistant is offered under `rules`: those it may use, minus those that would be
 * refused (an untrusted workspace offers no tool that writes), each marked not read-only when a
 * call of it may need the person, so the run asks the engine before every call of it.
 */
export function offered(tools: Tool[], rules: Rules): Tool[] {
  const out: Tool[] = [];
  for (const tool of tools) {
    const said = verdict(tool, { ...rules, always: new Set(), settings: {} });
    if (said === "refused") continue;
    const judged = said === "ask" || JUDGED.has(tool.name) || rules.settings?.[tool.name] === "ask";
    out.push(judged && tool.readOnly ? { ...tool, readOnly: false } : tool);
  }
  return out;
}

/** What the person is asked about one call, as every face shows it (see judge.ts `questionOf`). */
export interface Question {
  /** The whole question: the call, never cut, hidden characters written out, and why it is asked. */
  text: string;
  /** Its first line, short enough for a notification; `text` is shown whole before any yes when `long`. */
  short: string;
  /** The text does not fit a one-line notification, or the call hides characters: show it whole first. */
  long: boolean;
  /** The label of "Always allow" (what it would allow), or undefined where it cannot apply: not offered. */
  always?: string;
  /** The label of "Allow with network" for a command that runs in the sandbox; undefined: not offered. */
  network?: string;
}
