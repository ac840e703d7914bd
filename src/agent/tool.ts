/** Typed tools: a zod schema gives the JSON Schema the model reads and checks the arguments it writes. */
import { z } from "zod";
import { argsOf } from "../protocol/args";
import type { Call, Tool } from "./types";

/** Options of a tool: whether it only reads (runs without approval) and how long a call may take. */
export interface ToolOptions {
  readOnly?: boolean;
  timeoutMs?: number;
}

/** The JSON Schema of a zod record or union, as a model API takes it (no `$schema` key). */
export function schema(type: z.ZodType): Record<string, unknown> {
  const json = z.toJSONSchema(type, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  delete json.$schema;
  return json;
}

/** Reads a call's arguments as the record `type`, or throws the reason a model can act on. */
export function parse<T>(type: z.ZodType<T>, args: string): T {
  const checked = type.safeParse(argsOf(args));
  if (!checked.success) throw new Error(`The arguments do not match the schema:\n${issues(checked.error)}`);
  return checked.data;
}

/** The zod issues of a failed parse, one line each, as the model reads them. */
export function issues(error: z.ZodError): string {
  return error.issues
    .map((issue) => `- ${issue.path.length ? issue.path.join(".") : "(the record)"}: ${issue.message}`)
    .join("\n");
}

/**
 * The tool `name` that runs `run` on its input read as `input`: what `run` returns goes back to
 * the model (a string as is, anything else as JSON); what it throws goes back as the call's error.
 */
export function tool<I, O>(
  name: string,
  description: string,
  input: z.ZodType<I>,
  run: (input: I, signal: AbortSignal, call?: Call) => O | Promise<O>,
  options: ToolOptions = {},
): Tool {
  return {
    name,
    description,
    parameters: schema(input),
    readOnly: options.readOnly ?? false,
    timeoutMs: options.timeoutMs,
    async run(args, signal, call) {
      const out = await run(parse(input, args), signal, call);
      return typeof out === "string" ? out : (JSON.stringify(out) ?? "null");
    },
  };
}
