/**
 * `delegate`: the tool that starts one or several read-only subagents side by side (subagent.ts),
 * each on a task of reading-heavy work, and answers their short reports. Their model is one of the
 * person's catalogue, by id, never an address the model names; their tools are the workspace's
 * reading tools the run already offers without approval; their tokens count against the answer's
 * budget, and the answer's stop (the call's signal) stops them. No zod outside `tool`: `@tandem`
 * uses it too.
 */
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Call, Model, Tool } from "../../agent/types";
import { DELEGATE, shortened, type Grouped } from "../approval";
import type { Subagent, Usage } from "../row-schemas";
import { cut, runSubagent, type SubagentLimits, type Task } from "./subagent";

export { DELEGATE };
/** The most subagents one call starts. */
export const MOST_TASKS = 4;
/** The tools a subagent may have: the workspace's reading tools (never one that writes, runs or fetches). */
export const SUBAGENT_TOOLS: ReadonlySet<string> = new Set([
  "read_file",
  "list_files",
  "search_text",
  "problems",
  "definition",
  "references",
  "symbols",
  "git_diff",
]);
/** A subagent's own limits at most: 8 tool rounds, 5 minutes. */
export const SUBAGENT_ROUNDS = 8;
export const SUBAGENT_MS = 5 * 60_000;
/** The longest report given back to the agent. */
export const REPORT_CHARS = 4000;
/** A window this small gets the subagents' tools in their short forms. */
const SMALL_WINDOW = 8192;

/** What the delegate tool of one run needs. */
export interface Delegation {
  /** The model of a catalogue id ("" the answer's own); undefined when there is none. */
  model(id: string): Model | undefined | Promise<Model | undefined>;
  /** The catalogue's ids: a subagent's model must be one of them (none given: any the host resolves). */
  catalogue?(): readonly string[] | Promise<readonly string[]>;
  /** The run's tools: the subagents get those of SUBAGENT_TOOLS that run without approval. */
  tools(): readonly Tool[];
  /** The answer's limits (0 none); a subagent's own are within them. */
  limits: SubagentLimits;
  /** Tokens the answer may still write (Infinity: no limit); a subagent gets at most this many. */
  tokensLeft?(): number;
  /** Told each time a subagent of the call `call` changes: all the call's subagents, in order. */
  progress?(call: Call | undefined, subagents: Subagent[]): void;
  /** Told what each subagent turn took. */
  spend?(usage: Usage): void;
}

/** True when `id` names a place (a URL, a host and port), not a model of the catalogue. */
export function isAddress(id: string): boolean {
  return (
    /^[a-z][a-z0-9+.-]*:\/\//i.test(id) ||
    id.startsWith("//") ||
    /^(localhost|\[[0-9a-f:]+\]|\d{1,3}(\.\d{1,3}){3}|[a-z0-9-]+(\.[a-z0-9-]+)+)(:\d+)(\/|$)/i.test(id)
  );
}

/** The subagents' tools: the run's reading tools that need no approval, never `delegate` itself. */
export function subagentTools(tools: readonly Tool[], window: number): Tool[] {
  const reading = tools.filter((t) => t.readOnly && SUBAGENT_TOOLS.has(t.name));
  return window > 0 && window <= SMALL_WINDOW ? reading.map((t) => shortened(t, "short")) : reading;
}

/** The delegate tool and the tokens its subagents wrote so far in the run. */
export class Delegates {
  /** Tokens the subagents wrote, all calls of the run together. */
  spent = 0;
  readonly tool: Grouped;

