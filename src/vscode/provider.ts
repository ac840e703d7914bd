import vscode = require("vscode");
import type { Call, FunctionTool, Message } from "../agent/types";
import { factsKey } from "../agent/facts";
import { core } from "./core";
import { callInput } from "./lm-model";
import { Models, VENDOR } from "./models";
import { endpointSettings } from "./settings";

/** An image VS Code passes as a data part (`LanguageModelDataPart`: newer than the API types built against). */
interface ImagePart {
  mimeType: string;
  data: Uint8Array;
}

/** PART as an image, when it is a data part with an image type (other data parts are cache hints and JSON). */
function imagePart(part: unknown): ImagePart | undefined {
  if (!part || typeof part !== "object" || !("mimeType" in part) || !("data" in part)) return undefined;
  const { mimeType, data } = part;
  if (typeof mimeType !== "string" || !(data instanceof Uint8Array)) return undefined;
  return /^image\/(?:png|jpeg|gif|webp)$/i.test(mimeType) ? { mimeType, data } : undefined;
}

/**
 * Core messages from the messages VS Code hands a provider (system instructions come as user text).
 * Images become data URLs of the user message when the model takes them, else a note that says so.
 */
export function fromChatMessages(
  messages: readonly vscode.LanguageModelChatRequestMessage[],
  takesImages = false,
): Message[] {
  const out: Message[] = [];
  for (const m of messages) {
    let text = "";
    const calls: Call[] = [];
    const images: string[] = [];
    for (const part of m.content) {
      const image = imagePart(part);
      if (part instanceof vscode.LanguageModelTextPart) text += part.value;
      else if (part instanceof vscode.LanguageModelToolCallPart) {
        calls.push({ id: part.callId, name: part.name, arguments: JSON.stringify(part.input ?? {}) });
      } else if (part instanceof vscode.LanguageModelToolResultPart) {
        const result = part.content
          .map((c) => {
            if (c instanceof vscode.LanguageModelTextPart) return c.value;
            const picture = imagePart(c);
            return picture ? `[image: ${picture.mimeType}]` : JSON.stringify(c);
          })
          .join("");
        out.push({ role: "tool", call: part.callId, text: result });
      } else if (image) {
        images.push(`data:${image.mimeType};base64,${Buffer.from(image.data).toString("base64")}`);
      }
    }
    if (m.role === vscode.LanguageModelChatMessageRole.Assistant) {
      out.push({ role: "assistant", text, ...(calls.length ? { calls } : {}) });
    } else if (images.length && takesImages) {
      out.push({ role: "user", text, images });
    } else if (images.length) {
      out.push({
        role: "user",
        text: `${text}\n\n(${images.length} image(s) left out: this model reads text only.)`,
      });
    } else if (text) {
      out.push({ role: "user", text });
    }
  }
  return out;
}

/**
 * Offers the configured endpoints' models (and the model servers on this computer) to VS Code itself:
 * they work in VS Code's own Chat view, for other extensions, and for @tandem without a Copilot sign-in.
 */
export class EndpointProvider implements vscode.LanguageModelChatProvider {
  private readonly changed = new vscode.EventEmitter<void>();
  readonly onDidChangeLanguageModelChatInformation = this.changed.event;

  constructor(private readonly models: Models) {}

  /** Tells VS Code to ask for the models again (settings or keys changed). */
  refresh() {
    this.models.refresh();
    this.changed.fire();
  }

  async provideLanguageModelChatInformation(): Promise<vscode.LanguageModelChatInformation[]> {
    const choices = await this.models.ownChoices();
    return choices.map((c) => ({
      id: c.id,
      name: c.name,
      family: c.name,
      version: "1",
      detail: c.group,
      tooltip: c.note || `${c.name} (${c.group})`,
      maxInputTokens: windowOf(c.note) || 128_000,
      maxOutputTokens: 16_384,
      capabilities: { toolCalling: true, imageInput: this.takesImages(c.id, c.name) },
    }));
  }

  /** Whether the model of catalogue id ID (named NAME) takes images: Check Endpoint's finding, else its name. */
  private takesImages(id: string, name: string): boolean {
    const { endpointOf, placeOf, takesImages } = core();
    const found = endpointOf(id, endpointSettings());
    const learned = found && this.models.facts.get(factsKey(found.endpoint.baseURL, found.model))?.images;
    return takesImages(placeOf(id).model || name, learned);
  }

  async provideLanguageModelChatResponse(
    info: vscode.LanguageModelChatInformation,
    messages: readonly vscode.LanguageModelChatRequestMessage[],
    options: vscode.ProvideLanguageModelChatResponseOptions,
    progress: vscode.Progress<vscode.LanguageModelResponsePart>,
    token: vscode.CancellationToken,
  ): Promise<void> {
    const model = await this.models.resolve(info.id);
    if (!model) throw new Error(vscode.l10n.t("The model {0} is no longer configured.", info.name));
    const abort = new AbortController();
    const listener = token.onCancellationRequested(() => abort.abort());
    try {
      const tools: FunctionTool[] = (options.tools ?? []).map((t) => ({
        type: "function",
        function: {
          name: t.name,
          description: t.description,
          parameters: (t.inputSchema as Record<string, unknown>) ?? { type: "object", properties: {} },
        },
      }));
      const turn = await model.turn(
        {
          instructions: "",
          messages: fromChatMessages(messages, this.takesImages(info.id, info.name)),
          tools,
          answer: false,
          signal: abort.signal,
        },
        (piece) => {
          if (piece.kind === "text") progress.report(new vscode.LanguageModelTextPart(piece.text));
          return !token.isCancellationRequested;
        },
      );
      for (const call of turn.calls) {
        progress.report(new vscode.LanguageModelToolCallPart(call.id, call.name, callInput(call)));
      }
    } finally {
      listener.dispose();
    }
  }

  async provideTokenCount(
    _info: vscode.LanguageModelChatInformation,
    text: string | vscode.LanguageModelChatRequestMessage,
  ) {
    const value = typeof text === "string" ? text : JSON.stringify(text.content);
    // About four characters a token: close enough for budgeting, without a tokenizer per model.
    return Math.ceil(value.length / 4);
  }
}

/** The context window a catalogue note names ("128k context"), or 0. */
function windowOf(note: string): number {
  const m = /(\d+)k\b/i.exec(note);
  return m ? Number(m[1]) * 1024 : 0;
}

export function registerProvider(context: vscode.ExtensionContext, models: Models) {
  const provider = new EndpointProvider(models);
  context.subscriptions.push(
    vscode.lm.registerLanguageModelChatProvider(VENDOR, provider),
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration("tandem.endpoints") || e.affectsConfiguration("tandem.localServers"))
        provider.refresh();
    }),
    context.secrets.onDidChange((e) => e.key.startsWith("tandem.apiKey.") && provider.refresh()),
  );
  return provider;
}
