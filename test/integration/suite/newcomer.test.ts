import assert from "node:assert/strict";
import { existsSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Item } from "../../../src/chat/row-schemas";
import { panelSend, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
  pending(): Promise<Array<{ path: string; shown: string }>>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;
/** The label every demo answer starts with (scripts/demo-model/grammar.mjs). */
const LABEL = "Demo, random weights:";
const ENV = ["AI_URL", "AI_MODEL", "AI_API_KEY"] as const;

/**
 * A fresh clone's first minute, as `npm start` gives it: no endpoint configured, the demo model
 * (node-llama-cpp, random weights, a 2,048-token window) named by AI_URL / AI_MODEL, which the
 * harness serves as `npm start` does; the panel in the default edits mode.
 */
describe("the newcomer: npm start's demo model in the panel", () => {
  const saved: Partial<Record<(typeof ENV)[number], string>> = {};
  const config = () => vscode.workspace.getConfiguration("tandem");

  before(async () => {
    const url = process.env.TANDEM_DEMO_URL;
    const model = process.env.TANDEM_DEMO_MODEL;
    if (!url || !model) throw new Error("the harness (test/integration/run.mjs) serves the demo model");
    for (const name of ENV) saved[name] = process.env[name];
    // What `npm start` puts in VS Code's environment; the settings read it at each use.
    Object.assign(process.env, { AI_URL: url, AI_MODEL: model, AI_API_KEY: "none" });
    await config().update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await config().update("defaultModel", undefined, vscode.ConfigurationTarget.Global);
    await config().update("edits.mode", undefined, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
  });

  after(async () => {
    for (const name of ENV) {
      if (saved[name] === undefined) delete process.env[name];
      else process.env[name] = saved[name];
    }
    // Saved again so that the model list is read again without the demo.
    await config().update("endpoints", undefined, vscode.ConfigurationTarget.Global);
  });

  /** The items of the conversation's answer to the person's last message, once it is done. */
  async function answered(text: string): Promise<Item[]> {
    const { store } = await api().conversations();
    const user = await until(
      () => store.rows("items").find((i) => i.kind === "user" && i.text === text),
      30_000,
      `the message "${text}"`,
    );
    await until(() => store.get("items", user.id)?.done || undefined, 120_000, `the answer to "${text}"`);
    return store.items(user.chat).filter((i) => i.id.startsWith(`${user.id}.`));
  }

  it('"read README.md" shows a read_file call and an answer, and no error', async () => {
    await panelSend("read README.md");
    const items = await answered("read README.md");
    const errors = items.filter((i) => i.kind === "error").map((i) => i.text);
    assert.deepEqual(errors, [], "no error");
    const call = items.find((i) => i.kind === "call");
    assert.deepEqual([call?.name, call?.state], ["read_file", "done"]);
    assert.deepEqual(JSON.parse(call?.input ?? "{}"), { path: "README.md" });
    const answer = items.filter((i) => i.kind === "text").at(-1);
    assert.ok(answer?.text.startsWith(LABEL), answer?.text);
    const shown = await until(
      async () => {
        const text = await panelText();
        return text.includes("read_file") && text.includes(LABEL) ? text : undefined;
      },
      30_000,
      "the call and the answer in the panel",
    );
    assert.doesNotMatch(shown, /larger than the model's/);
  });

  it('"write notes.md" shows a create_file pending change to keep or undo, asking nothing, and no error', async () => {
    await panelSend("write notes.md");
    const items = await answered("write notes.md");
    assert.deepEqual(
      items.filter((i) => i.kind === "error").map((i) => i.text),
      [],
      "no error",
    );
    const call = items.find((i) => i.kind === "call");
    assert.deepEqual([call?.name, call?.state], ["create_file", "done"], "written at once, never waiting");
    assert.match(call?.output ?? "", /pending the person's review/);
    assert.ok(existsSync(join(workspace(), "notes.md")));
    assert.ok((await api().pending()).some((f) => f.shown === "notes.md"));
    const shown = await until(
      async () => {
        const text = await panelText();
        return text.includes("create_file") && text.includes("Keep All") ? text : undefined;
      },
      30_000,
      "the pending change in the panel",
    );
    // Earlier tests of the suite leave pending files of their own in the same workspace: notes.md is among them.
    assert.match(shown, /\d+ files? changed by Tandem/);
    assert.match(shown, /\nnotes\.md\n/);
    assert.match(shown, /Undo All/);
  });
});
