import vscode = require("vscode");
import { Stops } from "../agent/stops";
import type { Call, Message, Model, Parameters, Piece, Request, Turn } from "../agent/types";
import { readArgs } from "../protocol/args";

/** Makes VS Code's image data part of DATA, or undefined when the running VS Code has no data parts. */
type ImageMaker = (data: Uint8Array, mimeType: string) => unknown;

/** `LanguageModelDataPart.image` of the running VS Code, if it has one (the API is newer than its types here). */
function imageMaker(): ImageMaker | undefined {
  const DataPart: unknown = Reflect.get(vscode, "LanguageModelDataPart");
  const image: unknown = DataPart ? Reflect.get(DataPart, "image") : undefined;
  if (typeof image !== "function") return undefined;
  return (data, mimeType) => {
    const part: unknown = Reflect.apply(image, DataPart, [data, mimeType]);
    return part;
  };
}

/** True when CHAT says it reads images (`capabilities.supportsImageToText`, where VS Code gives it). */
function readsImages(chat: vscode.LanguageModelChat): boolean {
  const capabilities: unknown = Reflect.get(chat, "capabilities");
  return !!capabilities && Reflect.get(capabilities, "supportsImageToText") === true;
}

/**
 * VS Code's chat messages for a core request: instructions first, tool calls and results as parts, and
 * a message's images as data parts when IMAGE can make them (else a note that they were left out).
 */
export function toChatMessages(request: Request, image?: ImageMaker): vscode.LanguageModelChatMessage[] {
  const out: vscode.LanguageModelChatMessage[] = [];
  // vscode.lm has no system role: the instructions open the conversation as the person's words.
  if (request.instructions) out.push(vscode.LanguageModelChatMessage.User(request.instructions));
  for (const m of request.messages) out.push(toChatMessage(m, image));
  if (request.answer)
    out.push(vscode.LanguageModelChatMessage.User("Answer now in words; do not call a tool."));
  return out;
}

/** The media type and bytes of a data URL, or undefined for another URL. */
function bytesOf(url: string): { mimeType: string; data: Uint8Array } | undefined {
  const match = /^data:([\w.+-]+\/[\w.+-]+);base64,(.*)$/s.exec(url);
  return match ? { mimeType: match[1], data: Buffer.from(match[2], "base64") } : undefined;
}

function toChatMessage(m: Message, image?: ImageMaker): vscode.LanguageModelChatMessage {
  if (m.role === "user") {
    const pictures = image ? (m.images ?? []).flatMap((url) => bytesOf(url) ?? []) : [];
    const left = (m.images?.length ?? 0) - pictures.length;
    const note = left ? `\n\n(${left} image(s) left out: this model reads text only.)` : "";
    const message = vscode.LanguageModelChatMessage.User(m.text + note);
    if (image && pictures.length) {
      // The types (VS Code 1.104) list no data parts in a message; the running VS Code takes them there.
      const parts = pictures.map((p) => image(p.data, p.mimeType));
      Reflect.set(message, "content", [...message.content, ...parts]);
    }
    return message;
  }
  if (m.role === "tool") {
    return vscode.LanguageModelChatMessage.User([
      new vscode.LanguageModelToolResultPart(m.call, [new vscode.LanguageModelTextPart(m.text)]),
    ]);
  }
  const parts: Array<vscode.LanguageModelTextPart | vscode.LanguageModelToolCallPart> = [];
  if (m.text) parts.push(new vscode.LanguageModelTextPart(m.text));
  for (const c of m.calls ?? []) parts.push(new vscode.LanguageModelToolCallPart(c.id, c.name, callInput(c)));
  return vscode.LanguageModelChatMessage.Assistant(parts.length ? parts : "");
}

/**
 * A call's input as VS Code's tool-call part holds it (an object): its arguments' record, or, when
 * they cannot be read, the text the model wrote and why, so the tool's answer can say what is wrong.
 */
export function callInput(call: Call): Record<string, unknown> {
  const read = readArgs(call.arguments);
  return read.ok ? read.args : { arguments: call.arguments, error: read.error };
}

/**
 * The sampling settings of `parameters` that a model of VS Code's cannot apply: vscode.lm takes
 * none (its `modelOptions` mean something else to each vendor), so only what Tandem applies on the
 * stream itself — stop sequences and the token cap — is not left out.
 */
export function ignoredBy(parameters: Parameters): (keyof Parameters)[] {
  const applied = new Set<keyof Parameters>(["stop", "maxTokens"]);
  return (Object.keys(parameters) as (keyof Parameters)[]).filter(
    (name) => parameters[name] !== undefined && !applied.has(name),
  );
}

/** A core Model over a model VS Code offers (Copilot's, or another extension's), tools included. */
export function lmModel(chat: vscode.LanguageModelChat): Model {
  return {
    name: chat.name,
    ignores: ignoredBy,
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
        const messages = toChatMessages(request, readsImages(chat) ? imageMaker() : undefined);
        const response = await chat.sendRequest(messages, { tools }, cancel.token);
        let text = "";
        const calls: Call[] = [];
        // vscode.lm takes no stop sequences nor token cap: both are applied here, on the stream.
        const stops = new Stops(request.parameters?.stop);
        const cap = request.parameters?.maxTokens ? request.parameters.maxTokens * 4 : Infinity;
        let written = 0;
        const give = (piece: Extract<Piece, { kind: "text" | "arguments" }>): boolean => {
          written += piece.text.length;
          return each(piece) !== false && written < cap;
        };
        let going = true;
        for await (const part of response.stream) {
          if (part instanceof vscode.LanguageModelTextPart) {
            const given = stops.feed(part.value);
            text += given;
            going = (!given || give({ kind: "text", text: given })) && !stops.ended;
          } else if (part instanceof vscode.LanguageModelToolCallPart) {
            const call = { id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) };
            // The call comes whole: its arguments count (a run's token limit) before it is kept.
            going = give({ kind: "arguments", name: call.name, text: call.arguments });
            if (going) calls.push(call);
          }
          if (!going) {
            cancel.cancel();
            break;
          }
        }
        const rest = stops.flush();
        if (going && rest) {
          text += rest;
          give({ kind: "text", text: rest });
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
          // Cut off at the answer's token cap, which is applied here: the run says so, as a server's would.
          ...(written >= cap ? { finish: "length" } : {}),
        };
      } finally {
        request.signal?.removeEventListener("abort", abort);
        cancel.dispose();
      }
    },
  };
}
