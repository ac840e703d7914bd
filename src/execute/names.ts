/**
 * How pydantic names things in its errors: a validator's name (the `loc` step of a union member),
 * a value as Python's repr() writes it, and the list of what it expected.
 */
import { z } from "zod";

type Schema = z.core.$ZodType;

function defOf(schema: Schema): z.core.$ZodTypes["_zod"]["def"] {
  return (schema as z.core.$ZodTypes)._zod.def;
}

const labelsBySchema = new WeakMap<Schema, string>();

/** `nameOf`, worked out once a schema. */
export function label(schema: Schema): string {
  let name = labelsBySchema.get(schema);
  if (name === undefined) labelsBySchema.set(schema, (name = nameOf(schema)));
  return name;
}

/** pydantic's name for a validator, as it appears in the `loc` of a union member's problems. */
export function nameOf(schema: Schema): string {
  const def = defOf(schema);
  switch (def.type) {
    case "string":
      return def.checks?.length ? "constrained-str" : "str";
    case "number":
      return (def as { format?: string }).format?.includes("int") ? "int" : "float";
    case "array":
      return `list[${nameOf(def.element)}]`;
    case "record":
      return `dict[str,${nameOf(def.valueType)}]`;
    case "object": {
      const meta = z.globalRegistry.get(schema) as { id?: string } | undefined;
      return meta?.id ?? "Model";
    }
    case "union": {
      const names = def.options.map(nameOf).join(",");
      return (def as { discriminator?: string }).discriminator ? `tagged-union[${names}]` : `union[${names}]`;
    }
    case "literal":
      return `literal[${def.values.map(repr).join(",")}]`;
    case "enum":
      return `literal[${Object.values(def.entries).map(repr).join(",")}]`;
    case "nullable":
      return `nullable[${nameOf(def.innerType)}]`;
    case "default":
      return `default[${nameOf(def.innerType)}]`;
    case "optional":
      return nameOf(def.innerType);
    default:
      return def.type;
  }
}

/** A JSON value as Python's repr() writes it, which is how pydantic quotes values in messages. */
export function repr(value: unknown): string {
  if (typeof value === "string") {
    const quote = value.includes("'") && !value.includes('"') ? '"' : "'";
    const body = value
      .replace(/\\/g, "\\\\")
      .replace(/\n/g, "\\n")
      .replace(/\r/g, "\\r")
      .replace(/\t/g, "\\t");
    return quote + (quote === "'" ? body.replace(/'/g, "\\'") : body) + quote;
  }
  if (value === null || value === undefined) return "None";
  if (typeof value === "boolean") return value ? "True" : "False";
  if (Array.isArray(value)) return `[${value.map(repr).join(", ")}]`;
  if (typeof value === "object")
    return `{${Object.entries(value)
      .map(([k, v]) => `${repr(k)}: ${repr(v)}`)
      .join(", ")}}`;
  return String(value);
}

/** "'a'", "'a' or 'b'", "'a', 'b' or 'c'": how pydantic lists what it expected. */
export function listed(items: string[]): string {
  return items.length <= 1
    ? (items[0] ?? "")
    : `${items.slice(0, -1).join(", ")} or ${items[items.length - 1]}`;
}
