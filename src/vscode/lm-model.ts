import vscode = require("vscode");
import type { Call, Message, Model, Request, Turn } from "../agent/types";

/** VS Code's chat messages for a core request: instructions first, tool calls and results as parts. */
export function toChatMessages(request: Request): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  // vscode.lm has no system role: the instructions open the conversation as the person's words.
  if (request.instructions) out.push(vscode.LanguageModelChatMessage.User(request.instructions));
  for (const m of request.messages) out.push(toChatMessage(m));
  if (request.answer)
    out.push(vscode.LanguageModelChatMessage.User("Answer now in words; do not call a tool."));
  return out;
}

function toChatMessage(m: Message): vscode.LanguageModelChatMessage {
  if (m.role === "user") {
    const note = m.images?.length
      ? `\n\n(${m.images.length} picture(s) attached; this model reads text only.)`
      : "";
    return vscode.LanguageModelChatMessage.User(m.text + note);
  }
  if (m.role === "tool") {
    return vscode.LanguageModelChatMessage.User([
      new vscode.LanguageModelToolResultPart(m.call, [new vscode.LanguageModelTextPart(m.text)]),
    ]);
  }
  const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
  if (m.text) parts.push(new vscode.LanguageModelTextPart(m.text));
  for (const c of m.calls ?? []) parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, argsOf(c)));
  return vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : "");
}

function argsOf(call: Call): object {
  try {
    const value: unknown = JSON.parse(call.arguments || "{}");
    return value && typeof value === "object" ? value : { value };
  } catch {
    return { arguments: call.arguments };
  }
}

/** A core Model over a model VS Code offers (Copilot's, or another extension's), tools included. */
export function lmModel(chat: vscode.LanguageModelChat): Model {
  return {
    name: chat.name,
    async turn(request, each): Promise<Turn> {
      const cancel = new vscode.CancellationTokenSource();
      const abort = () => cancel.cancel();
      request.signal?.addEventListener("abort", abort);
      try {
        const tools = request.answer
          ? []
          : request.tools.map((t) => ({
              name: t.function.name,
              description: t.function.description,
              inputSchema: t.function.parameters,
            }));
        const messages = toChatMessages(request);
        const response = await chat.sendRequest(messages, { tools }, cancel.token);
        let text = "";
        const calls: Call[] = [];
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            text += part.value;
            if (each({ kind: "text", text: part.value }) === false) {
              cancel.cancel();
              break;
            }
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            calls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
          }
        }
        const count = (s: string) =>
          Promise.resolve(chat.countTokens(s)).catch(() => Math.ceil(s.length / 4));
        const input = await count(messages.map((m) => JSON.stringify(m.content)).join("\n"));
        return {
          text,
          reasoning: "",
          calls,
          details: [],
          tokens: await count(text),
          input,
          window: chat.maxInputTokens,
        };
      } finally {
        request.signal?.removeEventListener("abort", abort);
        cancel.dispose();
      }
    },
  };
}
