/**
 * What the runner takes from the editor, as a small interface the VS Code part fills (and tests
 * fill with scripted models and real files): models, tools, the person's approval, attachments,
 * limits and the clock.
 */
import type { Attachment, Model, Tool } from "../../agent/types";
import type { Decision, Question, Setting } from "../approval";
import type { Assistant, Item, Skill } from "../row-schemas";
import type { CommandRuleBook } from "../workspace";
import type { PendingList } from "../pending";

/** The limits of one run; absent ones keep the core's defaults (16 rounds, no token or time limit). */
export interface Limits {
  rounds?: number;
  maxTokens?: number;
  maxMs?: number;
}

/** What the runner needs from the editor. Only `model` is required. */
export interface RunnerHost {
  /** The model of a Choice id ("" the default model); undefined when there is none. */
  model(id: string): Model | undefined | Promise<Model | undefined>;
  /** The ids of the person's model catalogue: a subagent's model must be one of them. */
  choices?(): readonly string[] | Promise<readonly string[]>;
  /** The tools the editor offers the assistant (workspace tools, its plugins' tools). */
  tools?(assistant: Assistant): Tool[] | Promise<Tool[]>;
  /**
   * VS Code's and the plugins' tools the person chose to send with every request (names and
   * `prefix*` by commas; the person's own setting, never the repository's). The others are offered
   * in groups the model opens when it needs them.
   */
  chosenTools?(): string;
  /**
   * Asks the person about the call item `call` (a notification that works with the panel closed):
   * yes, no, or "always" for what `question.always` offers (never offered where it cannot apply).
   * `question` is the engine's text: show all of it. Its answer goes through `Runner.decide`, as the
   * panel's does, and the first wins; `signal` aborts once the call is answered or the run stopped:
   * the question should go away then. Without it, only the panel decides.
   */
  approve?(call: Item, signal: AbortSignal, question: Question): Promise<Decision>;
  /** The person's per-tool approval settings (`tandem.approval`) for a run of `assistant`, read at each run. */
  approvals?(assistant?: Pick<Assistant, "approve">): Readonly<Record<string, Setting>>;
  /**
   * What the agent is told at the start of a turn about its pending changes (kept, undone or
   * changed by the person since its last turn); each note is given once.
   */
  notes?(): Promise<string[]>;
  /** The workspace folder, where the engine looks for protected paths. */
  root?(): string | undefined;
  /** Every folder of the workspace with its name (as the tools get them): protected paths are looked for in each. */
  folders?(): { root: string; name?: string }[];
  /** The person's allow and deny rules for run_command, and where "Always allow" keeps a new one. */
  commands?: CommandRuleBook;
  /** Every workspace folder, whose project instructions (AGENTS.md…) are read at each run; none read without it. */
  roots?(): readonly (string | { root: string; name?: string })[];
  /** The agent's pending changes: an instruction file among them is read as the person reviewed it. */
  pendingChanges?(): Promise<PendingList>;
  /** The attachment at the workspace path `path`, named `name`; throws when it may not be read. */
  files?(path: string, name: string): Attachment | Promise<Attachment>;
  /** The assistants of the repository's `.tandem/assistants/*.md` files (read at each run that names one). */
  assistants?(): Assistant[] | Promise<Assistant[]>;
  /** The person's own assistants for every workspace (read at each run that names one). */
  personAssistants?(): Promise<Assistant[]>;
  /** The skills of the workspace's SKILL.md files (the table's own are read from the store). */
  skills?(): Skill[] | Promise<Skill[]>;
  /** The first assistant, made when the store has none (default: "Tandem", with every tool). */
  assistant?: Assistant;
  /** The limits of each run. */
  limits?: Limits;
  /** False in an untrusted workspace: no tool that writes or runs is offered (default true). */
  trusted?(): boolean;
  /** The time in ms since 1970 (default Date.now). */
  now?(): number;
  /** Told when a conversation's run starts and ends (the panel shows it). */
  running?(chat: string, running: boolean): void;
  /**
   * Records the workspace before the answer to the person's `message` writes (a checkpoint): called
   * once per answer, before its first call that may change the workspace; that call waits for it.
   */
  checkpoint?(message: Item): Promise<void>;
  /** Told what went wrong outside any run (a store that refused a write), in words for the person. */
  problem?(text: string): void;
}
