import assert from "node:assert/strict";
import * as vscode from "vscode";
import { agent } from "../../../src/agent/agent";
import { run } from "../../../src/agent/run";
import type { Piece } from "../../../src/agent/types";
import { lmModel } from "../../../src/vscode/lm-model";
import { answer, finish, openaiServer, text, type FixtureServer } from "../../fixtures/openai-server";
import { until } from "./wait";

const NAME = "settings-model";

describe("the settings a model of VS Code's cannot take", () => {
  let server: FixtureServer;
  let chat: vscode.LanguageModelChat;

  before(async () => {
    server = await openaiServer();
    server.models = [{ id: NAME, object: "model", context_length: 32768 }];
    await vscode.workspace
      .getConfiguration("tandem")
      .update(
        "endpoints",
        [{ name: "settings", baseURL: server.baseURL, models: [NAME] }],
        vscode.ConfigurationTarget.Global,
      );
    chat = await until(
      async () => (await vscode.lm.selectChatModels({ vendor: "tandem" })).find((m) => m.name === NAME),
      20_000,
      "the model in vscode.lm",
    );
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("says once a run which settings were left out, and applies its stop sequences on the stream", async () => {
    server.script({ events: [...text("Hello EN", 3), ...text("D and more."), finish()] });
    const a = agent(lmModel(chat));
    a.parameters = { temperature: 0.5, topP: 0.9, stop: ["END"] };
    const pieces: Piece[] = [];
    const out = await run(a, "go", { each: (p) => pieces.push(p) });
    assert.equal(out, "Hello ");
    assert.deepEqual(
      pieces.filter((p) => p.kind === "note"),
      [
        {
          kind: "note",
          text: `${chat.name} cannot apply these settings, so they were left out: temperature, top_p.`,
        },
      ],
    );
    assert.equal(server.requests[0].body.temperature, undefined, "vscode.lm carried no temperature");
  });

  it("holds the answer to its token cap, which vscode.lm cannot send", async () => {
    server.script(answer("word ".repeat(400), { size: 20 }));
    const turn = await lmModel(chat).turn(
      {
        instructions: "",
        messages: [{ role: "user", text: "go" }],
        tools: [],
        answer: true,
        parameters: { maxTokens: 10 },
      },
      () => true,
    );
    assert.ok(turn.text.length <= 60, `cut near 10 tokens, not ${turn.text.length} characters`);
    // Cut off at the cap: the run says so, as it does when a server cuts an answer off.
    assert.equal(turn.finish, "length");
    server.script(answer("Short.", { size: 3 }));
    const whole = await lmModel(chat).turn(
      {
        instructions: "",
        messages: [{ role: "user", text: "go" }],
        tools: [],
        answer: true,
        parameters: { maxTokens: 10 },
      },
      () => true,
    );
    assert.deepEqual([whole.text, whole.finish], ["Short.", undefined]);
  });
});
