import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import type { Item } from "../../../src/chat/row-schemas";
import { fixtureEndpoint } from "./endpoint";
import { setKeyAsThePerson } from "./keys";
import { panelControl, panelSend, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
  pending(): Promise<Array<{ path: string; shown: string }>>;
  running(): Promise<string[]>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;
const KEY = "sk-tandem-restore-0123456789";
const at = (path: string) => join(workspace(), "restore", path);

/** What the person had before asking anything: a text file, a file with bytes that are not text, one a command rewrites. */
const BEFORE: Record<string, Buffer> = {
  "a.txt": Buffer.from("alpha\nbeta\ngamma\n"),
  "b.txt": Buffer.from("one\r\ntwo\r\n\u00e9t\u00e9\r\n"),
  "c.dat": Buffer.from([0, 1, 2, 255, 254, 10, 13, 0]),
};
/** The command the agent runs: it rewrites c.dat and leaves a log beside it. */
const COMMAND = `const fs = require("fs"); fs.writeFileSync("restore/c.dat", "written by the command\\n"); fs.writeFileSync("restore/command.log", "ran\\n");\n`;

describe("checkpoints: restore the files to a message from VS Code's panel", () => {
  let server: FixtureServer;

  before(async () => {
    rmSync(join(workspace(), "restore"), { recursive: true, force: true });
    mkdirSync(join(workspace(), "restore"), { recursive: true });
    for (const [name, bytes] of Object.entries(BEFORE)) writeFileSync(at(name), bytes);
    writeFileSync(at("command.js"), COMMAND);
    const config = vscode.workspace.getConfiguration("tandem");
    // Edits are pending changes (the default); the command runs by the person's own rule.
    await config.update("edits.mode", undefined, vscode.ConfigurationTarget.Global);
    await config.update(
      "commands",
      { allow: ["node restore/command.js"], deny: [] },
      vscode.ConfigurationTarget.Global,
    );
    server = await fixtureEndpoint("fixture-restore", "restore-model", { asDefault: true });
    await setKeyAsThePerson("fixture-restore", KEY);
    await vscode.commands.executeCommand("tandem.chatView.focus");
    // A conversation of its own, opened in the panel.
    await vscode.commands.executeCommand("tandem.newChat");
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("commands", undefined, vscode.ConfigurationTarget.Global);
    await setKeyAsThePerson("fixture-restore", "");
    await server.close();
    rmSync(join(workspace(), "restore"), { recursive: true, force: true });
  });

  it("puts every file back byte for byte after two answers that edited, created and ran a command", async function () {
    // Two answers, a diff and a restore, each waited for: more than the suite's minute on a busy machine.
    this.timeout(180_000);
    const { store } = await api().conversations();
    const call = (id: string, name: string, args: unknown): [string, string, string] => [
      id,
      name,
      JSON.stringify(args),
    ];
    server.script(
      calling([
        call("call_r1", "propose_edit", { path: "restore/a.txt", oldText: "beta", newText: "BETA" }),
        call("call_r2", "create_file", { path: "restore/new.txt", content: "made by the agent\n" }),
      ]),
      answer("Changed a.txt and made new.txt."),
      answer("Restore test"),
    );
    await panelSend("First: change a.txt and make new.txt");
    const chat = await until(
      () =>
        store.rows("items").find((i) => i.kind === "user" && i.text.startsWith("First: change a.txt"))?.chat,
      30_000,
      "the first message to be stored",
    );
    const done = (text: string) => () =>
      store.items(chat).find((i: Item) => i.kind === "text" && i.text === text && i.done);
    await until(done("Changed a.txt and made new.txt."), 30_000, "the first answer");
    await until(() => (existsSync(at("new.txt")) ? true : undefined), 30_000, "new.txt on disk");
    // The person keeps the first answer's changes: a restore must still take them back. (Only this
    // test's files: an earlier test leaves a pending file for the reload phase.)
    const ours = async () => (await api().pending()).filter((p) => p.shown.startsWith("restore/"));
    const kept = await until(
      async () => ((await ours()).length === 2 ? ours() : undefined),
      30_000,
      "the first answer's two pending files",
    );
    for (const p of kept) await vscode.commands.executeCommand("tandem.pending.keepFile", p.path);
    await until(async () => ((await ours()).length === 0 ? true : undefined), 30_000, "kept");

    server.script(
      calling([call("call_r3", "propose_edit", { path: "restore/b.txt", oldText: "two", newText: "TWO" })]),
      calling([call("call_r4", "run_command", { command: "node restore/command.js" })]),
      answer("Changed b.txt and ran the command."),
    );
    await panelSend("Second: change b.txt and run the command");
    // The command comes after the edit of b.txt, which the person has not reviewed: their rule no longer
    // covers a command that runs the workspace's code, so they are asked, and allow it in the panel.
    await panelControl("button", "Allow", { nth: -1 });
    await until(done("Changed b.txt and ran the command."), 30_000, "the second answer");
    await until(() => (store.items(chat).every((i) => i.done) ? true : undefined), 30_000, "the run");
    // A restore waits for every running answer to end: the runner has let this one go.
    await until(async () => ((await api().running()).length === 0 ? true : undefined), 30_000, "no run");
    assert.equal(readFileSync(at("a.txt"), "utf8"), "alpha\nBETA\ngamma\n");
    assert.match(readFileSync(at("b.txt"), "utf8"), /TWO/);
    assert.equal(readFileSync(at("c.dat"), "utf8"), "written by the command\n");
    assert.ok(existsSync(at("command.log")));
    // The second answer's edit is still pending: the restore settles it.
    assert.deepEqual(
      (await ours()).map((p) => p.shown),
      ["restore/b.txt"],
    );

    const first = { within: "First: change a.txt and make new.txt" };
    // The person restores the files to the first message, through its "Restore…" and the question.
    await panelControl("button", "Restore…", first);
    await panelControl("button", "Restore files", first);
    // The question is asked in the panel, under the message. The host compares the files with the
    // checkpoint before it asks: on a busy machine that takes a while. What the panel said
    // meanwhile (a refusal would be there) is in the failure.
    const question = "Restore 5 files to how they were before “First: change a.txt and make new.txt”?";
    const asked = await until(
      async () => {
        const text = await panelText();
        return text.includes(question) ? text : undefined;
      },
      60_000,
      "the question in the panel",
    ).catch(async (error: Error) => {
      throw new Error(`${error.message}; panel: ${(await panelText()).slice(0, 3000)}`);
    });
    assert.match(asked, /2 files created since will be removed/);
    assert.ok(existsSync(at("new.txt")), "nothing is restored before the person's answer");
    await panelControl("button", "Restore", first);
    await until(() => (existsSync(at("new.txt")) ? undefined : true), 30_000, "the restore");
    // The person is told what was put back and what was removed.
    const told =
      "Restored 3 files to how they were before “First: change a.txt and make new.txt”; 2 files created since were removed.";
    await until(
      async () => ((await panelText()).includes(told) ? true : undefined),
      30_000,
      "the panel's notice",
    );
    for (const [name, bytes] of Object.entries(BEFORE))
      assert.deepEqual(readFileSync(at(name)), bytes, `${name} is back byte for byte`);
    assert.equal(readFileSync(at("command.js"), "utf8"), COMMAND);
    assert.ok(!existsSync(at("new.txt")), "the created file is removed");
    assert.ok(!existsSync(at("command.log")), "the command's new file is removed");
    assert.deepEqual(await ours(), [], "the restored file's pending change is settled");

    // "Show changes since" the second message opens VS Code's diff of every file changed since its
    // checkpoint (the restore changed them all back). After the restore: the diff takes the editor
    // area and the focus, which a person's next click in the panel must not depend on.
    const second = { within: "Second: change b.txt and run the command" };
    await panelControl("button", "Restore…", second);
    await panelControl("button", "Show changes since", second);
    const tab = await until(
      () =>
        vscode.window.tabGroups.all
          .flatMap((g) => g.tabs)
          .find((t) => t.label.startsWith("Changes since “Second: change b.txt")),
      30_000,
      "the diff of the changes since the second message",
    ).catch(async (error: Error) => {
      const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs).map((t) => t.label);
      throw new Error(`${error.message}; tabs: ${JSON.stringify(tabs)}; panel: ${await panelText()}`);
    });
    await vscode.window.tabGroups.close(tab);
  });
});
