/** Tool calling for models that cannot do it natively: the tools in the instructions, calls read from the text. */
import type { Call, FunctionTool, Message } from "./types";
import { readArgs } from "../protocol/args";
import { constrainedCall } from "./constrained";

/** The instructions that describe `tools` to a model that calls them by writing. */
export function described(tools: FunctionTool[]): string {
  const list = tools
    .map(
      (t) =>
        `- ${t.function.name}: ${t.function.description}\n  arguments: ${JSON.stringify(t.function.parameters)}`,
    )
    .join("\n");
  return (
    "You can call tools. To call one, write exactly this, with the arguments as a JSON object:\n" +
    '<tool_call>\n{"name": "TOOL", "arguments": {…}}\n</tool_call>\n' +
    "You may write several calls. Then stop writing: the results come back in the next message.\n" +
    `The tools:\n${list}`
  );
}

let counter = 0;

/** The call written in one `<tool_call>` body, or in a whole answer that is only the JSON of a call of one of `names`. */
export function writtenCall(body: string, names?: Set<string>): Call | undefined {
  const json = body
    .trim()
    .replace(/^```(?:json)?\s*|\s*```$/g, "")
    .trim();
  if (!json.startsWith("{")) return undefined;
  let value: unknown;
  try {
    value = JSON.parse(json);
  } catch {
    return undefined;
  }
  if (typeof value !== "object" || value === null) return undefined;
  const record = value as { name?: unknown; arguments?: unknown; parameters?: unknown };
  if (typeof record.name !== "string" || (names && !names.has(record.name))) return undefined;
  const args = record.arguments ?? record.parameters ?? {};
  return {
    id: `call_t${counter++}`,
    name: record.name,
    arguments: typeof args === "string" ? args : JSON.stringify(args),
  };
}

/** A call as a model that calls by writing writes it. */
function tagged(call: Call): string {
  return `<tool_call>\n${JSON.stringify({ name: call.name, arguments: argsOf(call.arguments) })}\n</tool_call>`;
}

/** A call as a constrained model writes it (the JSON its format holds it to). */
export function asJson(call: Call): string {
  return constrainedCall(call, argsOf(call.arguments));
}

/**
 * The conversation as a model without native tools reads it: calls and results written as text,
 * each call as `written` writes it (default: in `<tool_call>` tags).
 */
export function asText(messages: Message[], written: (call: Call) => string = tagged): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    if (m.role === "assistant" && m.calls?.length) {
      const calls = m.calls.map(written);
      out.push({
        role: "assistant",
        text: [m.text, ...calls].filter(Boolean).join("\n"),
        ...(m.reasoning ? { reasoning: m.reasoning } : {}),
        details: m.details,
      });
    } else if (m.role === "tool") {
      const result = `<tool_response name="${m.name ?? ""}">\n${m.text}\n</tool_response>`;
      const last = out.at(-1);
      // Consecutive results join one user message: many chat templates want roles to alternate.
      if (last?.role === "user" && last.text.startsWith("<tool_response")) last.text += `\n${result}`;
      else out.push({ role: "user", text: result });
    } else out.push({ ...m });
  }
  return out;
}

/** The arguments as the record they hold, else as the text the model wrote. */
function argsOf(text: string): unknown {
  const read = readArgs(text);
  return read.ok ? read.args : text;
}
