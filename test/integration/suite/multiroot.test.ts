import assert from "node:assert/strict";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import type { Item } from "../../../src/chat/row-schemas";
import { fixtureEndpoint } from "./endpoint";
import { setKeyAsThePerson } from "./keys";
import { panelPick, panelSend } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
  pending(): Promise<Array<{ path: string; shown: string }>>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

/** The folder named `name` of the workspace on screen. */
const folderNamed = (name: string) =>
  vscode.workspace.workspaceFolders!.find((f) => f.name === name)!.uri.fsPath;

/** The phase opened on a `.code-workspace` of two folders, `first` and `second` (see run.mjs). */
describe("a workspace of two folders", () => {
  let server: FixtureServer;

  before(async function () {
    // The folders of a `.code-workspace` may come a while after the tests start on a busy machine.
    this.timeout(150_000);
    const names = () => vscode.workspace.workspaceFolders?.map((f) => f.name) ?? [];
    const two = () => (names().length === 2 ? true : undefined);
    await until(two, 20_000, "the workspace's two folders").catch(async () => {
      // VS Code for the web sometimes reads the workspace file while the window before it still shuts
      // down and opens it with no folders; it watches that file, and the same text written again makes
      // it read the file once more.
      const file = vscode.workspace.workspaceFile;
      if (file?.scheme === "file") writeFileSync(file.fsPath, readFileSync(file.fsPath));
      await until(two, 90_000, "the workspace's two folders").catch((error: Error) => {
        // What the window opened instead says whether the folders were late or another workspace came.
        let text = "";
        try {
          text = file ? readFileSync(file.fsPath, "utf8") : "";
        } catch (e) {
          text = String(e);
        }
        throw new Error(
          `${error.message}; folders: ${JSON.stringify(names())}; workspace file: ${file?.toString() ?? "none"} ${text}`,
        );
      });
    });
    assert.deepEqual(names(), ["first", "second"]);
    server = await fixtureEndpoint("fixture-multiroot", "multiroot-model", { asDefault: true });
    await setKeyAsThePerson("fixture-multiroot", "sk-tandem-multiroot-0123456789");
    await vscode.commands.executeCommand("tandem.chatView.focus");
  });

  after(async () => {
    await setKeyAsThePerson("fixture-multiroot", "");
    await server?.close();
  });

  it("searches and lists both folders with paths named by folder, reads second/x.txt, and edits it as a pending change", async () => {
    server.script(
      calling([
        ["call_m1", "search_text", JSON.stringify({ query: "marker-7f3" })],
        ["call_m2", "list_files", JSON.stringify({})],
        ["call_m3", "read_file", JSON.stringify({ path: "second/x.txt" })],
      ]),
      calling([["call_m4", "propose_edit", JSON.stringify({ path: "second/x.txt", content: "one\nTWO\n" })]]),
      answer("Searched, listed, read and edited."),
      answer("Two folders"),
    );
    await panelSend("Find marker-7f3 in both folders and shout line two of second/x.txt");
    const { store } = await api().conversations();
    const done = (name: string): Item | undefined =>
      store.rows("items").find((i) => i.kind === "call" && i.name === name && i.done);
    const edit = await until(() => done("propose_edit"), 60_000, "the edit in the second folder");
    const search = done("search_text")!;
    const list = done("list_files")!;
    const read = done("read_file")!;
    assert.match(search.output, /first\/notes-a\.txt/, search.output);
    assert.match(search.output, /second\/notes-b\.txt/, search.output);
    assert.match(list.output, /first\/notes-a\.txt/, list.output);
    assert.match(list.output, /second\/x\.txt/, list.output);
    assert.match(read.output, /one\n.*two/s, read.output);
    // The edit went through the pending-changes flow: written at once, listed for the person's review.
    assert.equal(edit.state, "done", edit.output);
    assert.match(edit.output, /pending the person's review/);
    const x = join(folderNamed("second"), "x.txt");
    assert.equal(readFileSync(x, "utf8"), "one\nTWO\n");
    assert.deepEqual(
      (await api().pending()).map((f) => f.path),
      [x],
    );
  });

  it("lists files of both folders in the @ picker, each read from its own folder", async () => {
    server.script(answer("Both notes."), answer("Notes"));
    assert.match(await panelPick("notes", "notes-b.txt"), /notes-b\.txt/);
    assert.match(await panelPick("notes", "notes-a.txt"), /notes-a\.txt/);
    const before = server.requests.length;
    await panelSend("What do these notes say?");
    await until(() => server.requests.length > before, 30_000, "the request");
    const messages = server.requests[before].body.messages as Array<{ role: string; content: unknown }>;
    const text = JSON.stringify(messages.filter((m) => m.role === "user").pop()?.content);
    assert.match(text, /marker-7f3 in the second folder/, text);
    assert.match(text, /marker-7f3 in the first folder/, text);
  });
});
