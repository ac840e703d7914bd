import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { setKeyAsThePerson } from "./keys";
import { clickNotification, panelSend } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
  pending(): Promise<Array<{ path: string; shown: string }>>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;
const KEY = "sk-tandem-pending-0123456789";

/** Runs the command of the lens titled `title` over change `index` of the file `path` (as the person clicks it). */
async function clickLens(path: string, title: string, index: number): Promise<void> {
  const lenses = await until(
    async () => {
      const found = await vscode.commands.executeCommand<vscode.CodeLens[]>(
        "vscode.executeCodeLensProvider",
        vscode.Uri.file(path),
      );
      const ours = (found ?? []).filter((l) => l.command?.title === title);
      return ours.length > index ? ours : undefined;
    },
    20_000,
    `the "${title}" lens over change ${index + 1}`,
  );
  const command = lenses[index].command!;
  await vscode.commands.executeCommand(command.command, ...(command.arguments ?? []));
}

describe("pending changes: the agent's edits reviewed in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    // The default mode: the edits are written at once and reviewed after.
    await vscode.workspace
      .getConfiguration("tandem")
      .update("edits.mode", undefined, vscode.ConfigurationTarget.Global);
    server = await fixtureEndpoint("fixture-pending", "pending-model", { asDefault: true });
    await setKeyAsThePerson("fixture-pending", KEY);
    await vscode.commands.executeCommand("tandem.chatView.focus");
    // A conversation of its own: another test's may still be answering.
    await vscode.commands.executeCommand("tandem.newChat");
  });

  after(async () => {
    await setKeyAsThePerson("fixture-pending", "");
    await server.close();
  });

  it("writes the agent's edit at once, without a question; the person undoes one change and keeps another", async () => {
    const path = join(workspace(), "pending", "edit-me.txt");
    mkdirSync(join(workspace(), "pending"), { recursive: true });
    writeFileSync(path, "one\ntwo\nthree\nfour\nfive\n");
    server.script(
      calling([
        [
          "call_p1",
          "propose_edit",
          JSON.stringify({ path: "pending/edit-me.txt", content: "ONE\ntwo\nthree\nfour\nFIVE\n" }),
        ],
      ]),
      answer("Changed the first and last lines."),
      answer("Pending title"),
    );
    await panelSend("Shout the first and last lines of pending/edit-me.txt");
    const { store } = await api().conversations();
    const call = await until(
      () =>
        store
          .rows("items")
          .find(
            (i) =>
              i.kind === "call" && i.name === "propose_edit" && i.input.includes("edit-me.txt") && i.done,
          ),
      30_000,
      "the edit to be made",
    );
    assert.equal(call.state, "done", "never waited for the person");
    assert.match(call.output ?? "", /pending the person's review/);
    assert.equal(readFileSync(path, "utf8"), "ONE\ntwo\nthree\nfour\nFIVE\n");
    assert.deepEqual(
      (await api().pending()).map((f) => f.shown),
      ["pending/edit-me.txt"],
    );

    // The notification that works with the panel closed opens the review diff.
    await vscode.commands.executeCommand("notifications.showList");
    const said = await clickNotification("Tandem changed", "Review");
    assert.match(said, /Tandem changed pending\/edit-me\.txt/);
    await until(
      () => vscode.window.tabGroups.activeTabGroup.activeTab?.input instanceof vscode.TabInputTextDiff,
      20_000,
      "the review diff",
    );

    await clickLens(path, "Undo", 1);
    await until(() => readFileSync(path, "utf8") === "ONE\ntwo\nthree\nfour\nfive\n", 20_000, "the undo");
    await clickLens(path, "Keep", 0);
    await until(async () => (await api().pending()).length === 0, 20_000, "the list to empty");
    assert.equal(readFileSync(path, "utf8"), "ONE\ntwo\nthree\nfour\nfive\n");
  });

  it("tells the agent at its next turn what the person kept and undid", async () => {
    server.script(answer("Understood."));
    const before = server.requests.length;
    await panelSend("What did I keep?");
    await until(() => server.requests.length > before, 30_000, "the next request");
    const messages = JSON.stringify(server.requests.at(-1)!.body.messages);
    assert.match(messages, /what the person did with your pending changes/);
    assert.match(messages, /pending\/edit-me\.txt: the person kept part of your change or edited it/);
  });

  it("leaves a created file pending for the reload phase", async () => {
    server.script(
      calling([
        [
          "call_p2",
          "create_file",
          JSON.stringify({ path: "pending/created.txt", content: "made before the reload\n" }),
        ],
      ]),
      answer("Made it."),
    );
    await panelSend("Make pending/created.txt");
    await until(
      async () => (await api().pending()).some((f) => f.shown === "pending/created.txt"),
      30_000,
      "the created file to be pending",
    );
    // Listed as pending as the write starts: the file is on disk once the write has ended.
    const created = join(workspace(), "pending", "created.txt");
    await until(() => existsSync(created) || undefined, 30_000, "the created file on disk");
    assert.equal(readFileSync(created, "utf8"), "made before the reload\n");
  });
});
