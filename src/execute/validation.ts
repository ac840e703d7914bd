/**
 * Validates a JSON value against a zod schema the way pydantic v2 (in FastAPI's lax mode) does,
 * so that a client written against the API document gets the same errors: one entry per problem,
 * each with pydantic's `type`, `msg`, `ctx` and a `loc` that names the field (a tagged union
 * puts the tag in the path, a plain union the name of each member it tried).
 */
import { z } from "zod";
import { label, listed, repr } from "./names";

/** Where a problem is: keys and indexes from the root. */
export type Loc = (string | number)[];

/** One problem, in pydantic's shape. */
export interface Problem {
  type: string;
  loc: Loc;
  msg: string;
  input: unknown;
  ctx?: Record<string, unknown>;
}

/** The value with defaults filled and numbers read, or every problem found. */
export type Checked = { ok: true; value: unknown } | { ok: false; problems: Problem[] };

type Schema = z.core.$ZodType;
type Json = Record<string, unknown>;

const FAIL = Symbol("fail");
type Walked = unknown | typeof FAIL;

/** Checks `input` against `schema`, naming problems from `loc`. */
export function check(schema: Schema, input: unknown, loc: Loc = []): Checked {
  const problems: Problem[] = [];
  const value = walk(schema, input, loc, problems);
  return value === FAIL ? { ok: false, problems } : { ok: true, value };
}

function fail(
  out: Problem[],
  loc: Loc,
  input: unknown,
  type: string,
  msg: string,
  ctx?: Record<string, unknown>,
) {
  out.push(ctx ? { type, loc, msg, input, ctx } : { type, loc, msg, input });
  return FAIL;
}

// Pydantic's problem for a model (an object or a tagged union) given something that has no fields.
function notFields(out: Problem[], loc: Loc, input: unknown) {
  return fail(
    out,
    loc,
    input,
    "model_attributes_type",
    "Input should be a valid dictionary or object to extract fields from",
  );
}

function defOf(schema: Schema): z.core.$ZodTypes["_zod"]["def"] {
  return (schema as z.core.$ZodTypes)._zod.def;
}

function isObject(input: unknown): input is Json {
  return typeof input === "object" && input !== null && !Array.isArray(input);
}

function own(input: Json, key: string): unknown {
  return Object.hasOwn(input, key) ? input[key] : undefined;
}

// A field that may be left out: optional, nullish, or with a default.
function optional(schema: Schema): boolean {
  const type = defOf(schema).type;
  return type === "optional" || type === "default" || schema._zod.optin === "optional";
}

function walk(schema: Schema, input: unknown, loc: Loc, out: Problem[]): Walked {
  const value = shape(schema, input, loc, out);
  if (value === FAIL) return FAIL;
  return refined(schema, value, loc, out);
}

