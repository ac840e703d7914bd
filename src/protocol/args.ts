// A tool call's arguments, read by one rule wherever they are read: the agent running a tool, a
// plugin, VS Code's tools, the summaries the person is shown, and the panel.
import { reason } from "./reason";

/** A call's arguments read: the record they hold, or the reason they cannot be used, said so a model can act on it. */
export type ReadArgs = { ok: true; args: Record<string, unknown> } | { ok: false; error: string };

/** Whether `value` is a JSON object (not null, not a list). */
export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Reads a call's arguments: blank text is `{}` (some models send "" for a tool without
 * arguments), a JSON object is its record, anything else is an error naming what was sent.
 */
export function readArgs(text: string): ReadArgs {
  const trimmed = text.trim();
  if (trimmed === "") return { ok: true, args: {} };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch (error) {
    return { ok: false, error: `The arguments are not valid JSON (${reason(error)}): ${clip(text)}` };
  }
  if (!isRecord(value)) {
    const kind = value === null ? "null" : Array.isArray(value) ? "a list" : `a ${typeof value}`;
    return { ok: false, error: `The arguments must be a JSON object, not ${kind}: ${clip(text)}` };
  }
  return { ok: true, args: value };
}

/** The arguments' record, or throws the reason (for a tool: it goes back to the model as the call's error). */
export function argsOf(text: string): Record<string, unknown> {
  const read = readArgs(text);
  if (!read.ok) throw new Error(read.error);
  return read.args;
}

/** The arguments' record for showing or routing a call: `{}` when they cannot be read. */
export function argsOrEmpty(text: string): Record<string, unknown> {
  const read = readArgs(text);
  return read.ok ? read.args : {};
}

/** The string the arguments hold under `key`, trimmed ("" when there is none). */
export function argText(text: string, key: string): string {
  const value = argsOrEmpty(text)[key];
  return typeof value === "string" ? value.trim() : "";
}

function clip(text: string): string {
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
