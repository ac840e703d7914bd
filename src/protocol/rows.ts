/**
 * The rows of Tandem's conversation tables as the panel sees them: plain types, no runtime code, so
 * the webview bundle can import them. They mirror the stored rows field for field (src/chat); a
 * plugin's key is never in a row (it stays in the editor's secret storage), only whether one is set.
 */
import type { FileRef } from "./file-refs";

/** An agent a person talks to; `tools` and `approve` are tool names by commas (`tools` "" is all). */
export interface Assistant {
  id: string;
  name: string;
  instructions: string;
  /** "" is the default model. */
  model: string;
  tools: string;
  approve: string;
  /**
   * Absent: this workspace's; "repository": a `.tandem/assistants/*.md` file of the repository;
   * "user": the person's own, kept for every workspace.
   */
  source?: "repository" | "user";
  /** "plan": its new conversations start in Plan mode; absent: as usual. */
  mode?: "plan";
}

/** A conversation with the assistant `agent`. */
export interface Conversation {
  id: string;
  agent: string;
  title: string;
  /** False when the person switched the project's instructions off for it (absent: on). */
  instructions?: boolean;
  /** "plan" while it is in Plan mode: its answers only read, and end with a plan (absent: as usual). */
  mode?: "plan";
}

/** What an item is: the person's message, the answer, its reasoning, a tool call, the plan, a failure, or a wish. */
export type ItemKind =
  | "user"
  | "text"
  | "reasoning"
  | "call"
  | "plan"
  | "error"
  | "retry"
  | "stop"
  /** Where the model's view was condensed; its text is the summary the model wrote. */
  | "summary";

/** The name of an error item that is a notice: the model server cut a prompt without a word (its text says the fix). */
export const CUT_NOTICE = "window";

/** The names of an error item that says which limit ended a run (the core's `Limit`): a note, and Continue goes on. */
export const LIMIT_NOTES: readonly string[] = ["rounds", "tokens", "time", "repeats", "output"];

/** The name of an error item that is something the run said beside the model's words (a setting it could not apply). */
export const RUN_NOTE = "note";

/** Whether an error item is a notice to the person (a note, a limit, a cut prompt), not a failure. */
export function isNotice(item: { kind: string; name: string }): boolean {
  return (
    item.kind === "error" &&
    (item.name === RUN_NOTE || item.name === CUT_NOTICE || LIMIT_NOTES.includes(item.name))
  );
}

/** Tokens read (`cached` of them from the provider's cache) and written, and their cost in US dollars when known. */
export interface Usage {
  input: number;
  output: number;
  cached: number;
  cost?: number;
}

/**
 * What became of a tool call ("" for other kinds); "interrupted" marks an answer or call that a
 * restart cut short.
 */
export type ItemState =
  "" | "running" | "approval" | "approved" | "declined" | "done" | "failed" | "interrupted";

/** A project instructions file an answer was given (its note says when it was cut), or one left out and why. */
export interface InstructionNote {
  path: string;
  given: boolean;
  note: string;
}

/** One step of a subagent's transcript: a tool it called (input, result) or what it wrote ("" name). */
export interface SubagentStep {
  kind: "call" | "text";
  name: string;
  input: string;
  text: string;
  failed: boolean;
}

/** A read-only subagent a `delegate` call started: its task, model ("" the answer's), state, rounds, usage, transcript and report. */
export interface Subagent {
  task: string;
  model: string;
  state: "running" | "done" | "failed" | "stopped";
  rounds: number;
  usage: Usage;
  steps: SubagentStep[];
  report: string;
}

/** One entry of a conversation's log, in the order of its key. */
export interface Item {
  id: string;
  chat: string;
  kind: ItemKind;
  text: string;
  name: string;
  input: string;
  output: string;
  file: string;
  files: FileRef[];
  model: string;
  state: ItemState;
  done: boolean;
  /** On an answer's last text item: the tokens and cost of the whole answer. */
  usage?: Usage;
  /** On a `delegate` call: the subagents it started. */
  subagents?: Subagent[];
  /** On an answer's first item: the project instructions files it was given. */
  instructions?: InstructionNote[];
  /** On a call waiting for the person: the label of "Always allow" its question offers (absent: not offered). */
  always?: string;
  /** On a command waiting for the person that runs sandboxed: the label of "Allow with Network" (absent: not offered). */
  network?: string;
  /** On a copy (a forked conversation's items): the item it copies, where that item was first written. */
  copiedFrom?: { chat: string; item: string };
  /** On a message that started a prompt file (`/name`): its name and what it narrows the tools to. */
  prompt?: { name: string; tools?: string[]; readOnly?: boolean; noCommands?: boolean };
}

/** An MCP server whose tools the assistant `agent` may use; `secret` says whether a key is kept. */
export interface Plugin {
  id: string;
  agent: string;
  /** Its tools' prefix. */
  name: string;
  /** An http(s) address, or the command line of a stdio server. */
  address: string;
  /** The header that carries its key ("" none). */
  header: string;
  secret: boolean;
  enabled: boolean;
  /** What the last run found: its tool count, or why it could not be read. */
  status: string;
}

/** How to do one kind of work (a SKILL.md). */
export interface Skill {
  id: string;
  name: string;
  /** When to use it, in a sentence. */
  description: string;
  /** Its instructions, in Markdown. */
  body: string;
}

/**
 * Where a memory came from: an answer in the conversation `chat` (titled `title` then), the person
 * on the Memory page, or "" not known (kept before Tandem noted where).
 */
export interface MemorySource {
  from: "" | "conversation" | "person";
  chat: string;
  title: string;
}

/** What an assistant keeps of the person, for every conversation of this workspace with it. */
export interface Memory {
  id: string;
  agent: string;
  text: string;
  /** Milliseconds since the epoch. */
  created: number;
  source: MemorySource;
}

/** How full the model's context of conversation `id` was at its last turn, in tokens. */
export interface Context {
  id: string;
  /** Tokens of what the model was last sent (its condensed view) and wrote. */
  used: number;
  window: number;
  /** What the conversation's answers took and cost in all. */
  total?: Usage;
  /** Tokens of what every request carries (instructions and tool schemas), as last fitted. */
  fixed?: number;
}

/** A model a person can choose, listed under `group` (where it runs). */
export interface Choice {
  id: string;
  name: string;
  group: string;
  note: string;
}

/** A page a tool read. */
export interface Source {
  title: string;
  url: string;
}

/** A source as its chip shows it: the first letter of its site, the site and the page's title. */
export interface Chip {
  letter: string;
  site: string;
  title: string;
  url: string;
}

/** The tables a panel follows, by name. */
export interface Tables {
  assistants: Assistant;
  conversations: Conversation;
  items: Item;
  plugins: Plugin;
  skills: Skill;
  memories: Memory;
  contexts: Context;
  choices: Choice;
}

/** The name of a table the panel follows. */
export type TableName = keyof Tables;
