/**
 * What a run needs, prepared in one place for every face (the panel's runner and `@tandem` in VS
 * Code's Chat view): the rules the approval engine judges each call by, the tools the run may call,
 * the instructions (their shortest form for a small window), the fixed part fitted to the window
 * with the groups the model opened earlier, and the answer's one checkpoint before its first call
 * that may change the workspace. A face only says where its facts come from and how it asks the person.
 */
import { documentsOf } from "../../agent/attachments";
import { READ_FILE, type Agent, type Call, type Tool } from "../../agent/types";
import { t } from "../../protocol/l10n";
import {
  allowedTool,
  approveWith,
  offered,
  refusedNote,
  type Allowance,
  type Decision,
  type Question,
  type Rules,
} from "../approval";
import {
  instructionLimits,
  narrowed,
  readInstructions,
  type Instructions,
  type PromptTools,
} from "../assistants";
import type { Assistant } from "../row-schemas";
import { nameFolders } from "../workspace";
import { checkpointBefore } from "./checkpoint-once";
import { fit, openedBy, type Fitted, type Words } from "./fit";
import type { RunnerHost } from "./runner-host";
import { readFileWith } from "./tools-read";
import { SUBAGENT_TOOLS } from "./delegate";

/** The instructions of an assistant that has none. */
export const DEFAULT_INSTRUCTIONS =
  "You are Tandem, a helpful assistant in the person's code editor. Answer clearly and concisely, in Markdown.";

/** The shortest instructions, for a model whose window is small. */
export const SHORT_INSTRUCTIONS =
  "You are Tandem, a coding assistant in the person's editor. Answer briefly, in Markdown.";

/** The assistant's words and the date of `now`, as written and in their shortest form (the person's own words are never shortened). */
export function wordsOf(assistant: Assistant, now: number): Words {
  const own = assistant.instructions.trim();
  const today = new Date(now).toISOString().slice(0, 10);
  return {
    full: `${own || DEFAULT_INSTRUCTIONS}\n\nToday is ${today}.`,
    short: `${own || SHORT_INSTRUCTIONS} Today is ${today}.`,
  };
}

/** What an answer in Plan mode is told, after the assistant's words. */
export const PLAN_INSTRUCTIONS =
  "You are in Plan mode: investigate with the tools that read, change nothing (no file is written and no command is run in this mode), then end your answer with the plan as a Markdown document: a title, then numbered steps, each naming the files it changes. The person reviews it and may act on it.";

/** `words` with the Plan line added, in both forms. */
export function planned(words: Words): Words {
  return { full: `${words.full}\n\n${PLAN_INSTRUCTIONS}`, short: `${words.short} ${PLAN_INSTRUCTIONS}` };
}

/** The assistant that answers when the conversation's is gone and none is set up (and `@tandem`'s). */
export const FALLBACK_ASSISTANT: Assistant = {
  id: "",
  name: "Tandem",
  instructions: "",
  model: "",
  tools: "",
  approve: "",
};

/** What a run is prepared from, of the editor: the panel's runner host, or what `@tandem` fills of it. */
export type RunSource = Pick<
  RunnerHost,
  | "tools"
  | "chosenTools"
  | "approvals"
  | "commands"
  | "root"
  | "folders"
  | "roots"
  | "pendingChanges"
  | "trusted"
  | "limits"
  | "now"
>;

/** The tools a run may call and the rules they are judged by, for a face's own way of deciding a call. */
export interface Judged {
  tools: readonly Tool[];
  rules: Rules;
}

/** How a face decides one call: true, false, or the refusal the model reads. */
export type Decide = (call: Call) => Promise<boolean | string>;

