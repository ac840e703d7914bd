/**
 * A server's refusal of a prompt longer than its window, in each server's words, and the window it
 * names. Servers that refuse (instead of cutting) say so differently:
 *
 *   OpenAI, vLLM  "This model's maximum context length is 4096 tokens. However, you requested …"
 *                 (code context_length_exceeded)
 *   llama.cpp     "request (5000 tokens) exceeds the available context size (4096 tokens), try
 *                 increasing it" (type exceed_context_size_error; older: "… exceeds the available
 *                 context size, try increasing it")
 *   LM Studio     "… the model is loaded with context length of only 4096 tokens, which is not enough …"
 *   Anthropic-style proxies  "prompt is too long: 215000 tokens > 200000 maximum"
 */

const OVERFLOW =
  /too long for the context window|maximum context length|context_length_exceeded|exceed_context_size_error|exceeds the available context size|context length of only|prompt is too long/i;

/** True when `text` (an error's message) says the request was longer than the model's window. */
export function isOverflow(text: string): boolean {
  return OVERFLOW.test(text);
}

/** The window an overflow message names, or 0 when it names none. */
export function overflowWindow(text: string): number {
  const named =
    /(?:maximum context length|context window)[^\d]{0,40}(\d{3,8})/i.exec(text) ??
    /available context size \((\d{3,8}) tokens?\)/i.exec(text) ??
    /"n_ctx"\s*:\s*(\d{3,8})/.exec(text) ??
    /context length of only (\d{3,8})/i.exec(text) ??
    /tokens? > (\d{3,8}) maximum/i.exec(text);
  return named ? Number(named[1]) : 0;
}
