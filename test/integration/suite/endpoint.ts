import * as vscode from "vscode";
import { openaiServer, type FixtureServer } from "../../fixtures/openai-server";

/**
 * The window of the suite's model: 8,192 tokens, as a common local model's, so that every test
 * proves its feature on a small window with VS Code's own tools present (as code-server offers them).
 */
export const FIXTURE_WINDOW = 8192;

/**
 * A fixture endpoint (the streaming protocol from scripted replies) configured as Tandem's endpoint `name`
 * with the one model `model` of `window` tokens (it refuses a longer prompt, as a server does), made
 * the default model when `asDefault`.
 */
export async function fixtureEndpoint(
  name: string,
  model: string,
  { window = FIXTURE_WINDOW, asDefault = false } = {},
): Promise<FixtureServer> {
  const server = await openaiServer();
  server.models = [{ id: model, object: "model", context_length: window }];
  server.window = window;
  const config = vscode.workspace.getConfiguration("tandem");
  await config.update(
    "endpoints",
    [{ name, baseURL: server.baseURL, models: [model] }],
    vscode.ConfigurationTarget.Global,
  );
  if (asDefault) await config.update("defaultModel", model, vscode.ConfigurationTarget.Global);
  return server;
}
