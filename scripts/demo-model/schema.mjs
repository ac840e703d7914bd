// What the demo model makes of a request's `response_format` JSON Schema, for node-llama-cpp's JSON-schema
// grammar (`llama.createGrammarForJsonSchema`), as llama.cpp's server turns one into a grammar: the schema
// in the subset that grammar takes (oneOf for anyOf, only required properties, a value in range for a
// bounded number, since it has no ranges), and strings and lists kept short, because random weights would
// rarely choose to end them. Its one piece of intent is the demo's own, as in its native calls: asked to
// read or write a file, it takes the schema's branch of that tool with the file named; after a tool's
// result, the answer branch. Pure: no runtime needed, so the unit tests check it on its own.
import { textOf } from "./grammar.mjs";

/** The longest string the demo writes into a JSON value. */
export const STRING_CAP = 80;
/** The most items the demo writes into a JSON list. */
export const ITEMS_CAP = 3;
/** How deep `$ref`s are followed before a value becomes a plain one. */
const DEPTH = 8;

const READ = /\b(read|open|show|look at)\b/i;
const WRITE = /\b(write|create|save|make)\b/i;
const FILE = /(?:^|[\s"'`(])((?:[\w-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),.;:!?])/;
const PATHLIKE = /^(path|file|filename|filepath|file_path|uri|target)$/i;
const ANY = { type: ["string", "number", "boolean", "null"] };

/** The JSON Schema REQUEST (an OpenAI chat request) holds its answer to, if any. */
export function requestedSchema(request) {
  const format = request?.response_format;
  if (
    format?.type === "json_schema" &&
    format.json_schema?.schema &&
    typeof format.json_schema.schema === "object"
  )
    return format.json_schema.schema;
  // llama.cpp also takes a schema beside json_object.
  if (format?.type === "json_object" && format.schema && typeof format.schema === "object")
    return format.schema;
  return undefined;
}

/** SCHEMA in the subset node-llama-cpp's grammar takes; ROOT holds its `$defs`. */
export function forGrammar(schema, root = schema, depth = 0) {
  if (!schema || typeof schema !== "object" || depth > DEPTH) return ANY;
  if (typeof schema.$ref === "string") {
    const name = /^#\/(?:\$defs|definitions)\/(.+)$/.exec(schema.$ref)?.[1];
    const target = name && (root.$defs?.[name] ?? root.definitions?.[name]);
    return target ? forGrammar(target, root, depth + 1) : ANY;
  }
  if ("const" in schema) return { const: schema.const };
  if (Array.isArray(schema.enum) && schema.enum.length) return { enum: schema.enum };
  const options = schema.anyOf ?? schema.oneOf;
  if (Array.isArray(options) && options.length) {
    const each = options.map((option) => forGrammar(option, root, depth + 1));
    return each.length === 1 ? each[0] : { oneOf: each };
  }
  if (Array.isArray(schema.allOf) && schema.allOf.length) {
    // Parts of one object: their properties and requirements together.
    const merged = { type: "object", properties: {}, required: [] };
    for (const part of schema.allOf) {
      Object.assign(merged.properties, part?.properties ?? {});
      merged.required.push(...(Array.isArray(part?.required) ? part.required : []));
    }
    return forGrammar(merged, root, depth + 1);
  }
  const type = schema.type;
  if (Array.isArray(type))
    return { oneOf: type.map((one) => forGrammar({ ...schema, type: one }, root, depth + 1)) };
  if (type === "string") {
    const min = Math.max(0, Number(schema.minLength) || 0);
    const max = Math.max(min, Math.min(Number(schema.maxLength) || STRING_CAP, STRING_CAP));
    return { type: "string", ...(min ? { minLength: min } : {}), maxLength: max };
  }
  if (type === "integer" || type === "number") return number(schema, type);
  if (type === "boolean" || type === "null") return { type };
  if (type === "array") {
    const min = Math.max(0, Number(schema.minItems) || 0);
    const max = Math.max(min, Math.min(Number(schema.maxItems) || ITEMS_CAP, ITEMS_CAP));
    return {
      type: "array",
      items: forGrammar(schema.items ?? {}, root, depth + 1),
      ...(min ? { minItems: min } : {}),
      maxItems: max,
    };
  }
  if (type === "object" || schema.properties) {
    // The grammar writes every property it is given: only the required ones are, so each value is one asked for.
    const required = Array.isArray(schema.required) ? schema.required : [];
    const properties = {};
    for (const name of required)
      properties[name] = forGrammar(schema.properties?.[name] ?? {}, root, depth + 1);
    return { type: "object", properties, additionalProperties: false };
  }
  return ANY;
}

/** A number of SCHEMA's type: in range when the schema bounds it (the grammar has no ranges), else any. */
function number(schema, type) {
  const low =
    schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
  const high =
    schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : undefined);
  if (low === undefined && high === undefined) return { type };
  const value = low !== undefined ? Math.ceil(low) : Math.floor(high);
  return { const: value };
}

/** The branches of a constrained schema: the answer's, and each tool's by name. */
function branches(schema) {
  const options = Array.isArray(schema?.anyOf)
    ? schema.anyOf
    : Array.isArray(schema?.oneOf)
      ? schema.oneOf
      : [];
  const answer = options.find((o) => o?.properties?.answer && !o.properties.tool);
  const tools = options.filter((o) => typeof o?.properties?.tool?.const === "string");
  return { answer, tools };
}

/**
 * The grammar schema of REQUEST's response_format, with the demo's intent: after a tool's result the
 * answer branch; asked to read or write a file, that tool's branch with the file named and flags false;
 * else the whole schema. Undefined when the request asks for no JSON Schema.
 */
export function demoSchema(request) {
  const schema = requestedSchema(request);
  if (!schema) return undefined;
  const { answer, tools } = branches(schema);
  const messages = Array.isArray(request.messages) ? request.messages : [];
  const last = messages.at(-1);
  const said = last?.role === "user" ? textOf(last.content) : "";
  if (answer && (last?.role === "tool" || said.startsWith("<tool_response")))
    return forGrammar(answer, schema);
  const write = WRITE.exec(said);
  const read = READ.exec(said);
  const writing = write && (!read || write.index < read.index);
  const named = (pattern) => tools.find((o) => pattern.test(o.properties.tool.const));
  const branch =
    write || read ? (writing ? (named(/write|create/i) ?? named(/edit/i)) : named(/read|open/i)) : undefined;
  if (!branch) return forGrammar(schema);
  const path = FILE.exec(said)?.[1] ?? (writing ? "demo-notes.md" : "README.md");
  const args = forGrammar(branch.properties.arguments ?? {}, schema);
  const properties = { ...(args.properties ?? {}) };
  const pathName = Object.keys(branch.properties.arguments?.properties ?? {}).find((name) =>
    PATHLIKE.test(name),
  );
  if (pathName) properties[pathName] = { const: path };
  // Never "overwrite" or "force" by accident, as in the demo's native calls.
  for (const [name, value] of Object.entries(properties))
    if (value.type === "boolean") properties[name] = { const: false };
  return {
    type: "object",
    properties: {
      tool: { const: branch.properties.tool.const },
      arguments: { type: "object", properties, additionalProperties: false },
    },
    additionalProperties: false,
  };
}
