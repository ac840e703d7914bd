/**
 * The rows of Tandem's conversation tables, as zod schemas and the TypeScript types they give.
 * Every row that enters the store is checked against its table's schema; a row that does not
 * read as its table's is refused before anything is written.
 */
import { z } from "zod";
import { legacyFiles } from "../protocol/file-refs";

/** A row's key: a non-empty line of text (the store writes it on one journal line). */
const key = z
  .string()
  .min(1, "a key is not empty")
  .max(512, "a key is at most 512 characters")
  .refine((k) => !/[\r\n]/.test(k), "a key is one line");

/** A count of tokens or milliseconds: a whole number, not negative. */
const count = z.number().int().nonnegative();

/** The modes a conversation can be in besides the usual one. */
export const MODES = ["plan"] as const;
export type Mode = (typeof MODES)[number];

/** An agent a person talks to; `tools` and `approve` are tool names by commas (`tools` "" is all). */
export const assistantRow = z.strictObject({
  id: key,
  name: z.string().max(80, "an agent's name is at most 80 characters"),
  instructions: z.string(),
  /** The model it answers with ("" the default). */
  model: z.string(),
  tools: z.string(),
  approve: z.string(),
  /**
   * Where it comes from: absent, this workspace's table; "repository", a `.tandem/assistants/*.md`
   * file (never stored: read at each use, and it may only narrow the person's tools); "user", the
   * person's own for every workspace (kept in the extension's global storage, see person-assistants).
   */
  source: z.optional(z.enum(["repository", "user"])),
  /** "plan": its new conversations start in Plan mode (the person can switch each out of it); absent: as usual. */
  mode: z.optional(z.enum(MODES)),
});
export type Assistant = z.infer<typeof assistantRow>;

/** A conversation with the agent `agent`; its title is the first words until an answer names it. */
export const conversationRow = z.strictObject({
  id: key,
  agent: z.string(),
  title: z.string(),
  /** False when the person switched the project's instructions off for it (absent: on). */
  instructions: z.optional(z.boolean()),
  /** "plan" while it is in Plan mode: its answers only read, and end with a plan (absent: as usual). */
  mode: z.optional(z.enum(MODES)),
});
export type Conversation = z.infer<typeof conversationRow>;

/** The kinds of item in a conversation's log. */
export const KINDS = [
  "user",
  "text",
  "reasoning",
  "call",
  "plan",
  "error",
  "retry",
  "stop",
  "summary",
] as const;
export type Kind = (typeof KINDS)[number];

/**
 * The states of a call item ("" for other kinds). "interrupted" marks an answer or call a crash
 * cut short, so the person sees it and may ask again; nothing is answered twice by itself.
 */
export const STATES = [
  "",
  "running",
  "approval",
  "approved",
  "declined",
  "done",
  "failed",
  "interrupted",
] as const;
export type State = (typeof STATES)[number];

/** A file attached to a message. */
const fileRefRow = z.strictObject({
  path: z.string().min(1),
  name: z.string(),
  kind: z.enum(["image", "pdf", "text"]),
});

/**
 * The tokens of one answer or of a whole conversation: read (`input`, of which `cached` came from
 * the provider's prompt cache) and written (`output`), and what they cost in US dollars when the
 * model's prices are known.
 */
export const usageSchema = z.strictObject({
  input: count,
  output: count,
  cached: count,
  cost: z.optional(z.number().nonnegative()),
});
export type Usage = z.infer<typeof usageSchema>;

/** One step of a subagent's transcript: a tool it called (its input and what came back) or what it wrote. */
export const subagentStep = z.strictObject({
  kind: z.enum(["call", "text"]),
  /** The tool called ("" for text). */
  name: z.string(),
  input: z.string(),
  /** The call's result (cut to a few thousand characters) or the text written. */
  text: z.string(),
  failed: z.boolean(),
});
export type SubagentStep = z.infer<typeof subagentStep>;

