import assert from "node:assert/strict";
import * as vscode from "vscode";
import { until } from "./wait";

/** The model another extension offers through vscode.lm (test/fixtures/elsewhere-extension), as Copilot does. */
const ELSEWHERE = { vendor: "elsewhere", id: "elsewhere-chat" };

/** How many requests the other extension's model was sent. */
function requests(): number {
  const other = vscode.extensions.getExtension<{ requests(): number }>("tandem-dev.elsewhere-model");
  if (!other?.isActive) throw new Error("the elsewhere-model extension is not active");
  return other.exports.requests();
}

async function ask(query: string) {
  return vscode.commands.executeCommand<{
    metadata?: { model?: string };
    errorDetails?: { message: string };
  }>("workbench.action.chat.open", { query, modelSelector: ELSEWHERE, blockOnResponse: true });
}

describe("@tandem on a model another extension offers, while the person works locally only", () => {
  before(async () => {
    await until(
      async () => (await vscode.lm.selectChatModels(ELSEWHERE)).length || undefined,
      20_000,
      "the other extension's model in vscode.lm",
    );
  });

  after(() =>
    vscode.workspace
      .getConfiguration("tandem")
      .update("localOnly", undefined, vscode.ConfigurationTarget.Global),
  );

  it("answers with the chosen model of another extension when the person has not asked to stay local", async () => {
    const before = requests();
    const result = await ask("@tandem say where you are");
    assert.equal(result?.errorDetails, undefined);
    assert.equal(result?.metadata?.model, "Elsewhere Chat");
    assert.equal(requests(), before + 1, "the request went to the chosen model");
  });

  it("refuses that model under tandem.localOnly, and sends it nothing", async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("localOnly", true, vscode.ConfigurationTarget.Global);
    const before = requests();
    const result = await ask("@tandem read my code and summarize it");
    assert.equal(result?.errorDetails?.message, "The run failed.");
    assert.equal(requests(), before, "nothing was sent to a model whose requests may leave the computer");
  });
});