  constructor(private readonly d: Delegation) {
    const made = tool(
      DELEGATE,
      "Starts read-only subagents side by side, each in a fresh context with only the reading tools " +
        "(read, list, search), and returns their short reports. Give each a task of reading-heavy work " +
        "(explore code, find where something is done, sum up files), written in full: a subagent knows " +
        "nothing of this conversation. They cannot write, run commands or ask the person.",
      z.object({
        tasks: z
          .array(
            z.object({
              task: z.string().trim().min(1).max(4000).describe("What to find out and report, in full."),
              instructions: z.string().max(2000).optional().describe("How to work or what to report."),
              model: z
                .string()
                .max(200)
                .optional()
                .describe("A model id from the person's model list; omit for your own."),
            }),
          )
          .min(1)
          .max(MOST_TASKS)
          .describe("The tasks, one subagent each, run at the same time."),
      }),
      ({ tasks }, signal, call) => this.delegate(tasks, signal, call),
      // It only reads, by the subagents' tools: it asks no approval.
      { readOnly: true, timeoutMs: SUBAGENT_MS + 30_000 },
    );
    this.tool = {
      ...made,
      short: {
        description: "Starts read-only subagents side by side on reading-heavy tasks; returns their reports.",
      },
    };
  }

  /** Runs `tasks` side by side and answers their reports. */
  private async delegate(tasks: Task[], signal: AbortSignal, call: Call | undefined): Promise<string> {
    const models = await Promise.all(tasks.map((task) => this.modelFor(task.model?.trim() ?? "")));
    const left = this.d.tokensLeft?.() ?? Infinity;
    if (left <= 0) throw new Error("The answer's token limit is spent: answer with what you have.");
    const tools = await Promise.all(
      models.map(async (model) => {
        const window = model.window ? await model.window().catch(() => 0) : 0;
        return subagentTools(this.d.tools(), window);
      }),
    );
    const records: Subagent[] = [];
    const show = (): void => this.d.progress?.(call, records.map(copy));
    const limits = this.limitsWithin(left);
    const ran = tasks.map((task, i) =>
      runSubagent(
        { ...task, model: task.model?.trim() ?? "" },
        {
          model: models[i],
          tools: tools[i],
          limits,
          signal,
          update: (record) => {
            records[i] = record;
            show();
          },
          spend: (usage) => {
            this.spent += usage.output;
            this.d.spend?.(usage);
          },
        },
      ),
    );
    const done = await Promise.all(ran);
    return reportOf(done);
  }

  /** The model of `id`: the answer's for "", else one of the catalogue; throws the reason a model can act on. */
  private async modelFor(id: string): Promise<Model> {
    if (id && isAddress(id))
      throw new Error(
        `"${id}" is an address. A subagent's model is one of the person's models, named by its id; omit "model" to use your own.`,
      );
    if (id && this.d.catalogue) {
      const ids = await this.d.catalogue();
      if (!ids.includes(id))
        throw new Error(
          `There is no model "${id}" in the person's model list. The models are: ${ids.join(", ") || "none"}; omit "model" to use your own.`,
        );
    }
    const model = await this.d.model(id);
    if (!model)
      throw new Error(`The model "${id || "(default)"}" is not available; omit "model" to use your own.`);
    return model;
  }

  /** A subagent's limits: its own, within the answer's (and the tokens it has left). */
  private limitsWithin(left: number): SubagentLimits {
    const { rounds, maxTokens, maxMs } = this.d.limits;
    const tokens = Math.min(maxTokens > 0 ? maxTokens : Infinity, left);
    return {
      rounds: Math.max(1, Math.min(rounds > 0 ? rounds : SUBAGENT_ROUNDS, SUBAGENT_ROUNDS)),
      maxTokens: Number.isFinite(tokens) ? Math.max(1, tokens) : 0,
      maxMs: Math.min(maxMs > 0 ? maxMs : SUBAGENT_MS, SUBAGENT_MS),
    };
  }
}

/** A copy of a record, so what a listener keeps does not change under it. */
function copy(record: Subagent): Subagent {
  return { ...record, usage: { ...record.usage }, steps: record.steps.map((s) => ({ ...s })) };
}

/** What the agent reads back: each subagent's task, how it ended, and its report. */
export function reportOf(records: readonly Subagent[]): string {
  return records
    .map((r, i) => {
      const how =
        r.state === "done" ? "done" : r.state === "stopped" ? "stopped before it finished" : "failed";
      const head = `[Subagent ${i + 1} of ${records.length}, ${how}, ${r.rounds} rounds] Task: ${cut(r.task, 200)}`;
      return `${head}\n${cut(r.report.trim(), REPORT_CHARS) || "(no report)"}`;
    })
    .join("\n\n");
}
