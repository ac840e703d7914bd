/** Whether a call fits its tool: the name offered, the arguments a JSON object of the tool's schema. */
import { z } from "zod";
import { readArgs } from "../protocol/args";
import type { Call, FunctionTool } from "./types";

/** The checkers made of each schema, by its JSON (tools keep their schemas for a whole run). */
const checkers = new Map<string, z.ZodType | undefined>();

/** A checker of values of `schema`; undefined when zod cannot read the schema (it is then taken to fit). */
function checkerOf(schema: Record<string, unknown>): z.ZodType | undefined {
  const key = JSON.stringify(schema);
  if (!checkers.has(key)) {
    let made: z.ZodType | undefined;
    try {
      made = z.fromJSONSchema(schema as Parameters<typeof z.fromJSONSchema>[0]);
    } catch {
      made = undefined;
    }
    if (checkers.size > 500) checkers.clear();
    checkers.set(key, made);
  }
  return checkers.get(key);
}

/** Whether `value` is of `schema` (a schema zod cannot read holds any value). */
export function conforms(schema: Record<string, unknown>, value: unknown): boolean {
  return checkerOf(schema)?.safeParse(value).success ?? true;
}

/** Whether `call` names one of `tools` and its arguments are a JSON object of that tool's schema. */
export function fits(call: Call, tools: FunctionTool[]): boolean {
  const tool = tools.find((t) => t.function.name === call.name);
  if (!tool) return false;
  const read = readArgs(call.arguments);
  return read.ok && conforms(tool.function.parameters, read.args);
}
