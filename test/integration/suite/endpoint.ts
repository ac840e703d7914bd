import * as vscode from "vscode";
import { openaiServer, type FixtureServer } from "../../fixtures/openai-server";

/**
 * A fixture endpoint (the streaming protocol from scripted replies) configured as Tandem's endpoint `name`
 * with the one model `model` of `window` tokens, made the default model when `asDefault`.
 */
export async function fixtureEndpoint(
  name: string,
  model: string,
  { window = 32768, asDefault = false } = {},
): Promise<FixtureServer> {
  const server = await openaiServer();
  server.models = [{ id: model, object: "model", context_length: window }];
  const config = vscode.workspace.getConfiguration("tandem");
  await config.update(
    "endpoints",
    [{ name, baseURL: server.baseURL, models: [model] }],
    vscode.ConfigurationTarget.Global,
  );
  if (asDefault) await config.update("defaultModel", model, vscode.ConfigurationTarget.Global);
  return server;
}