/**
 * A read-only subagent a `delegate` call started: its task, the catalogue id of its model ("" the
 * answer's own), how it ended, its rounds (model turns), tokens and cost, its transcript and report.
 */
export const subagentRow = z.strictObject({
  task: z.string(),
  model: z.string(),
  state: z.enum(["running", "done", "failed", "stopped"]),
  rounds: count,
  usage: usageSchema,
  steps: z.array(subagentStep),
  report: z.string(),
});
export type Subagent = z.infer<typeof subagentRow>;

/**
 * A project instructions file an answer was given (`given`, its `note` saying when it was cut) or
 * that was found and left out (`note` says why).
 */
export const instructionNote = z.strictObject({
  path: z.string(),
  given: z.boolean(),
  note: z.string(),
});
export type InstructionNote = z.infer<typeof instructionNote>;

/**
 * One item of the conversation `chat`, in the order of its key (see chat.md for each kind). Two
 * kinds are Tandem's own: "summary", where the model's view of the conversation was condensed (its
 * text the summary the model wrote), and "usage", the tokens and cost of the answer it ends.
 */
export const itemRow = z.strictObject({
  id: key,
  chat: z.string(),
  kind: z.enum(KINDS),
  text: z.string(),
  name: z.string(),
  input: z.string(),
  output: z.string(),
  file: z.string(),
  /** Rows stored before files had a shape kept them as text: they are read into it on load. */
  files: z.union([z.array(fileRefRow), z.string().transform(legacyFiles)]),
  model: z.string(),
  state: z.enum(STATES),
  done: z.boolean(),
  /** On an answer's last text item: the tokens and cost of the whole answer. */
  usage: z.optional(usageSchema),
  /** On a `delegate` call: the subagents it started, each with its usage, transcript and report. */
  subagents: z.optional(z.array(subagentRow)),
  /** On an answer's first item: the project instructions files it was given. */
  instructions: z.optional(z.array(instructionNote)),
  /**
   * On a call waiting for the person (its `text` the question): the label of "Always allow" the question
   * offers (absent: not offered). Only words to show: what "always" lets by is the runner's, known
   * while the call waits, never read from a row. Rows stored before it existed read without it.
   */
  always: z.optional(z.string()),
  /**
   * On a command waiting for the person that runs in the sandbox: the label of "Allow with Network" (absent:
   * not offered). Words only, as `always`: whether the network is let through is the judge's, for that line.
   */
  network: z.optional(z.string()),
  /**
   * On a copy (a forked conversation's items): the item it copies, in the conversation where that item
   * was first written (a copy of a copy names the first original), so its checkpoints are found.
   */
  copiedFrom: z.optional(z.strictObject({ chat: z.string(), item: z.string() })),
  /**
   * On a message that started a prompt file (`/name`): its name, and what it narrows the answer's
   * tools to (it never widens them).
   */
  prompt: z.optional(
    z.strictObject({
      name: z.string(),
      tools: z.optional(z.array(z.string())),
      readOnly: z.optional(z.boolean()),
      noCommands: z.optional(z.boolean()),
    }),
  ),
});
export type Item = z.infer<typeof itemRow>;

/** A model a person can choose: its id, its name, the group it is listed under, and a note. */
export const choiceRow = z.strictObject({
  id: key,
  name: z.string(),
  group: z.string(),
  note: z.string(),
});
export type Choice = z.infer<typeof choiceRow>;

/**
 * An MCP server whose tools the agent `agent` may use. Its key is never in the row: `secret` only
 * says that one is kept in the editor's secret storage, under `secretKey(plugin.id)`.
 */
export const pluginRow = z.strictObject({
  id: key,
  agent: z.string(),
  /** Its tools' prefix. */
  name: z.string().max(80, "a plugin's name is at most 80 characters"),
  /** An http(s) address, or the command line of a stdio server. */
  address: z.string(),
  /** The header that carries its key ("" none). */
  header: z.string(),
  secret: z.boolean(),
  enabled: z.boolean(),
  /** What the last run found: its tool count, or why it could not be read. */
  status: z.string(),
});
export type Plugin = z.infer<typeof pluginRow>;

