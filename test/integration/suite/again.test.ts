import assert from "node:assert/strict";
import * as vscode from "vscode";
import { answer, openaiServer, type FixtureServer } from "../../fixtures/openai-server";
import type { Item } from "../../../src/chat/row-schemas";
import { panelControl, panelSend } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}
const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

/** An item without the fields a fork's copy gets anew (its keys, and the item it was copied from). */
function shape(i: Item): string {
  const { id: _id, chat: _chat, copiedFrom: _from, ...rest } = i;
  return JSON.stringify(rest);
}

describe("edit and resend, regenerate on another model, in VS Code's panel", () => {
  let server: FixtureServer;

  before(async () => {
    // One endpoint with two models: the first is the default, the second is chosen on regenerate.
    server = await openaiServer();
    server.models = [
      { id: "model-a", object: "model", context_length: 32768 },
      { id: "model-b", object: "model", context_length: 32768 },
    ];
    const config = vscode.workspace.getConfiguration("tandem");
    await config.update(
      "endpoints",
      [{ name: "fixture", baseURL: server.baseURL, models: ["model-a", "model-b"] }],
      vscode.ConfigurationTarget.Global,
    );
    await config.update("defaultModel", "model-a", vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
  });

  after(async () => {
    await server.close();
  });

  it("forks the conversation at an edited message, and regenerates its answer on the chosen model", async () => {
    const { store } = await api().conversations();
    const before = new Set(store.conversations().map((c) => c.id));
    server.script(answer("First answer."), answer("Two questions"));
    await panelSend("First question");
    const original = await until(
      () => store.conversations().find((c) => !before.has(c.id) && c.title === "Two questions"),
      30_000,
      "the first answer and the title",
    );
    server.script(answer("Second answer."));
    await panelSend("Second question");
    await until(
      () => store.items(original.id).find((i) => i.kind === "text" && i.text === "Second answer." && i.done),
      30_000,
      "the second answer",
    );
    await until(() => (store.items(original.id).every((i) => i.done) ? true : undefined), 30_000, "the run");
    const kept = JSON.stringify(store.items(original.id));
    const second = store.items(original.id).find((i) => i.kind === "user" && i.text === "Second question")!;
    const prefix = store.items(original.id).filter((i) => i.id < second.id);

    server.script(answer("Answer to the edited question."));
    await panelControl("button", "Edit message", { within: "Second question" });
    await panelControl("textbox", "Edited message", { fill: "Second question, edited" });
    const fork = await until(
      () => store.conversations().find((c) => c.title === "Two questions (edited)"),
      30_000,
      "the fork",
    );
    await until(
      () =>
        store
          .items(fork.id)
          .find((i) => i.kind === "text" && i.text.startsWith("Answer to the edited") && i.done),
      30_000,
      "the edited message's answer",
    );
    assert.equal(JSON.stringify(store.items(original.id)), kept, "the original is untouched");
    const items = store.items(fork.id);
    assert.deepEqual(items.slice(0, prefix.length).map(shape), prefix.map(shape));
    // Each copy names what it was copied from, so Restore… on it finds the original's checkpoint.
    assert.deepEqual(
      items.slice(0, prefix.length).map((i) => i.copiedFrom),
      prefix.map((i) => ({ chat: original.id, item: i.id })),
    );
    assert.equal(items[prefix.length].kind, "user");
    assert.equal(items[prefix.length].text, "Second question, edited");
    const asked = server.requests.at(-1)!.body.messages as Array<{ role: string; content: unknown }>;
    assert.match(JSON.stringify(asked.at(-1)!.content), /Second question, edited/);
    assert.match(JSON.stringify(asked), /First answer\./);
    assert.doesNotMatch(JSON.stringify(asked), /Second answer\./);

    // The fork is open in the panel: its last answer is regenerated on model-b.
    server.script(answer("From model b."));
    const edited = { within: "Answer to the edited question." };
    await panelControl("button", "Regenerate with another model…", edited);
    await panelControl("combobox", "Model to regenerate with", { ...edited, choose: "model-b" });
    await panelControl("button", "Regenerate", edited);
    const retry = await until(
      () => store.items(fork.id).find((i) => i.kind === "retry" && i.done),
      30_000,
      "the regenerated answer",
    );
    assert.equal(retry.model, "model-b");
    assert.equal(server.requests.at(-1)!.body.model, "model-b", "the chosen model received the request");
    assert.ok(
      store
        .items(fork.id)
        .some((i) => i.kind === "text" && i.text === "From model b." && i.model === "model-b"),
    );
  });
});