/** What a run is prepared from, of its conversation. */
export interface RunFacts {
  /** The assistant that answers: its words, the tools it allows and those it wants approved. */
  assistant: Assistant;
  /** The repository's assistant the conversation names: the run offers at most the tools it lists. */
  repo?: Assistant;
  /** Tandem's own tools of the conversation (they write only its store, so they take no checkpoint). */
  own: readonly Tool[];
  /** What the assistant remembers of the person. */
  memories: readonly string[];
  /** The conversation's plan ("" none). */
  plan: string;
  /** The workspace paths in play (attached, read): the project's instructions scoped to them apply; undefined reads none. */
  inPlay: readonly string[] | undefined;
  /** The tools and groups the model opened in earlier turns (see `openedAfter`). */
  opened: readonly string[];
  /** The person's own words in the conversation, this message's included. */
  said: readonly string[];
  /** What the person allowed for the conversation ("always"). */
  allowed: Allowance;
  /** How the face decides a call of the run, by the prepared rules (the person answers the engine's question). */
  decide(judged: Judged): Decide;
  /** Records the workspace before the answer first changes it (none: no checkpoint). */
  checkpoint?: () => Promise<void>;
  /** Told when the checkpoint failed; the call goes on. */
  failed(error: unknown): void;
  /** What a prompt file the message started narrows the tools to (it never widens them). */
  narrowing?: PromptTools;
  /** "plan": Plan mode — only the tools that read are offered, and the answer is told to end with a plan. */
  mode?: "plan";
  /** The face's `delegate` tool, made when the run has tools to read with, over the tools it offers (`reading`). */
  delegate?(reading: () => Tool[]): Tool | undefined;
}

/** A prepared run: what its agent was given, and what the face shows of it. */
export interface PreparedRun extends Judged {
  tools: Tool[];
  /** The fixed part as fitted to the window: its instructions, the tools sent, their size. */
  fitted: Fitted;
  /** The project's instructions as given (their files as fitted); undefined when none were read. */
  project: Instructions | undefined;
}

/**
 * Prepares the agent `a` for a run (its history, model and window already set): its instructions,
 * tools, limits and approval, from the editor's `source` and the conversation's `facts`.
 */
export async function prepareRun(a: Agent, source: RunSource, facts: RunFacts): Promise<PreparedRun> {
  const { assistant, repo } = facts;
  // Asked here rather than before the first round (condense-turn asks only when unknown): the fixed part is fitted to it.
  if (!a.window && a.model.window) a.window = await a.model.window().catch(() => 0);
  let project: Instructions | undefined;
  // The repository's files are text for the model; with no paths in play (switched off), none are read.
  if (facts.inPlay && source.roots) {
    const pending = (await source.pendingChanges?.().catch(() => undefined)) ?? [];
    project = await readInstructions(source.roots(), facts.inPlay, instructionLimits(a.window), pending);
  }
  const rules: Rules = {
    tools: assistant.tools,
    approve: assistant.approve,
    always: facts.allowed.tools,
    hosts: facts.allowed.hosts,
    trusted: source.trusted?.() ?? true,
    settings: source.approvals?.(assistant) ?? {},
    commands: source.commands,
    said: facts.said,
    root: source.root?.(),
    // Named as the tools name them, so a path the model writes is guarded in the folder it names.
    folders: source.folders ? nameFolders(source.folders()) : undefined,
  };
  const editor = ((await source.tools?.(assistant)) ?? []).map((tool) =>
    tool.name === READ_FILE ? readFileWith(tool, documentsOf(a)) : tool,
  );
  // Read-only subagents, when the run has tools to read with; they read with what the run offers.
  const reads = editor.some((tool) => SUBAGENT_TOOLS.has(tool.name));
  const delegate: Tool | undefined = reads
    ? facts.delegate?.((): Tool[] => offered(tools, rules))
    : undefined;
  // A prompt file the message started may only narrow what would be offered anyway; Plan mode
  // offers only the tools that read (update_plan among them).
  const plan = facts.mode === "plan";
  const tools: Tool[] = narrowed(
    narrowed(
      unique([...facts.own, ...editor, ...(delegate ? [delegate] : [])]).filter(
        (tool) => !repo || allowedTool(tool.name, repo.tools),
      ),
      facts.narrowing,
    ),
    plan ? { readOnly: true } : undefined,
  );
  const words = wordsOf(assistant, source.now?.() ?? Date.now());
  // What every request carries, fitted to the model's window (see fit.ts).
  const fitted = fit({
    instructions: plan ? planned(words) : words,
    project: project?.files ?? [],
    memories: facts.memories,
    plan: facts.plan,
    tools: offered(tools, rules),
    chosen: source.chosenTools?.() ?? "",
    opened: facts.opened,
    window: a.window,
  });
  if (project) project = { ...project, files: fitted.project };
  a.instructions = fitted.instructions;
  a.tools = fitted.tools;
  a.rounds = source.limits?.rounds ?? a.rounds;
  a.maxTokens = source.limits?.maxTokens ?? a.maxTokens;
  a.maxMs = source.limits?.maxMs ?? a.maxMs;
  // Each call is decided; a yes to one that may change the workspace takes the answer's checkpoint first.
  const decide = facts.decide({ tools, rules });
  const before = checkpointBefore(
    facts.checkpoint,
    new Set(facts.own.map((tool) => tool.name)),
    facts.failed,
  );
  a.approve = async (call) => {
    // false or the refusal the model reads: only a yes takes the checkpoint and runs the call.
    const yes = await decide(call);
    if (yes !== true) return yes;
    await before(call.name);
    return true;
  };
  return { tools, rules, fitted, project };
}

