/**
 * The chat tools every assistant has besides the editor's: `remember` (a Memory row, read back
 * into the instructions at each run), `update_plan` (the conversation's one plan item, a Markdown
 * checklist) and `load_skill` (the skills' instructions, read on demand). `read_file` over the
 * documents attached in part is added by the core's run; the runner gives it the earlier messages'
 * documents too.
 */
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Tool } from "../../agent/types";
import { memory } from "../make";
import type { Item, Memory, Skill } from "../row-schemas";
import { loadSkill } from "../assistants";
import type { Store } from "../store";

/** The name of the tool that keeps a memory. */
export const REMEMBER = "remember";
/** The name of the tool that writes the plan. */
export const UPDATE_PLAN = "update_plan";

/** The longest memory, in characters. */
export const MEMORY_LIMIT = 1000;

/** The memories of the assistant `agent`, oldest first. */
export function memoriesOf(store: Store, agent: string): Memory[] {
  return store
    .rows("memories")
    .filter((m) => m.agent === agent)
    .sort((a, b) => a.created - b.created || (a.id < b.id ? -1 : 1));
}

/**
 * The `remember` tool of the assistant `agent` in the conversation `chat`: it writes a Memory row
 * made at `now()`, noting the conversation it came from. It is not read-only: a memory joins the
 * instructions of every later conversation, so text the model read (a file, a page) must not save
 * one by itself — the person says yes first, like any call that writes.
 */
export function rememberTool(store: Store, agent: string, chat: string, now: () => number = Date.now): Tool {
  return tool(
    REMEMBER,
    "Keeps a fact about the person or a preference of theirs for every later conversation (one short " +
      "sentence); the person is asked first. Use it when the person asks you to remember something or " +
      "tells you a lasting preference.",
    z.object({
      text: z.string().trim().min(1).max(MEMORY_LIMIT).describe("What to remember, in one sentence."),
    }),
    ({ text }) => {
      const known = memoriesOf(store, agent).find((m) => m.text.trim().toLowerCase() === text.toLowerCase());
      if (known) return `Already remembered: ${known.text}`;
      const title = store.get("conversations", chat)?.title ?? "";
      store.put("memories", memory(agent, text, { from: "conversation", chat, title }, now()));
      return `Remembered: ${text}`;
    },
    { readOnly: false },
  );
}

/** A step of a plan. */
const step = z.object({
  step: z.string().trim().min(1).max(500).describe("What to do, in a few words."),
  done: z.boolean().default(false).describe("True once the step is done."),
});

/** The Markdown checklist of `steps`. */
export function planText(steps: readonly { step: string; done: boolean }[]): string {
  return steps.map((s) => `- [${s.done ? "x" : " "}] ${s.step.replace(/\s+/g, " ")}`).join("\n");
}

/** The plan item of a conversation's `items` (the first, if a crash ever left two). */
export function planOf(items: readonly Item[]): Item | undefined {
  return items.find((i) => i.kind === "plan");
}

/**
 * The `update_plan` tool of the conversation `chat`: it writes the whole plan each time, kept in
 * the conversation's one plan item (made by `make` the first time).
 */
export function planTool(store: Store, chat: string, make: (text: string) => Item): Tool {
  return tool(
    UPDATE_PLAN,
    "Writes your plan for a task of several steps, as a checklist the person sees. Give the whole plan " +
      "each time: every step, in order, with the ones done marked. Update it as steps are done.",
    z.object({ steps: z.array(step).min(1).max(50).describe("The plan's steps, in order.") }),
    ({ steps }) => {
      const text = planText(steps);
      const plan = planOf(store.items(chat));
      if (plan) store.put("items", { ...plan, text, done: true });
      else store.put("items", { ...make(text), done: true });
      const left = steps.filter((s) => !s.done).length;
      return left
        ? `Plan updated: ${left} of ${steps.length} steps to do.`
        : "Plan updated: every step is done.";
    },
    { readOnly: true },
  );
}

/** What the chat tools of one run need. */
export interface ChatToolsContext {
  store: Store;
  /** The assistant's id. */
  agent: string;
  chat: string;
  /** Makes the plan item the first time (keyed in the answer that makes it). */
  makePlan: (text: string) => Item;
  /** The skills: the table's rows, then the workspace's files. */
  skills: Skill[];
  now?: () => number;
}

/** The chat tools of one run: remember, update_plan, and load_skill when there is a skill. */
export function chatTools(context: ChatToolsContext): Tool[] {
  const tools = [
    rememberTool(context.store, context.agent, context.chat, context.now),
    planTool(context.store, context.chat, context.makePlan),
  ];
  const skills = loadSkill(context.skills);
  if (skills) tools.push(skills);
  return tools;
}
