/**
 * The fixed part of a request — instructions, project instructions, memories, the skills' list and
 * the tool schemas, which every request carries — measured with condensing's own estimate and fitted
 * to a share of the model's window: on a small window the core tools with short forms, the others
 * in groups the model opens with `open_tools`, the shortest instructions, and the project's
 * instructions cut with a note that says how to read the rest. No zod: `@tandem` uses it too.
 */
import { FALLBACK_WINDOW, fixedTokens, estimate } from "../../agent/condense";
import type { FunctionTool, Tool } from "../../agent/types";
import type { InstructionFile } from "../assistants";
import { instructionsText } from "../assistants";
import {
  OPEN_TOOLS,
  byGroup,
  DELEGATE,
  groupOf,
  openTools,
  shortened,
  unchosen,
  withCommands,
  type Form,
  type Grouped,
} from "../approval";

/** The share of the window the fixed part may take; the rest is the conversation's. */
export const FIXED_SHARE = 0.25;
/** On the smallest windows the core tools alone take more than that share: up to this many tokens, at most a third. */
const SMALL_FIXED = 700;

/** Tokens the fixed part of a request may take on a window of `window` tokens. */
export function fixedTarget(window: number): number {
  return Math.floor(Math.max(window * FIXED_SHARE, Math.min(SMALL_FIXED, window * 0.34)));
}
/** A window this small or smaller: the agent is told to hand reading-heavy work to subagents. */
export const DELEGATING_WINDOW = 16384;

/** The line that tells the agent of a small window to delegate; `sent`: delegate is among its tools (else in a group). */
export function delegateLine(sent: boolean): string {
  return sent
    ? "Your window is small: hand reading-heavy work (many files, wide searches) to subagents with delegate."
    : "Your window is small: hand reading-heavy work to subagents (open_tools agents, then delegate).";
}

/** The share of the window the fixed part may grow to when the model opens more tools. */
const OPENED_SHARE = 0.5;

/** The words of the instructions, as written and in their shortest form. */
export interface Words {
  full: string;
  short: string;
}

/** What every request of a run carries, before it is fitted. */
export interface FixedParts {
  /** The assistant's instructions (with the date), as written and shortest. */
  instructions: Words;
  /** The project's instructions files (AGENTS.md…), as read. */
  project: readonly InstructionFile[];
  /** What the assistant remembers of the person. */
  memories: readonly string[];
  /** The conversation's plan ("" none). */
  plan: string;
  /** Every tool the run may offer (already judged by the rules), Tandem's first. */
  tools: readonly Grouped[];
  /** VS Code's and the plugins' tools the person chose to send always (names and `prefix*` by commas). */
  chosen: string;
  /** Groups and tools the model opened earlier in the conversation. */
  opened: readonly string[];
  /** The model's window in tokens (0 unknown: condensing's fallback). */
  window: number;
}

/** The fixed part as fitted: what the agent is given, and what it takes. */
export interface Fitted {
  instructions: string;
  /** The tools sent; `open_tools` adds to this same array, so opened tools join the next request. */
  tools: Tool[];
  /** Estimated tokens of the instructions and tools, as condensing counts them. */
  fixed: number;
  /** Tokens the fixed part was fitted to. */
  target: number;
  form: Form;
  /** The project's files as given (one cut is marked cut). */
  project: InstructionFile[];
  /** The tools left in groups, for the model to open. */
  closed: number;
}

/** The function tools of `tools`, as the run sends them. */
export function functionTools(tools: readonly Tool[]): FunctionTool[] {
  return tools.map((t) => ({
    type: "function",
    function: { name: t.name, description: t.description, parameters: t.parameters },
  }));
}

/** Estimated tokens of `instructions` with `tools`, as condensing counts every request. */
export function measured(instructions: string, tools: readonly Tool[]): number {
  return fixedTokens(instructions, functionTools(tools));
}

/** The instructions text of `words`, the project's files, memories and the plan, in the form `form`. */
function instructionsOf(
  words: string,
  project: readonly InstructionFile[],
  memories: readonly string[],
  plan: string,
  short: boolean,
): string {
  const parts = [words];
  const text = instructionsText(project.filter((f) => f.text));
  if (text) parts.push(text);
  const left = project.filter((f) => !f.text).map((f) => f.path);
  if (left.length)
    parts.push(
      `[The project's instructions ${left.join(", ")} were left out to fit the model's window: read them with read_file when the task needs them.]`,
    );
  if (memories.length) {
    const heading = short
      ? "You remember (tool remember):"
      : "What you remember of the person (kept with your tool remember):";
    parts.push(`${heading}\n${memories.map((m) => `- ${m}`).join("\n")}`);
  }
  if (plan) {
    const heading = short
      ? "Your plan (keep it with update_plan):"
      : "Your plan of the work so far (keep it up to date with update_plan):";
    parts.push(`${heading}\n${plan}`);
  }
  return parts.join("\n\n");
}