/** What `@tandem` knows of one request in VS Code's Chat view, which keeps no store of Tandem's. */
export interface ChatViewFacts extends Pick<
  RunFacts,
  "inPlay" | "opened" | "said" | "allowed" | "checkpoint" | "failed" | "narrowing" | "mode" | "delegate"
> {
  /** Asks the person the engine's question about a call (undefined: nobody answered). */
  ask(question: Question): Promise<Decision | undefined>;
}

/**
 * Prepares `@tandem`'s run: Tandem's default assistant with the editor's tools only (no memories,
 * plan or chat tools without a store), each call decided by the engine and, where it asks, by `ask`.
 */
export function prepareChatViewRun(a: Agent, source: RunSource, facts: ChatViewFacts): Promise<PreparedRun> {
  const { ask, ...rest } = facts;
  return prepareRun(a, source, {
    ...rest,
    assistant: FALLBACK_ASSISTANT,
    own: [],
    memories: [],
    plan: "",
    decide: decideByAsking(facts.allowed, ask),
  });
}

/**
 * How a face without a store of calls decides one: by the engine's rules, and by `ask`, its
 * question to the person, where they ask; "always" lasts as long as `allowed`.
 */
function decideByAsking(
  allowed: Allowance,
  ask: (question: Question) => Promise<Decision | undefined>,
): (judged: Judged) => Decide {
  return ({ tools, rules }) =>
    async (call) => {
      const tool = tools.find((tool) => tool.name === call.name);
      if (!tool) return false;
      const { judged, yes } = await approveWith(tool, call.arguments, rules, allowed, ask);
      // Refused by the person's rules: the model reads why, as in the panel.
      if (judged.verdict === "refused")
        return refusedNote(judged.reasons.join(" ") || t("The tool {0} may not run here.", call.name));
      return yes === true;
    };
}

/** The tools and groups opened so far: those `earlier` turns opened, and those `calls` of this run opened. */
export function openedAfter(
  earlier: readonly string[],
  calls: readonly { name: string; output: string }[],
): string[] {
  return [...new Set([...earlier, ...openedBy(calls)])];
}

/** The tools with distinct names: the first of a name wins (the chat tools come first). */
function unique(tools: Tool[]): Tool[] {
  const seen = new Set<string>();
  return tools.filter((tool) => !seen.has(tool.name) && !!seen.add(tool.name));
}
