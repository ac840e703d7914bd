import assert from "node:assert/strict";
import * as vscode from "vscode";
import { answer, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";

type Result = { metadata?: { model?: string; limit?: string }; errorDetails?: unknown };

/** Asks @tandem `query` with the fixture's model. */
function ask(query: string): Thenable<Result | undefined> {
  return vscode.commands.executeCommand<Result>("workbench.action.chat.open", {
    query: `@tandem ${query}`,
    modelSelector: { vendor: "tandem", id: "plain-model" },
    blockOnResponse: true,
  });
}

describe("@tandem: what a run learns is kept, and a limit is said", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("plain", "plain-model");
    // A Chat view session of its own: earlier tests' turns would be this one's history, and the count of
    // requests below is of this test's only.
    await vscode.commands.executeCommand("workbench.action.chat.newChat");
  });

  after(async () => {
    const config = vscode.workspace.getConfiguration("tandem");
    await config.update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await config.update("limits.rounds", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("a model that refuses native tools pays the refusal once, not at every run", async () => {
    server.rejectTools = true;
    server.script(answer("First."), answer("Second."));
    assert.equal((await ask("hello"))?.metadata?.model, "plain-model");
    assert.equal(server.requests.length, 2, "refused once, then tools in the instructions");
    assert.equal((await ask("again"))?.metadata?.model, "plain-model");
    assert.equal(server.requests.length, 3, "the next run sends no refused request");
    assert.equal(server.requests[2].body.tools, undefined);
    server.rejectTools = false;
  });

  it("says the round limit ended the run and offers to continue", async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("limits.rounds", 1, vscode.ConfigurationTarget.Global);
    const before = server.requests.length;
    server.script(
      // Tools are described in the instructions for this model now: the call comes as text.
      {
        events: [
          {
            delta: { content: '<tool_call>{"name":"read_file","arguments":{"path":"math.ts"}}</tool_call>' },
          },
        ],
      },
      answer(""),
    );
    const result = await ask("read everything");
    assert.equal(server.requests.length, before + 2);
    assert.equal(result?.metadata?.limit, "rounds");
  });
});
