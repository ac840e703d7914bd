// What the demo model may write, as GBNF grammars for node-llama-cpp: sentences of words from its own
// vocabulary (random weights choose among them, so the answer is readable words, never raw bytes), and,
// when the person asks for a file to be read or written and the request offers such a tool, the JSON
// arguments of one call of it. Pure: no runtime needed, so the unit tests check it on its own.

/** The words of the demo model's vocabulary: every word of an answer is one of these. */
export const WORDS = [
  ..."the a an and or of to in is it that this for on with as be are was you your code file test model".split(
    " ",
  ),
  ..."tandem answer demo weights random gibberish function return value error run tool call plan read".split(
    " ",
  ),
  ..."write line text ok yes no".split(" "),
];

/** Every answer starts with these words, so nobody takes the demo's words for advice. */
export const LABEL = "Demo, random weights:";

/** A GBNF string literal of TEXT (quotes, backslashes and control characters escaped). */
function literal(text) {
  return JSON.stringify(text);
}

/** The GBNF rules shared by both grammars: a word, and a sentence of MIN to MAX words. */
function wordRules(min, max) {
  const capital = (w) => w[0].toUpperCase() + w.slice(1);
  return [
    `word ::= ${WORDS.map(literal).join(" | ")}`,
    `first ::= ${WORDS.map((w) => literal(capital(w))).join(" | ")}`,
    `sentence ::= first (" " word){${min - 1},${max - 1}} "."`,
  ];
}

/** The grammar of a text answer: the label, then one to three sentences of the vocabulary's words. */
export function answerGrammar() {
  return [`root ::= ${literal(LABEL)} " " sentence (" " sentence){0,2}`, ...wordRules(4, 10)].join("\n");
}

const READ = /\b(read|open|show|look at)\b/i;
const WRITE = /\b(write|create|save|make)\b/i;
/** A file name the person typed: letters, digits, dots, dashes and slashes, with an extension. */
const FILE = /(?:^|[\s"'`(])((?:[\w-]+\/)*[\w-]+\.[A-Za-z0-9]{1,8})(?=$|[\s"'`),.;:!?])/;

/** The text of a message's content: a string, or the text parts of an array of parts. */
export function textOf(content) {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return content
    .filter((part) => part && part.type === "text" && typeof part.text === "string")
    .map((part) => part.text)
    .join("\n");
}

/** The first tool of TOOLS (OpenAI's request format) whose name matches PATTERN and whose arguments the demo can write. */
function pick(tools, pattern) {
  return tools.find(
    (t) =>
      t?.type === "function" &&
      typeof t.function?.name === "string" &&
      pattern.test(t.function.name) &&
      argumentsGrammar(t.function.parameters, "x") !== undefined,
  );
}

/**
 * The call the demo makes for REQUEST (an OpenAI chat request), if any: only when tools are offered and
 * allowed, the last message is the person's, and it asks to read or write a file. The file is the one
 * the person named, else README.md to read and demo-notes.md to write.
 */
export function plannedCall(request) {
  const tools = Array.isArray(request?.tools) ? request.tools : [];
  const messages = Array.isArray(request?.messages) ? request.messages : [];
  const last = messages.at(-1);
  if (tools.length === 0 || request.tool_choice === "none" || last?.role !== "user") return undefined;
  const text = textOf(last.content);
  const wantsWrite = WRITE.exec(text);
  const wantsRead = READ.exec(text);
  if (!wantsWrite && !wantsRead) return undefined;
  // The verb the person wrote first decides, when both appear ("read a.md and write b.md").
  const write = wantsWrite && (!wantsRead || wantsWrite.index < wantsRead.index);
  const tool = write
    ? (pick(tools, /write|create/i) ?? pick(tools, /edit/i))
    : (pick(tools, /read/i) ?? pick(tools, /open/i));
  if (!tool) return undefined;
  const path = FILE.exec(text)?.[1] ?? (write ? "demo-notes.md" : "README.md");
  return {
    name: tool.function.name,
    grammar: argumentsGrammar(tool.function.parameters, path),
  };
}

const PATHLIKE = /^(path|file|filename|filepath|file_path|uri|target)$/i;

/**
 * The grammar of a JSON object of SCHEMA's required properties and its path (required or not): PATH for
 * a path-like string, a sentence for another string, false for a boolean (never "overwrite" or "force" by
 * accident), 1 for a number, one of an enum's values. Undefined when a required property is of another
 * kind (the demo cannot write it).
 */
export function argumentsGrammar(schema, path) {
  const properties = schema?.properties ?? {};
  const required = Array.isArray(schema?.required) ? [...schema.required] : [];
  // A tool that marks nothing required (Tandem's read_file also reads attachments by name) still gets a path.
  const pathName = Object.keys(properties).find(
    (name) => PATHLIKE.test(name) && properties[name]?.type === "string",
  );
  if (pathName && !required.some((name) => PATHLIKE.test(name))) required.unshift(pathName);
  const fields = [];
  for (const name of required) {
    const property = properties[name] ?? {};
    let value;
    if (Array.isArray(property.enum) && property.enum.length > 0)
      value = `(${property.enum.map((v) => literal(JSON.stringify(v))).join(" | ")})`;
    else if (property.type === "string")
      value = PATHLIKE.test(name) ? literal(JSON.stringify(path)) : "quoted";
    else if (property.type === "boolean") value = literal("false");
    else if (property.type === "integer" || property.type === "number") value = literal("1");
    else return undefined;
    fields.push(`${literal(JSON.stringify(name) + ":")} ${value}`);
  }
  const body = fields.length ? fields.join(' "," ') : "";
  return [
    `root ::= "{" ${body} "}"`,
    `quoted ::= "\\"" ${literal(LABEL)} " " sentence "\\""`,
    ...wordRules(4, 12),
  ].join("\n");
}