/** `text` with the line on delegating when `delegating`, worded by whether delegate is in `sent`. */
function withDelegating(text: string, delegating: boolean, sent: readonly Tool[]): string {
  return delegating ? `${text}\n\n${delegateLine(sent.some((t) => t.name === DELEGATE))}` : text;
}

/** True when the tool `tool` was opened by the model earlier (its name or its group's). */
function wasOpened(tool: Grouped, opened: readonly string[]): boolean {
  return opened.includes(tool.name) || opened.includes(groupOf(tool));
}

/**
 * `text` cut to about `tokens` tokens at a line's end, with a note for the model saying where it
 * was cut and how to read the rest of `path`.
 */
export function cutFile(file: InstructionFile, tokens: number): InstructionFile {
  const lines = file.text.split("\n");
  const kept: string[] = [];
  let chars = 0;
  for (const line of lines) {
    if (chars + line.length + 1 > tokens * 4) break;
    kept.push(line);
    chars += line.length + 1;
  }
  // A first line longer than the room is given in part.
  const partial = !kept.length && tokens >= 100;
  if (partial) kept.push(lines[0].slice(0, tokens * 4));
  // Nothing kept: the file is named in one note of Tandem's (see instructionsOf), with no text of its own.
  if (!kept.some((line) => line.trim())) return { ...file, text: "", cut: true };
  const note = `[${file.path} is cut here to fit the model's window: read the rest with read_file, path ${file.path}, startLine ${partial ? 1 : kept.length + 1}.]`;
  return { ...file, text: [...kept, note].join("\n"), cut: true };
}

/** The project's files within `tokens`: whole while they fit, then one cut, the rest as notes. */
function projectWithin(files: readonly InstructionFile[], tokens: number): InstructionFile[] {
  const out: InstructionFile[] = [];
  let left = tokens;
  for (const file of files) {
    const whole = estimate(instructionsText([file]));
    if (whole <= left) {
      out.push(file);
      left -= whole;
      continue;
    }
    // The heading and the note take their room too.
    const overhead = estimate(instructionsText([{ ...file, text: "" }])) + 40;
    const cut = cutFile(file, Math.max(0, left - overhead));
    out.push(cut);
    left -= estimate(instructionsText([cut]));
  }
  return out;
}

/** The memories within `tokens`, the newest kept, with a line saying how many more there are. */
function memoriesWithin(memories: readonly string[], tokens: number): string[] {
  const out: string[] = [];
  let left = tokens;
  for (const memory of [...memories].reverse()) {
    const cost = estimate(memory) + 1;
    if (cost > left) break;
    out.unshift(memory);
    left -= cost;
  }
  const more = memories.length - out.length;
  if (more > 0) out.push(`(${more} older memories are kept but not shown here, to fit the model's window.)`);
  return out;
}

/** The forms tried in turn, until the fixed part fits: each sends less than the one before. */
const STEPS: { form: Form; all: boolean }[] = [
  { form: "full", all: true },
  { form: "full", all: false },
  { form: "short", all: false },
  { form: "minimal", all: false },
];

