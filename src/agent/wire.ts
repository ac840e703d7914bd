/** A turn's request as the Chat Completions API reads it. */
import type {
  ChatCompletionAssistantMessageParam,
  ChatCompletionCreateParamsStreaming,
  ChatCompletionMessageParam,
} from "openai/resources/chat/completions";
import type { Learned } from "./facts";
import { sampling, type Sampling } from "./sampling";
import { constrainedDescribed, responseFormat } from "./constrained";
import { asJson, asText, described } from "./textcalls";
import type { Message, Request } from "./types";

/**
 * An assistant turn with the reasoning it carries back, in the field its endpoint streamed it in
 * (DeepSeek's `reasoning_content`, vLLM's `reasoning`, OpenRouter's `reasoning_details`): fields
 * the SDK's types do not know, sent as they are.
 */
type AssistantParam = ChatCompletionAssistantMessageParam & {
  reasoning_details?: unknown[];
  reasoning_content?: string;
  reasoning?: string;
};

/** A streaming Chat Completions request, with the sampling fields some endpoints add. */
export type WireRequest = ChatCompletionCreateParamsStreaming & Sampling;

/** How one endpoint reads a request: tools in the text or native, who it is, and what was learned of the model. */
export interface Dialect {
  /** Describe the tools in the instructions and write calls as text. */
  textTools: boolean;
  /** The endpoint's base URL (some fields are not sent to some APIs). */
  baseURL: string;
  openrouter?: boolean;
  learned?: Learned;
  /**
   * Hold the output to "an answer, or one of the tools with arguments of its schema" with
   * `response_format` (the endpoint honours a JSON Schema): tools described, calls read from the JSON.
   */
  constrained?: boolean;
}

/** The streaming request body of `request` for `model` at an endpoint that reads it as `dialect` says. */
export function body(request: Request, model: string, dialect: Dialect): WireRequest {
  const { learned = {} } = dialect;
  const offered = request.tools.length > 0;
  const constrained = (dialect.constrained ?? false) && offered;
  // A constrained model reads its conversation as a text-tools model does, its calls written as JSON.
  const textTools = dialect.textTools || constrained;
  const instructions = [request.instructions];
  if (textTools && offered && !request.answer)
    instructions.push(constrained ? constrainedDescribed(request.tools) : described(request.tools));
  const system = instructions.filter(Boolean).join("\n\n");
  const messages: ChatCompletionMessageParam[] = system ? [{ role: "system", content: system }] : [];
  const kept = withReasoning(request.messages);
  const read = textTools ? asText(kept, constrained ? asJson : undefined) : kept;
  for (const m of read) messages.push(wire(m, learned.reasoning));
  return {
    model,
    messages,
    stream: true,
    stream_options: { include_usage: true },
    ...(offered && !textTools ? { tools: request.tools } : {}),
    ...(offered && !textTools && request.answer ? { tool_choice: "none" as const } : {}),
    ...(constrained && !request.answer ? { response_format: responseFormat(request.tools) } : {}),
    ...sampling(request.parameters ?? {}, model, dialect.baseURL, learned, dialect.openrouter ?? false),
  };
}

/**
 * The messages with reasoning kept where it goes back: on turns that called tools (DeepSeek, Kimi
 * and GLM refuse a tool-call turn without it) and on the turns since the person's last message.
 * Older answers' reasoning is left out: chat templates drop it, and it would only cost bytes.
 */
function withReasoning(messages: Message[]): Message[] {
  const last = messages.findLastIndex((m) => m.role === "user");
  return messages.map((m, i) => {
    if (m.role !== "assistant" || !m.reasoning || m.calls?.length || i > last) return m;
    const { reasoning: _dropped, ...rest } = m;
    return rest;
  });
}

function wire(m: Message, field: Learned["reasoning"]): ChatCompletionMessageParam {
  if (m.role === "user") {
    if (!m.images?.length) return { role: "user", content: m.text };
    return {
      role: "user",
      content: [
        { type: "text", text: m.text },
        ...m.images.map((url) => ({ type: "image_url" as const, image_url: { url } })),
      ],
    };
  }
  if (m.role === "tool") return { role: "tool", tool_call_id: m.call, content: m.text };
  const out: AssistantParam = { role: "assistant", content: m.text || (m.calls?.length ? null : "") };
  if (m.calls?.length) {
    out.tool_calls = m.calls.map((c) => ({
      id: c.id,
      type: "function" as const,
      function: { name: c.name, arguments: c.arguments || "{}" },
    }));
  }
  // The provider's reasoning details go back as they came so it can continue its reasoning.
  if (m.details?.length) out.reasoning_details = m.details;
  else if (field === "reasoning_content" || field === "reasoning") {
    // In the field the endpoint streamed it in; a tool-call turn always carries it, empty when none was kept.
    if (m.reasoning) out[field] = m.reasoning;
    else if (m.calls?.length) out[field] = "";
  }
  return out;
}