/** How to do one kind of work (a SKILL.md): its name, when to use it, and its instructions. */
export const skillRow = z.strictObject({
  id: key,
  name: z.string(),
  description: z.string(),
  body: z.string(),
});
export type Skill = z.infer<typeof skillRow>;

/**
 * Where a memory came from: "conversation", an answer in the conversation `chat` (titled `title`
 * when the memory was kept) that the person said yes to; "person", the person's own words on the
 * Memory page; "" not known (a memory kept before Tandem noted where).
 */
export const memorySource = z.strictObject({
  from: z.enum(["", "conversation", "person"]),
  chat: z.string(),
  title: z.string(),
});
export type MemorySource = z.infer<typeof memorySource>;

/**
 * What the agent `agent` keeps of the person, for every conversation of this workspace with it;
 * `created` in ms since 1970. A row stored before `source` existed reads with an unknown source.
 */
export const memoryRow = z.strictObject({
  id: key,
  agent: z.string(),
  text: z.string(),
  created: count,
  source: memorySource.default(() => ({ from: "" as const, chat: "", title: "" })),
});
export type Memory = z.infer<typeof memoryRow>;

/**
 * How full the model's context of the conversation `id` was at its last turn, in tokens: what the
 * model was sent (its condensed view), not the whole transcript; and what the conversation's
 * answers took and cost in all.
 */
export const contextRow = z.strictObject({
  id: key,
  used: count,
  window: count,
  total: z.optional(usageSchema),
  /** Tokens of what every request carries (instructions and tool schemas), as last fitted. */
  fixed: z.optional(count),
});
export type Context = z.infer<typeof contextRow>;

/** The schema of each table, by the table's name. */
export const TABLES = {
  assistants: assistantRow,
  conversations: conversationRow,
  items: itemRow,
  plugins: pluginRow,
  skills: skillRow,
  memories: memoryRow,
  contexts: contextRow,
  choices: choiceRow,
} as const;

/** The name of a table. */
export type Table = keyof typeof TABLES;
/** The row type of each table. */
export type Rows = { [T in Table]: z.infer<(typeof TABLES)[T]> };
/** A row of any table. */
export type Row = Rows[Table];

/** The tables' names, in a fixed order. */
export const TABLE_NAMES = Object.keys(TABLES) as Table[];

/** True when `name` is a table's name. */
export function isTable(name: unknown): name is Table {
  return typeof name === "string" && Object.hasOwn(TABLES, name);
}

/** A row refused by its table's schema: the message says the table, the key and what is wrong. */
export class RowError extends Error {
  constructor(
    readonly table: string,
    readonly issues: string[],
  ) {
    super(`a row of ${table} was refused: ${issues.join("; ")}`);
    this.name = "RowError";
  }
}

/** The row checked as a row of `table`; throws a RowError that says what is wrong. */
export function checked<T extends Table>(table: T, row: unknown): Rows[T] {
  if (!isTable(table)) throw new RowError(String(table), ["there is no such table"]);
  const result = TABLES[table].safeParse(row);
  if (!result.success) {
    const issues = result.error.issues.map((i) => (i.path.length ? `${i.path.join(".")}: ` : "") + i.message);
    throw new RowError(table, issues);
  }
  return result.data as Rows[T];
}

/**
 * The editor's secret storage, as the store's users reach it (VS Code's SecretStorage has this
 * shape). Plugin keys and API keys live here, never in a row, a journal, a log or the webview.
 */
export interface Secrets {
  get(key: string): PromiseLike<string | undefined>;
  store(key: string, value: string): PromiseLike<void>;
  delete(key: string): PromiseLike<void>;
}

/** The name under which the plugin `id`'s key is kept in the secret storage. */
export function secretKey(id: string): string {
  return `tandem.plugin.${id}`;
}