function shape(schema: Schema, input: unknown, loc: Loc, out: Problem[]): Walked {
  const def = defOf(schema);
  switch (def.type) {
    case "default":
      if (input !== undefined) return walk(def.innerType, input, loc, out);
      return typeof def.defaultValue === "object" ? structuredClone(def.defaultValue) : def.defaultValue;
    case "optional":
      return input === undefined ? undefined : walk(def.innerType, input, loc, out);
    case "nullable":
      return input === null ? null : walk(def.innerType, input, loc, out);
    case "unknown":
    case "any":
      return input;
    case "string":
      if (typeof input !== "string")
        return fail(out, loc, input, "string_type", "Input should be a valid string");
      for (const c of def.checks ?? []) {
        const d = c._zod.def as { check: string; format?: string; pattern?: RegExp };
        if (d.check === "string_format" && d.format === "regex" && d.pattern && !d.pattern.test(input))
          return fail(
            out,
            loc,
            input,
            "string_pattern_mismatch",
            `String should match pattern '${d.pattern.source}'`,
            {
              pattern: d.pattern.source,
            },
          );
      }
      return input;
    case "number":
      return number(def, input, loc, out);
    case "literal":
    case "enum": {
      const values: unknown[] = def.type === "literal" ? def.values : Object.values(def.entries);
      if (values.includes(input)) return input;
      const expected = listed(values.map(repr));
      return fail(out, loc, input, "literal_error", `Input should be ${expected}`, { expected });
    }
    case "array": {
      if (!Array.isArray(input)) return fail(out, loc, input, "list_type", "Input should be a valid list");
      for (const c of def.checks ?? []) {
        const d = c._zod.def as { check: string; maximum?: number };
        // pydantic stops at the first item past the limit and reports only that.
        if (d.check === "max_length" && d.maximum !== undefined && input.length > d.maximum)
          return fail(
            out,
            loc,
            input,
            "too_long",
            `List should have at most ${d.maximum} item${d.maximum === 1 ? "" : "s"} after validation, not ${input.length}`,
            { field_type: "List", max_length: d.maximum, actual_length: input.length },
          );
      }
      let failed = false;
      const items: unknown[] = [];
      for (let index = 0; index < input.length; index++) {
        const value = walk(def.element, input[index], [...loc, index], out);
        if (value === FAIL) failed = true;
        items.push(value);
      }
      return failed ? FAIL : items;
    }
    case "record": {
      if (!isObject(input)) return fail(out, loc, input, "dict_type", "Input should be a valid dictionary");
      let failed = false;
      const record: Json = {};
      for (const key of Object.keys(input)) {
        const value = walk(def.valueType, input[key], [...loc, key], out);
        if (value === FAIL) failed = true;
        else record[key] = value;
      }
      return failed ? FAIL : record;
    }
    case "object": {
      if (!isObject(input)) return notFields(out, loc, input);
      let failed = false;
      const fields: Json = {};
      for (const [key, field] of Object.entries(def.shape)) {
        const given = own(input, key);
        if (given === undefined && !optional(field)) {
          out.push({ type: "missing", loc: [...loc, key], msg: "Field required", input });
          failed = true;
          continue;
        }
        const value = walk(field, given, [...loc, key], out);
        if (value === FAIL) failed = true;
        else if (value !== undefined) fields[key] = value;
      }
      // A loose object keeps the keys it does not name, as given.
      if (def.catchall && defOf(def.catchall).type === "unknown")
        for (const key of Object.keys(input)) if (!Object.hasOwn(def.shape, key)) fields[key] = input[key];
      return failed ? FAIL : fields;
    }
    case "union": {
      const discriminator = (def as { discriminator?: string }).discriminator;
      return discriminator === undefined
        ? union(def.options, input, loc, out)
        : tagged(def.options, discriminator, input, loc, out);
    }
    default:
      throw new Error(`validation of a zod "${def.type}" is not supported`);
  }
}

function number(def: z.core.$ZodNumberDef, input: unknown, loc: Loc, out: Problem[]): Walked {
  const integer = (def as { format?: string }).format?.includes("int") ?? false;
  // Lax mode, as FastAPI validates: booleans and numeric strings are read as numbers.
  const value =
    typeof input === "number"
      ? input
      : typeof input === "boolean"
        ? Number(input)
        : numberWritten(input, integer);
  if (value === undefined)
    return typeof input !== "string"
      ? fail(
          out,
          loc,
          input,
          integer ? "int_type" : "float_type",
          `Input should be a valid ${integer ? "integer" : "number"}`,
        )
      : integer
        ? fail(
            out,
            loc,
            input,
            "int_parsing",
            "Input should be a valid integer, unable to parse string as an integer",
          )
        : fail(
            out,
            loc,
            input,
            "float_parsing",
            "Input should be a valid number, unable to parse string as a number",
          );
  if (integer && !Number.isInteger(value))
    return fail(
      out,
      loc,
      input,
      "int_from_float",
      "Input should be a valid integer, got a number with a fractional part",
    );
  for (const c of def.checks ?? []) {
    const d = c._zod.def as { check: string; value?: number; inclusive?: boolean };
    if (d.value === undefined) continue;
    if (d.check === "greater_than" && (d.inclusive ? !(value >= d.value) : !(value > d.value)))
      return d.inclusive
        ? fail(out, loc, input, "greater_than_equal", `Input should be greater than or equal to ${d.value}`, {
            ge: d.value,
          })
        : fail(out, loc, input, "greater_than", `Input should be greater than ${d.value}`, { gt: d.value });
    if (d.check === "less_than" && (d.inclusive ? !(value <= d.value) : !(value < d.value)))
      return d.inclusive
        ? fail(out, loc, input, "less_than_equal", `Input should be less than or equal to ${d.value}`, {
            le: d.value,
          })
        : fail(out, loc, input, "less_than", `Input should be less than ${d.value}`, { lt: d.value });
  }
  return value;
}

