/** Asking for a typed record, and naming a conversation. */
import type { z } from "zod";
import { loop, RunError } from "./run";
import { tool } from "./tool";
import { ANSWER, type Agent, type Model, type RunOptions } from "./types";

/**
 * Asks the agent `prompt` for a record of `type`: the model answers by calling the tool `answer`
 * with it; an answer that does not validate goes back as that call's error (the zod issues),
 * up to the agent's round limit. Rejects with a `RunError` when there is no valid answer.
 */
export async function ask<T>(
  a: Agent,
  prompt: string,
  type: z.ZodType<T>,
  options: RunOptions = {},
): Promise<T> {
  let record: { value: T } | undefined;
  const answer = tool(
    ANSWER,
    "Give the answer: the record asked for.",
    type,
    (input) => {
      record = { value: input };
      return "Received.";
    },
    { readOnly: true },
  );
  const ending = await loop(a, prompt, options, {
    tools: [answer],
    instructions: `Answer by calling the tool "${ANSWER}" with the record asked for; do not write it as text.`,
    answered: () => (record ? JSON.stringify(record.value) : undefined),
    wrote(text) {
      // A model without native tools often writes the record itself as JSON: take it when it is valid.
      const json = /\{[\s\S]*\}/.exec(text.replace(/```(?:json)?/g, ""))?.[0];
      if (!json) return false;
      try {
        const checked = type.safeParse(JSON.parse(json));
        if (checked.success) record = { value: checked.data };
        return checked.success;
      } catch {
        return false;
      }
    },
    nudge: `Call the tool "${ANSWER}" with the record asked for.`,
  });
  if (record) return record.value;
  throw new RunError(ending.kind === "stopped" ? "Stopped before an answer." : "The model gave no answer.");
}

const TITLE_INSTRUCTIONS =
  "Write a short title (at most six words) for a conversation that begins with the message below. " +
  "Answer with the title only: no quotes, no punctuation at the end.";

/** A short title for a conversation that begins with `first`: one turn, no tools, first line, no quotes, ≤ 60 characters. */
export async function title(model: Model, first: string, signal?: AbortSignal): Promise<string> {
  const turn = await model.turn(
    {
      instructions: TITLE_INSTRUCTIONS,
      messages: [{ role: "user", text: first.slice(0, 4000) }],
      tools: [],
      answer: true,
      signal,
    },
    () => true,
  );
  return shorten(turn.text) || shorten(first);
}

/** The first non-empty line of `text` without quotes or heading marks, cut to 60 characters at a word. */
export function shorten(text: string): string {
  const line =
    text
      .split("\n")
      .map((l) => l.trim())
      .find(Boolean) ?? "";
  const bare = line
    .replace(/^(#+\s*|title\s*:\s*)/i, "")
    .replace(/^[\s"'`“”‘’«»*_]+|[\s"'`“”‘’«»*_.]+$/g, "")
    .trim();
  if (bare.length <= 60) return bare;
  const cut = bare.slice(0, 59);
  const space = cut.lastIndexOf(" ");
  return `${(space > 30 ? cut.slice(0, space) : cut).trimEnd()}…`;
}
