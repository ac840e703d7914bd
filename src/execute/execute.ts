/**
 * One agent step, as the "execute agent" API defines it: validate the request, run one model turn
 * with the tools offered, and answer with content or with a tool request. Never throws: every
 * outcome is the status and JSON body the HTTP API gives.
 */
import type { Model, Turn } from "../agent/types";
import { toRequest } from "./conversation";
import {
  ExecuteAgentRequest,
  OpenExecuteAgentRequest,
  SPEC_MODELS,
  type ExecuteAgentResponse,
  type HTTPValidationError,
} from "./schema";
import { check, type Problem } from "./validation";
import { reason } from "../protocol/reason";
import { readArgs } from "../protocol/args";

/** Where `execute` finds its models. */
export interface ExecuteConfig {
  /** The person's setting: a document model name (e.g. "gpt-4") to one of their model ids. */
  models?: Readonly<Record<string, string>>;
  /** The model of a model id from Tandem's catalogue, or undefined when there is none. */
  resolve(id: string): Model | undefined;
}

/** An error's JSON body, as FastAPI writes one: `{detail: "…"}`. */
export interface Detail {
  detail: string;
}

/** What `execute` answers: the HTTP status and its JSON body. */
export type Outcome =
  | { status: 200; body: ExecuteAgentResponse }
  | { status: 422; body: HTTPValidationError }
  | { status: 502 | 503; body: Detail };

/** Runs one agent step of `body` (the request's parsed JSON; undefined: no body). */
export async function execute(body: unknown, config: ExecuteConfig, signal?: AbortSignal): Promise<Outcome> {
  if (body === undefined || body === null)
    return invalid([{ type: "missing", loc: ["body"], msg: "Field required", input: null }]);
  const name = isRecord(body) && typeof body.model === "string" ? body.model : undefined;
  const model = name === undefined ? undefined : config.resolve(config.models?.[name] ?? name);
  const spec = (SPEC_MODELS as readonly string[]).includes(name ?? "");
  // A model id of the person's own is accepted beside the document's names.
  const schema = model && !spec ? OpenExecuteAgentRequest : ExecuteAgentRequest;
  const checked = check(schema, body, ["body"]);
  if (!checked.ok) return invalid(checked.problems);
  // The check walked the same zod schema, filling its defaults: its value is the schema's output.
  const request = checked.value as ExecuteAgentRequest;
  if (!model)
    return {
      status: 503,
      body: {
        detail: `Tandem has no model for "${name}": map it to one of your models in Tandem's settings.`,
      },
    };
  let turn: Turn;
  try {
    turn = await model.turn({ ...toRequest(request), signal }, () => true);
  } catch (error) {
    if (signal?.aborted) return { status: 503, body: { detail: "The request was cancelled." } };
    return { status: 502, body: { detail: `The model failed: ${readable(error)}` } };
  }
  // A turn that was stopped may end quietly with what it had: it is not the model's answer.
  if (signal?.aborted) return { status: 503, body: { detail: "The request was cancelled." } };
  // A call cut off at the model's output limit is not one the client could run: its arguments are half JSON.
  const first = turn.calls[0];
  if (first && turn.finish === "length" && !readArgs(first.arguments).ok)
    return {
      status: 502,
      body: {
        detail: `The model's answer was cut off at its output limit while it wrote a call of ${first.name}: raise the model's max tokens or ask for less at once.`,
      },
    };
  return { status: 200, body: toResponse(turn) };
}

/** The API's answer to a model turn: its first call as a tool request, else its text. */
export function toResponse(turn: Turn): ExecuteAgentResponse {
  const call = turn.calls[0];
  if (call)
    return {
      action: "tool_request",
      context: { content: null, tool_request: { name: call.name, arguments: call.arguments || "{}" } },
    };
  return { action: "content", context: { content: turn.text, tool_request: null } };
}

function invalid(detail: Problem[]): Outcome {
  return { status: 422, body: { detail } };
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

// An error's message on one line, without a stack, short enough to read.
function readable(error: unknown): string {
  const text = reason(error);
  const line = text.split("\n")[0].trim() || "unknown error";
  return line.length > 500 ? `${line.slice(0, 500)}…` : line;
}