// A number written as a string, as Python's int() and float() read one (undefined: not one).
function numberWritten(input: unknown, integer: boolean): number | undefined {
  if (typeof input !== "string") return undefined;
  const text = input.trim();
  if (integer) return /^[+-]?\d+(\.0+)?$/.test(text) ? Number(text) : undefined;
  if (/^[+-]?(inf|infinity)$/i.test(text)) return text.startsWith("-") ? -Infinity : Infinity;
  if (/^[+-]?nan$/i.test(text)) return NaN;
  return /^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : undefined;
}

// A plain union tries each member and, when none fits, reports each member's problems under its name.
function union(options: readonly Schema[], input: unknown, loc: Loc, out: Problem[]): Walked {
  const tried: Problem[] = [];
  for (const option of options) {
    const value = walk(option, input, [...loc, label(option)], tried);
    if (value !== FAIL) return value;
  }
  out.push(...tried);
  return FAIL;
}

// A tagged union reads the tag first and validates only the member it names, with the tag in `loc`.
function tagged(
  options: readonly Schema[],
  discriminator: string,
  input: unknown,
  loc: Loc,
  out: Problem[],
): Walked {
  if (!isObject(input)) return notFields(out, loc, input);
  const quoted = `'${discriminator}'`;
  if (!Object.hasOwn(input, discriminator))
    return fail(
      out,
      loc,
      input,
      "union_tag_not_found",
      `Unable to extract tag using discriminator ${quoted}`,
      {
        discriminator: quoted,
      },
    );
  const tag = input[discriminator];
  const tags = tagsOf(options, discriminator);
  const index = tags.indexOf(tag as string);
  if (index < 0) {
    const expected = tags.map(repr).join(", ");
    const shown = typeof tag === "string" ? tag : repr(tag);
    return fail(
      out,
      loc,
      input,
      "union_tag_invalid",
      `Input tag '${shown}' found using ${quoted} does not match any of the expected tags: ${expected}`,
      { discriminator: quoted, tag: shown, expected_tags: expected },
    );
  }
  return walk(options[index], input, [...loc, tags[index]], out);
}

const tagsByUnion = new WeakMap<readonly Schema[], string[]>();

// The tags of a union's members, read once from their schemas.
function tagsOf(options: readonly Schema[], discriminator: string): string[] {
  let found = tagsByUnion.get(options);
  if (!found) tagsByUnion.set(options, (found = options.map((option) => tagOf(option, discriminator))));
  return found;
}

function tagOf(option: Schema, discriminator: string): string {
  const def = defOf(option);
  if (def.type !== "object") throw new Error("a tagged union's members must be objects");
  let field: Schema = def.shape[discriminator];
  for (let d = defOf(field); d.type === "default" || d.type === "optional"; d = defOf(field))
    field = d.innerType;
  const d = defOf(field);
  if (d.type !== "literal" || typeof d.values[0] !== "string")
    throw new Error("a tag must be a string literal");
  return d.values[0];
}

// Runs the schema's own refinements (zod checks such as unique tool names) on a value that has the
// right shape, and reports each as pydantic reports a validator's ValueError.
function refined(schema: Schema, value: unknown, loc: Loc, out: Problem[]): Walked {
  const checks = (defOf(schema) as { checks?: z.core.$ZodCheck[] }).checks ?? [];
  let custom = false;
  for (const c of checks) custom ||= c._zod.def.check === "custom";
  if (!custom) return value;
  const parsed = (schema as z.ZodType).safeParse(value, { reportInput: true });
  if (parsed.success) return value;
  for (const issue of parsed.error.issues) {
    const params = issue.code === "custom" ? (issue.params as { type?: string } | undefined) : undefined;
    out.push({
      type: params?.type ?? issue.code,
      loc: [...loc, ...issue.path.map((key) => (typeof key === "symbol" ? String(key) : key))],
      msg: issue.message,
      input: issue.input,
      // FastAPI serializes the ValueError in ctx as an empty object.
      ctx: { error: {} },
    });
  }
  return FAIL;
}
