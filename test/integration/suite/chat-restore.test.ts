import assert from "node:assert/strict";
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { chatText, clickNotification, typeInInputBox } from "./person";
import { until } from "./wait";

interface Api {
  pending(): Promise<Array<{ path: string; shown: string }>>;
  running(): Promise<string[]>;
}

/** What @tandem's answer gives back: its session, and the checkpoint it took (what its button restores). */
interface Answered {
  errorDetails?: unknown;
  metadata?: { session?: string; checkpoint?: { chat: string; id: string } };
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;
const MODEL = "chat-restore-model";
const at = (path: string) => join(workspace(), "chat-restore", path);

/** What the person had before asking: a text file with CRLF line ends and a byte that is not ASCII. */
const BEFORE = Buffer.from("alpha\r\nbeta\r\n\u00e9t\u00e9\r\n");

/** Asks @tandem in the Chat view; resolves when the answer has ended. */
const ask = (query: string) =>
  vscode.commands.executeCommand<Answered>("workbench.action.chat.open", {
    query,
    modelSelector: { vendor: "tandem", id: MODEL },
    blockOnResponse: true,
  });

/** The files of this test that still have pending changes. */
const ours = async () => (await api().pending()).filter((p) => p.shown.startsWith("chat-restore/"));

describe("checkpoints of @tandem's answers: restored from VS Code's Chat view", () => {
  let server: FixtureServer;
  let mode: string | undefined;

  before(async () => {
    rmSync(join(workspace(), "chat-restore"), { recursive: true, force: true });
    mkdirSync(join(workspace(), "chat-restore"), { recursive: true });
    writeFileSync(at("a.txt"), BEFORE);
    const config = vscode.workspace.getConfiguration("tandem");
    mode = config.inspect<string>("edits.mode")?.globalValue;
    // Edits are pending changes (the default): written at once, nobody asked.
    await config.update("edits.mode", undefined, vscode.ConfigurationTarget.Global);
    server = await fixtureEndpoint("fixture-chat-restore", MODEL);
    await until(
      async () => (await vscode.lm.selectChatModels({ vendor: "tandem", id: MODEL })).length || undefined,
      20_000,
      "the fixture's model in vscode.lm",
    );
    // A Chat session of its own.
    await vscode.commands.executeCommand("workbench.action.chat.newChat");
  });

  after(async () => {
    // A question left open by a failure is answered no, so later tests' answers are not held behind it.
    await vscode.commands.executeCommand("notifications.clearAll");
    const config = vscode.workspace.getConfiguration("tandem");
    await config.update("edits.mode", mode, vscode.ConfigurationTarget.Global);
    await config.update("endpoints", undefined, vscode.ConfigurationTarget.Global);
    await server.close();
    rmSync(join(workspace(), "chat-restore"), { recursive: true, force: true });
  });

  /** Restores through the command with `named`, the person confirming; gives what they were asked and told. */
  async function restoreAs(named: unknown, asked: string): Promise<{ question: string; told: string }> {
    // A restore waits for every running answer to end (the panel's too).
    await until(async () => ((await api().running()).length === 0 ? true : undefined), 30_000, "no run");
    const told = vscode.commands.executeCommand<string>("tandem.restoreChatMessage", named);
    await vscode.commands.executeCommand("notifications.showList");
    const question = await clickNotification(asked, "Restore", 60_000);
    await vscode.commands.executeCommand("notifications.hideList");
    return { question, told: await told };
  }

  it("puts an edited and a created file back byte for byte through the answer's button", async function () {
    this.timeout(180_000);
    server.script(
      calling([
        [
          "call_c1",
          "propose_edit",
          JSON.stringify({ path: "chat-restore/a.txt", oldText: "beta", newText: "BETA" }),
        ],
        [
          "call_c2",
          "create_file",
          JSON.stringify({ path: "chat-restore/new.txt", content: "made by the agent\n" }),
        ],
      ]),
      answer("Changed a.txt and made new.txt."),
    );
    const result = await ask("@tandem Change a.txt and make new.txt");
    assert.equal(result?.errorDetails, undefined);
    assert.equal(readFileSync(at("a.txt"), "utf8"), "alpha\r\nBETA\r\n\u00e9t\u00e9\r\n");
    assert.ok(existsSync(at("new.txt")));
    const named = result?.metadata?.checkpoint;
    assert.ok(named, "the answer says which checkpoint it took");
    assert.equal(named.chat, result?.metadata?.session);
    // The person sees the way back at the end of the answer.
    assert.match(await chatText(), /Restore files to before this message/);

    // A caller naming no checkpoint of Tandem's is refused, and nobody is asked.
    const refused = await vscode.commands.executeCommand<string>("tandem.restoreChatMessage", {
      chat: named.chat,
      id: "0000000000000000000",
    });
    assert.match(refused, /not a Chat view message with a checkpoint/);
    assert.ok(existsSync(at("new.txt")), "nothing was restored");

    const { question, told } = await restoreAs(named, "to how they were before “Change a.txt");
    assert.match(question, /Restore 2 files to how they were before “Change a\.txt and make new\.txt”\?/);
    assert.match(question, /1 file created since will be removed/);
    assert.equal(
      told,
      "Restored 1 file to how they were before “Change a.txt and make new.txt”; 1 file created since was removed.",
    );
    assert.deepEqual(readFileSync(at("a.txt")), BEFORE, "a.txt is back byte for byte");
    assert.ok(!existsSync(at("new.txt")), "the created file is removed");
    assert.deepEqual(await ours(), [], "the restored files' pending changes are settled");
  });

  it("lists the session's messages on /restore and restores the one the person picks", async function () {
    this.timeout(180_000);
    server.script(
      calling([
        [
          "call_c3",
          "create_file",
          JSON.stringify({ path: "chat-restore/later.txt", content: "made later\n" }),
        ],
      ]),
      answer("Made later.txt."),
    );
    await ask("@tandem Make later.txt please");
    assert.ok(existsSync(at("later.txt")));
    await until(async () => ((await api().running()).length === 0 ? true : undefined), 30_000, "no run");
    const restoring = ask("@tandem /restore");
    // The person picks the message by its words.
    await typeInInputBox("Make later.txt please");
    await vscode.commands.executeCommand("notifications.showList");
    const question = await clickNotification("before “Make later.txt", "Restore", 60_000);
    await vscode.commands.executeCommand("notifications.hideList");
    assert.match(question, /1 file created since will be removed/);
    await restoring;
    assert.ok(!existsSync(at("later.txt")), "the file the picked message's answer made is removed");
    assert.deepEqual(readFileSync(at("a.txt")), BEFORE, "a.txt is as the first restore left it");
    assert.match(await chatText(), /The files are as they were before “Make later\.txt please”/);
  });
});
