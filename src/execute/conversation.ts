/**
 * The API's conversation as the core's request: its messages, tools and sampling settings.
 *
 * The API keeps a tool's result apart from the call it answers (a tool message carries only the
 * tool's name), while a model API pairs them by id. So an agent message's tool_request becomes an
 * assistant call with an id, and each tool message answers the oldest unanswered call of the same
 * name. A tool message that answers nothing (its call was cut by last_k, say) gets the call it
 * answers written before it, and a call left unanswered is answered with NO_RESULT, because model
 * APIs refuse a call without its result.
 *
 * System messages join the instructions, in order, after them: many chat templates accept one
 * system message only, at the start, and the API says they guide the agent as instructions do.
 */
import type { Call, FunctionTool, Message, Parameters, Request } from "../agent/types";
import { DEFAULT_TEMPERATURE, type AgentMessage, type ExecuteAgentRequest, type ToolSpec } from "./schema";

/** What a call the client never answered gives the model as its result. */
export const NO_RESULT = "The client gave no result for this call.";

/** The core's request for one turn of `request` (its memory strategy applied). */
export function toRequest(request: ExecuteAgentRequest): Omit<Request, "signal"> {
  const kept = remembered(request);
  const system = kept.flatMap((m) => (m.role === "system" ? [m.content] : []));
  return {
    instructions: [request.instructions, ...system].filter(Boolean).join("\n\n"),
    messages: toMessages(kept),
    tools: request.tools.map(toFunction),
    answer: false,
    parameters: toParameters(request.model_parameters),
  };
}

/** The messages the memory strategy keeps: the last k, or all. */
export function remembered(request: ExecuteAgentRequest): AgentMessage[] {
  const k = request.memory_strategy?.params.k;
  return k === undefined ? request.messages : request.messages.slice(-k);
}

/** The API's messages as the core's, calls paired with their results. */
export function toMessages(messages: AgentMessage[]): Message[] {
  const out: Message[] = [];
  let pending: Call[] = [];
  let last: Extract<Message, { role: "assistant" }> | undefined;
  const settle = () => {
    for (const call of pending) out.push({ role: "tool", call: call.id, name: call.name, text: NO_RESULT });
    pending = [];
    last = undefined;
  };
  messages.forEach((m, index) => {
    const id = `call_${index}`;
    switch (m.role) {
      case "system":
        return;
      case "user":
        settle();
        out.push({ role: "user", ...userContent(m.content) });
        return;
      case "assistant":
        settle();
        out.push({ role: "assistant", text: m.content });
        return;
      case "agent": {
        const call = m.tool_request
          ? { id, name: m.tool_request.name, arguments: m.tool_request.arguments }
          : undefined;
        // Agent messages that each ask for a tool, one after another, are one turn of parallel calls.
        if (call && !m.content && last?.calls?.length && pending.length === last.calls.length) {
          last.calls.push(call);
          pending.push(call);
          return;
        }
        settle();
        last = { role: "assistant", text: m.content ?? "", ...(call ? { calls: [call] } : {}) };
        out.push(last);
        if (call) pending.push(call);
        else last = undefined;
        return;
      }
      case "tool": {
        let at = pending.findIndex((c) => c.name === m.name);
        if (at < 0) {
          settle();
          const call = { id, name: m.name, arguments: "{}" };
          out.push({ role: "assistant", text: "", calls: [call] });
          pending = [call];
          at = 0;
        }
        const [call] = pending.splice(at, 1);
        out.push({ role: "tool", call: call.id, name: call.name, text: m.content });
        if (!pending.length) last = undefined;
        return;
      }
    }
  });
  settle();
  return out;
}

function userContent(content: Extract<AgentMessage, { role: "user" }>["content"]): {
  text: string;
  images?: string[];
} {
  if (typeof content === "string") return { text: content };
  const texts: string[] = [];
  const images: string[] = [];
  for (const part of content) {
    if (part.type === "text") texts.push(part.text);
    else if (part.type === "image_url") images.push(part.image_url.url);
    else images.push(`data:${part.image_data.media_type};base64,${part.image_data.data}`);
  }
  return images.length ? { text: texts.join("\n"), images } : { text: texts.join("\n") };
}

/** A tool of the request as a model API takes it: its arguments schema, without the nulls. */
export function toFunction(tool: ToolSpec): FunctionTool {
  const parameters: Record<string, unknown> = withoutNulls(tool.arguments);
  const properties: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(tool.arguments.properties ?? {}))
    properties[name] = withoutNulls(property);
  parameters.properties = properties;
  return { type: "function", function: { name: tool.name, description: tool.description, parameters } };
}

function withoutNulls(record: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(record).filter(([, value]) => value !== null));
}

/**
 * The API's model parameters as the core's sampling settings (temperature 0.2 when not given). The
 * endpoint leaves out what a model family refuses: OpenAI's reasoning models get no temperature,
 * as the spec says ("ignored for OpenAI reasoning models"), and max_tokens as max_completion_tokens.
 */
export function toParameters(given: ExecuteAgentRequest["model_parameters"]): Parameters {
  const p = given ?? { temperature: DEFAULT_TEMPERATURE };
  const all: Parameters = {
    temperature: p.temperature,
    maxTokens: p.max_tokens ?? undefined,
    stop: p.stop_sequences ?? undefined,
    topP: p.topP ?? p.top_p ?? undefined,
    topK: p.topK ?? p.top_k ?? undefined,
    frequencyPenalty: p.frequency_penalty ?? undefined,
    presencePenalty: p.presence_penalty ?? undefined,
    reasoningEffort: p.reasoning_effort ?? undefined,
  };
  return Object.fromEntries(Object.entries(all).filter(([, value]) => value !== undefined));
}
