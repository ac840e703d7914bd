import assert from "node:assert/strict";
import * as vscode from "vscode";
import { answer, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { setKeyAsThePerson } from "./keys";
import { panelPaste, panelPick, panelSend } from "./person";
import { until } from "./wait";

/** A 1×1 PNG. */
const PNG = "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

/** The content of the last user message of the endpoint's request number `index` (a title request may follow it). */
function userOf(server: FixtureServer, index: number): unknown {
  const messages = server.requests[index]?.body.messages as Array<{ role: string; content: unknown }>;
  return messages.filter((m) => m.role === "user").pop()?.content;
}

describe("the @ picker and pasted images in VS Code's panel", () => {
  let server: FixtureServer;

  before(async function () {
    // The TypeScript server starts on the first TypeScript file opened: slow on a busy machine.
    this.timeout(240_000);
    server = await fixtureEndpoint("pick", "gpt-4o-mini", { asDefault: true });
    await setKeyAsThePerson("pick", "sk-tandem-picker-test");
    // The TypeScript server knows the workspace's symbols once a file of its project is open.
    const math = (await vscode.workspace.findFiles("math.ts"))[0];
    await vscode.window.showTextDocument(math);
    let seen = "";
    await until(
      async () => {
        const found = await vscode.commands.executeCommand<vscode.SymbolInformation[]>(
          "vscode.executeWorkspaceSymbolProvider",
          "add",
        );
        seen = JSON.stringify(found?.map((s) => s.name));
        // TypeScript names a function with its parentheses: "add()".
        return found?.some((s) => s.name.startsWith("add")) ? true : undefined;
      },
      200_000,
      "the symbol add in the workspace's symbols",
    ).catch((error: unknown) => {
      const typescript = vscode.extensions.getExtension("vscode.typescript-language-features");
      throw new Error(
        `${String(error)}; found ${seen}; TypeScript's extension active: ${typescript?.isActive}`,
      );
    });
    await vscode.commands.executeCommand("tandem.chatView.focus");
  });

  after(async () => {
    await setKeyAsThePerson("pick", "");
    await server.close();
  });

  it("adds a file and a symbol with @, and the endpoint receives both", async () => {
    server.script(answer("It adds."), answer("Adding"));
    assert.match(await panelPick("math", "math.ts"), /math\.ts/);
    assert.match(await panelPick("add", "function"), /add/);
    const before = server.requests.length;
    await panelSend("What do these do?");
    await until(() => (server.requests.length > before ? true : undefined), 30_000, "the request");
    const text = JSON.stringify(userOf(server, before));
    assert.match(text, /What do these do\?/);
    assert.match(text, /<file name=\\"math.ts\\">\\nexport function add/, `the file, in ${text}`);
    assert.match(text, /The symbol add\(\) is at math.ts:1\. Lines 1–\d:/, "the symbol and its lines");
  });

  it("gives the model an image pasted into the message box", async () => {
    server.script(answer("A red dot."), answer("Dot"));
    assert.equal(await panelPaste(PNG), "Pasted image.png");
    const before = server.requests.length;
    await panelSend("What is in this picture?");
    await until(() => (server.requests.length > before ? true : undefined), 30_000, "the request");
    assert.deepEqual(userOf(server, before), [
      { type: "text", text: "What is in this picture?" },
      { type: "image_url", image_url: { url: `data:image/png;base64,${PNG}` } },
    ]);
  });

  it("gives @tandem the file, the range and the folder VS Code's Chat view attaches", async () => {
    server.script(answer("Seen them."), answer("Seen"));
    const root = vscode.workspace.workspaceFolders![0].uri;
    const math = vscode.Uri.joinPath(root, "math.ts");
    const before = server.requests.length;
    const result = await vscode.commands.executeCommand<{ errorDetails?: unknown }>(
      "workbench.action.chat.open",
      {
        query: "@tandem what are these?",
        modelSelector: { vendor: "tandem", id: "gpt-4o-mini" },
        // The range as the workbench takes it (an editor range, 1-based): line 2, `return a + b;`.
        attachFiles: [
          math,
          { uri: math, range: { startLineNumber: 2, startColumn: 1, endLineNumber: 2, endColumn: 16 } },
          root,
        ],
        blockOnResponse: true,
      },
    );
    assert.equal(result?.errorDetails, undefined);
    const text = JSON.stringify(userOf(server, before));
    assert.match(text, /<file name=\\"math.ts\\">\\nexport function add/, `the file, in ${text}`);
    assert.match(text, /Lines math.ts:2-2:\\n```typescript\\n {2}return a \+ b;/, `the range, in ${text}`);
    assert.match(text, /holds \d+ entries:\\n[^"]*math.ts/, `the folder, in ${text}`);
  });
});