/** The fixed part of `parts` fitted to its window (see the file's comment). */
export function fit(parts: FixedParts): Fitted {
  const window = parts.window > 0 ? parts.window : FALLBACK_WINDOW;
  const target = fixedTarget(window);
  // VS Code's and the plugins' tools the person did not choose are never sent until opened.
  const offerable = parts.tools.filter((t) => !unchosen(t, parts.chosen) || wasOpened(t, parts.opened));
  const waiting = parts.tools.filter((t) => !offerable.includes(t));
  const core = (t: Grouped, form: Form): boolean =>
    groupOf(t) === "" ||
    wasOpened(t, parts.opened) ||
    (!!parts.plan && t.name === "update_plan") ||
    (form === "full" && withCommands(t.name) && !t.group);
  const delegating = window <= DELEGATING_WINDOW && offerable.some((t) => t.name === DELEGATE);
  let best: Fitted | undefined;
  for (const step of STEPS) {
    const short = step.form !== "full";
    const words = short ? parts.instructions.short : parts.instructions.full;
    const sent = offerable.filter((t) => step.all || core(t, step.form)).map((t) => shortened(t, step.form));
    const rest = offerable.filter((t) => !(step.all || core(t, step.form)));
    const text = (project: readonly InstructionFile[], memories: readonly string[]) =>
      withDelegating(instructionsOf(words, project, memories, parts.plan, short), delegating, sent);
    const size = (tools: readonly Tool[]) => measured(text(parts.project, parts.memories), tools);
    // Whole groups of the others join while they fit.
    const groups = byGroup(rest);
    for (const [group, tools] of groups) {
      const withGroup = [...sent, ...tools.map((t) => shortened(t, step.form))];
      const others = [...groups].filter(([g]) => g !== group);
      if (size(withGroup) + opener(others, waiting, step.form) <= target) {
        sent.push(...tools.map((t) => shortened(t, step.form)));
        groups.delete(group);
      }
    }
    const fitted = assemble(parts, window, step.form, sent, [...groups.values()].flat(), waiting, text);
    fitted.target = target;
    if (fitted.fixed <= target) return fitted;
    best = fitted;
  }
  // Even the shortest form is over: the project's instructions and the memories are cut to the room left.
  const last = best as Fitted;
  const words = parts.instructions.short;
  const sentLast = last.tools;
  const shortText = (project: readonly InstructionFile[], memories: readonly string[]): string =>
    withDelegating(instructionsOf(words, project, memories, parts.plan, true), delegating, sentLast);
  const bare = measured(shortText([], []), last.tools);
  const room = Math.max(0, target - bare);
  const memoryRoom = Math.min(estimate(parts.memories.join("\n")) + 20, Math.floor(room / 3));
  const memories = memoriesWithin(parts.memories, memoryRoom);
  // The estimate of the parts alone misses their joins: cut again by what the whole is over.
  let over = 0;
  let kept = memories;
  for (;;) {
    const project = projectWithin(parts.project, room - estimate(kept.join("\n")) - 20 - over);
    const instructions = shortText(project, kept);
    const fixed = measured(instructions, last.tools);
    // The same object open_tools measures against, so an opening counts the instructions as sent.
    if (fixed <= target || over > room) return Object.assign(last, { instructions, project, fixed });
    over += fixed - target;
    // With the project's text gone, the memories give way too.
    if (project.every((f) => !f.text)) kept = memoriesWithin(parts.memories, memoryRoom - over);
  }
}

/** Tokens the open_tools tool takes for the groups left (0 when none is). */
function opener(groups: [string, Grouped[]][], waiting: readonly Grouped[], form: Form): number {
  const closed = byGroup([...groups.flatMap(([, tools]) => tools), ...waiting]);
  return closed.size ? measured("", [openTools(closed, () => "", form)]) : 0;
}

/** The fitted part of one step: the tools sent, and `open_tools` over the rest when any is left. */
function assemble(
  parts: FixedParts,
  window: number,
  form: Form,
  sent: Grouped[],
  rest: readonly Grouped[],
  waiting: readonly Grouped[],
  text: (project: readonly InstructionFile[], memories: readonly string[]) => string,
): Fitted {
  const instructions = text(parts.project, parts.memories);
  const tools: Tool[] = [...sent];
  const closed = byGroup([...rest, ...waiting]);
  const fitted: Fitted = {
    instructions,
    tools,
    fixed: 0,
    target: 0,
    form,
    project: [...parts.project],
    closed: rest.length + waiting.length,
  };
  if (closed.size) {
    tools.push(
      openTools(
        closed,
        (chosen) => {
          const added: string[] = [];
          const left: string[] = [];
          for (const tool of chosen) {
            if (tools.some((t) => t.name === tool.name)) continue;
            const form1 = shortened(tool, form);
            if (measured(fitted.instructions, [...tools, form1]) > window * OPENED_SHARE)
              left.push(tool.name);
            else {
              tools.push(form1);
              added.push(tool.name);
            }
          }
          return openedText(added, left);
        },
        form,
      ),
    );
  }
  fitted.fixed = measured(instructions, tools);
  return fitted;
}

/** What open_tools answers: the tools that are now the model's, and those with no room left. */
function openedText(added: readonly string[], left: readonly string[]): string {
  const parts = [];
  if (added.length) parts.push(`Opened: ${added.join(", ")}. You can call them from your next step.`);
  if (left.length)
    parts.push(
      `No room in the model's window for: ${left.join(", ")}. Open one of them by its name if you need it.`,
    );
  if (!parts.length) parts.push("Those tools are already yours: call them.");
  return parts.join("\n");
}

/**
 * The tools the model opened with open_tools in earlier calls of the conversation (`calls`: each
 * call's name and output), as each call's answer names them: only those that had room.
 */
export function openedBy(calls: readonly { name: string; output: string }[]): string[] {
  const out: string[] = [];
  for (const call of calls) {
    if (call.name !== OPEN_TOOLS) continue;
    const opened = /^Opened: ([^\n]+?)\. You can call them/.exec(call.output);
    if (opened) out.push(...opened[1].split(", ").map((name) => name.trim()));
  }
  return out;
}
