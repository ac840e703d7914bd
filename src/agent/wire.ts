/** A turn's request as the Chat Completions API reads it. */
import type { ChatCompletionCreateParamsStreaming } from "openai/resources/chat/completions";
import { asText, described } from "./textcalls";
import type { Message, Request } from "./types";

type Wire = Record<string, unknown>;

/** The streaming request body of `request` for `model`; `textTools` describes the tools in the instructions. */
export function body(
  request: Request,
  model: string,
  textTools: boolean,
  openrouter = false,
): ChatCompletionCreateParamsStreaming {
  const offered = request.tools.length > 0;
  const instructions = [request.instructions];
  if (textTools && offered && !request.answer) instructions.push(described(request.tools));
  const system = instructions.filter(Boolean).join("\n\n");
  const messages: Wire[] = system ? [{ role: "system", content: system }] : [];
  for (const m of textTools ? asText(request.messages) : request.messages) messages.push(wire(m));
  const out: Wire = { model, messages, stream: true, stream_options: { include_usage: true } };
  if (offered && !textTools) {
    out.tools = request.tools;
    if (request.answer) out.tool_choice = "none";
  }
  const p = request.parameters ?? {};
  if (p.temperature !== undefined) out.temperature = p.temperature;
  if (p.maxTokens !== undefined) out.max_tokens = p.maxTokens;
  if (p.stop?.length) out.stop = p.stop;
  if (p.topP !== undefined) out.top_p = p.topP;
  // top_k is not in OpenAI's API; vLLM, llama.cpp, Ollama and OpenRouter read it as an extra field.
  if (p.topK !== undefined) out.top_k = p.topK;
  if (p.frequencyPenalty !== undefined) out.frequency_penalty = p.frequencyPenalty;
  if (p.presencePenalty !== undefined) out.presence_penalty = p.presencePenalty;
  if (p.reasoningEffort !== undefined) {
    if (openrouter) out.reasoning = { effort: p.reasoningEffort };
    else out.reasoning_effort = p.reasoningEffort;
  }
  return out as unknown as ChatCompletionCreateParamsStreaming;
}

function wire(m: Message): Wire {
  if (m.role === "user") {
    if (!m.images?.length) return { role: "user", content: m.text };
    return {
      role: "user",
      content: [
        { type: "text", text: m.text },
        ...m.images.map((url) => ({ type: "image_url", image_url: { url } })),
      ],
    };
  }
  if (m.role === "tool") return { role: "tool", tool_call_id: m.call, content: m.text };
  const out: Wire = { role: "assistant", content: m.text || (m.calls?.length ? null : "") };
  if (m.calls?.length) {
    out.tool_calls = m.calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.name, arguments: c.arguments || "{}" },
    }));
  }
  // The provider's reasoning details go back as they came so it can continue its reasoning.
  if (m.details?.length) out.reasoning_details = m.details;
  return out;
}
