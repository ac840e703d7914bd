/**
 * Tool calls valid by construction, for models without native calls on endpoints that honour
 * `response_format` with a JSON Schema: the model's whole output is held to "an answer, or one of
 * these tools with arguments of its schema", and read back as the answer or the call.
 */
import { isRecord } from "../protocol/args";
import { t } from "../protocol/l10n";
import type { Call, FunctionTool } from "./types";

/** The key of the answer in a constrained output. */
export const ANSWER_KEY = "answer";

/** The name the schema goes by in `response_format` (OpenAI wants one). */
export const FORMAT_NAME = "answer_or_tool";

/** The `response_format` of a request: JSON of the schema, as Chat Completions takes it. */
export interface ResponseFormat {
  type: "json_schema";
  json_schema: { name: string; schema: Record<string, unknown>; strict: boolean };
}

/**
 * The JSON Schema of an output that is an answer (`{"answer": "…"}`) or a call of one of `tools`
 * (`{"tool": NAME, "arguments": {…}}`, the arguments of that tool's own schema). `anyOf` rather
 * than `oneOf`: OpenAI's strict mode and llama.cpp both take it, and the branches cannot overlap.
 */
export function constrainedSchema(tools: FunctionTool[]): Record<string, unknown> {
  const answer = {
    type: "object",
    properties: { [ANSWER_KEY]: { type: "string" } },
    required: [ANSWER_KEY],
    additionalProperties: false,
  };
  const calls = tools.map((tool) => ({
    type: "object",
    properties: {
      tool: { const: tool.function.name },
      arguments: tool.function.parameters,
    },
    required: ["tool", "arguments"],
    additionalProperties: false,
  }));
  return { anyOf: [answer, ...calls] };
}

/** The `response_format` that holds a turn to `constrainedSchema(tools)`. */
export function responseFormat(tools: FunctionTool[]): ResponseFormat {
  // Not strict: OpenAI's strict mode wants every property required, which tools' optional ones are not.
  return {
    type: "json_schema",
    json_schema: { name: FORMAT_NAME, schema: constrainedSchema(tools), strict: false },
  };
}

/** The instructions that tell a constrained model what its JSON means, and what each tool does. */
export function constrainedDescribed(tools: FunctionTool[]): string {
  const list = tools.map((tool) => `- ${tool.function.name}: ${tool.function.description}`).join("\n");
  return (
    'Reply with one JSON object. To answer the person: {"answer": "your answer, in Markdown"}. ' +
    'To call a tool: {"tool": "TOOL", "arguments": {…}}; its result comes back in the next message, ' +
    `then reply again.\nThe tools:\n${list}`
  );
}

/** The text a call is written as in a constrained conversation's history (as the model wrote it). */
export function constrainedCall(call: Call, args: unknown): string {
  return JSON.stringify({ tool: call.name, arguments: args });
}

/** A constrained output read back: the answer, the call, or why it cannot be used. */
export type Reading =
  | { kind: "answer"; text: string }
  | { kind: "call"; call: Call }
  | { kind: "malformed"; why: string }
  | { kind: "unformatted" };

let counter = 0;

/**
 * Reads `text`, the whole output of a constrained turn, against the tools named `names`: text that
 * is not JSON at all says the endpoint ignored the format ("unformatted"); JSON that is neither an
 * answer nor a call of one of the tools says why ("malformed").
 */
export function readConstrained(text: string, names: Set<string>): Reading {
  const trimmed = text.trim();
  if (!trimmed.startsWith("{")) return { kind: "unformatted" };
  let value: unknown;
  try {
    value = JSON.parse(trimmed);
  } catch {
    return { kind: "malformed", why: t("it is not complete JSON") };
  }
  if (!isRecord(value)) return { kind: "malformed", why: t("it is not a JSON object") };
  if (typeof value[ANSWER_KEY] === "string" && value.tool === undefined)
    return { kind: "answer", text: value[ANSWER_KEY] };
  if (typeof value.tool !== "string")
    return { kind: "malformed", why: t("it has neither an answer nor a tool") };
  if (!names.has(value.tool))
    return { kind: "malformed", why: t("it calls {0}, which is not one of its tools", value.tool) };
  const args = value.arguments ?? {};
  if (!isRecord(args))
    return { kind: "malformed", why: t("the arguments of {0} are not an object", value.tool) };
  return {
    kind: "call",
    call: { id: `call_c${counter++}`, name: value.tool, arguments: JSON.stringify(args) },
  };
}

/** What a person reads when a constrained output cannot be used: the reason and the start of what came. */
export function malformedMessage(why: string, text: string): string {
  const shown = text.trim().replace(/\s+/g, " ");
  const clipped = shown.length > 160 ? `${shown.slice(0, 160)}…` : shown;
  return t(
    "The model's reply does not follow the JSON format its endpoint was asked to hold it to ({0}): {1}",
    why,
    clipped || t("(nothing)"),
  );
}
