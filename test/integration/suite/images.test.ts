import assert from "node:assert/strict";
import * as vscode from "vscode";
import type { Piece } from "../../../src/agent/types";
import { lmModel } from "../../../src/vscode/lm-model";
import { answer, openaiServer, type FixtureServer } from "../../fixtures/openai-server";
import { until } from "./wait";

/** A 1×1 red PNG. */
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC",
  "base64",
);
const VISION = "gpt-4o-mini";
const TEXT_ONLY = "plain-text-model";

/** VS Code's image data part (the API has it; the types this project builds against do not). */
function imagePart(data: Uint8Array, mimeType: string): unknown {
  const DataPart: unknown = Reflect.get(vscode, "LanguageModelDataPart");
  const image: unknown = typeof DataPart === "function" ? Reflect.get(DataPart, "image") : undefined;
  if (typeof image !== "function") throw new Error("this VS Code has no LanguageModelDataPart.image");
  const part: unknown = Reflect.apply(image, DataPart, [data, mimeType]);
  return part;
}

/** A user message with TEXT and one image data part. */
function withImage(text: string): vscode.LanguageModelChatMessage {
  const message = vscode.LanguageModelChatMessage.User(text);
  Reflect.set(message, "content", [...message.content, imagePart(PNG, "image/png")]);
  return message;
}

/** What VS Code says the model reads (`capabilities.supportsImageToText`). */
function readsImages(chat: vscode.LanguageModelChat): unknown {
  const capabilities: unknown = Reflect.get(chat, "capabilities");
  return capabilities ? Reflect.get(capabilities, "supportsImageToText") : undefined;
}

/** The content of the last user message the endpoint received. */
function lastUserContent(server: FixtureServer): unknown {
  const messages = server.requests.at(-1)?.body.messages as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "user").pop()?.content;
}

describe("images through VS Code's language model API", () => {
  let server: FixtureServer;
  let models: vscode.LanguageModelChat[];
  const model = (name: string): vscode.LanguageModelChat => {
    const found = models.find((m) => m.name === name);
    assert.ok(found, `the model ${name}`);
    return found;
  };

  before(async () => {
    server = await openaiServer();
    server.models = [
      { id: VISION, object: "model", context_length: 32768 },
      { id: TEXT_ONLY, object: "model", context_length: 32768 },
    ];
    await vscode.workspace
      .getConfiguration("tandem")
      .update(
        "endpoints",
        [{ name: "vision", baseURL: server.baseURL, models: [VISION, TEXT_ONLY] }],
        vscode.ConfigurationTarget.Global,
      );
    models = await until(
      async () => {
        const found = await vscode.lm.selectChatModels({ vendor: "tandem" });
        return found.some((m) => m.name === VISION) && found.some((m) => m.name === TEXT_ONLY)
          ? found
          : undefined;
      },
      20_000,
      "both models of the vision endpoint in vscode.lm",
    );
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("declares image input only for the model that takes images", () => {
    assert.equal(readsImages(model(VISION)), true);
    assert.equal(readsImages(model(TEXT_ONLY)), false);
  });

  it("passes an image sent with sendRequest to the endpoint as an image content part", async () => {
    server.script(answer("A red dot."));
    const response = await model(VISION).sendRequest(
      [withImage("What is in this picture?")],
      {},
      new vscode.CancellationTokenSource().token,
    );
    let text = "";
    for await (const part of response.text) text += part;
    assert.equal(text, "A red dot.");
    assert.deepEqual(lastUserContent(server), [
      { type: "text", text: "What is in this picture?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG.toString("base64")}` } },
    ]);
  });

  it("tells a text-only model that an image was left out, instead of sending it", async () => {
    server.script(answer("I cannot see it."));
    const response = await model(TEXT_ONLY).sendRequest(
      [withImage("What is in this picture?")],
      {},
      new vscode.CancellationTokenSource().token,
    );
    for await (const _part of response.text);
    assert.equal(
      lastUserContent(server),
      "What is in this picture?\n\n(1 image(s) left out: this model reads text only.)",
    );
  });

  it("gives a vscode.lm model that reads images a core message's image as a data part", async () => {
    server.script(answer("Red."));
    const pieces: Piece[] = [];
    const url = `data:image/png;base64,${PNG.toString("base64")}`;
    const turn = await lmModel(model(VISION)).turn(
      {
        instructions: "",
        messages: [{ role: "user", text: "What colour is this?", images: [url] }],
        tools: [],
        answer: false,
      },
      (piece) => void pieces.push(piece),
    );
    assert.equal(turn.text, "Red.");
    assert.deepEqual(lastUserContent(server), [
      { type: "text", text: "What colour is this?" },
      { type: "image_url", image_url: { url } },
    ]);
  });
});
