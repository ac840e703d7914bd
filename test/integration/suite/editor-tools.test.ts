import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdirSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import type { Store } from "../../../src/chat/store/store";
import type { Editor } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { gitDiff } from "../../../src/vscode/git-api";
import * as language from "../../../src/vscode/language";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { panelSend, panelText } from "./person";
import { until } from "./wait";

const workspace = () => process.env.TANDEM_WORKSPACE!;

/** Every message the endpoint has received, as text. */
function received(server: FixtureServer): string[] {
  return server.requests.flatMap((r) =>
    (r.body.messages as Array<{ role: string; content: unknown }>).map((m) =>
      typeof m.content === "string" ? m.content : JSON.stringify(m.content),
    ),
  );
}

/** The editor tools as Tandem's VS Code editor gives them (the parts that write or run are not used here). */
function knowing(): Editor {
  const unused = () => Promise.reject(new Error("not used by these tests"));
  return {
    open: unused,
    propose: unused,
    create: unused,
    run: unused,
    problems: async (path) => language.problems(path),
    definition: language.definition,
    references: language.references,
    fileSymbols: language.fileSymbols,
    workspaceSymbols: language.workspaceSymbols,
    gitDiff,
  };
}

/** Runs the workspace tool `name` on `args` as the agent would. */
async function tool(name: string, args: unknown): Promise<string> {
  const found = workspaceTools({ root: workspace(), editor: knowing(), trusted: true }).find(
    (t) => t.name === name,
  );
  assert.ok(found, `the tool ${name}`);
  return found.run(JSON.stringify(args), new AbortController().signal);
}

/** The repository the git extension has open at the workspace folder. */
interface GitRepository {
  inputBox: { value: string };
}
function gitRepository(): GitRepository | null {
  const git = vscode.extensions.getExtension<{
    getAPI(v: 1): { getRepository(uri: vscode.Uri): GitRepository | null };
  }>("vscode.git");
  return git?.exports.getAPI(1).getRepository(vscode.Uri.file(workspace())) ?? null;
}

describe("the editor tools in VS Code: problems, the quick fix, the commit message", () => {
  let server: FixtureServer;
  let approval: unknown;
  const made: string[] = [];

  before(async () => {
    server = await fixtureEndpoint("fixture-editor", "editor-model", { asDefault: true });
    // The person lets create_file run without asking (their own setting, not the repository's).
    const tandem = vscode.workspace.getConfiguration("tandem");
    approval = tandem.inspect("approval")?.globalValue;
    await tandem.update("approval", { create_file: "allow" }, vscode.ConfigurationTarget.Global);
    await vscode.commands.executeCommand("tandem.chatView.focus");
    // A conversation of its own: its first run is followed by one title request, which the tests script.
    await vscode.commands.executeCommand("tandem.newChat");
    // VS Code's TypeScript language server starts on the first TypeScript file: wait until it reports.
    const warm = join(workspace(), "warm.ts");
    made.push(warm);
    writeFileSync(warm, 'export const warm: number = "warm";\n');
    await vscode.window.showTextDocument(vscode.Uri.file(warm));
    await until(
      () => vscode.languages.getDiagnostics(vscode.Uri.file(warm)).length > 0,
      90_000,
      "the TypeScript language server to report the warm-up file's error",
    );
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
  });

  after(async () => {
    await vscode.commands.executeCommand("workbench.action.closeAllEditors");
    for (const path of made) rmSync(path, { recursive: true, force: true });
    await vscode.workspace
      .getConfiguration("tandem")
      .update("approval", approval, vscode.ConfigurationTarget.Global);
    await server.close();
  });

  it("gives the agent the type error its own edit made, from the TypeScript language server", async () => {
    made.push(join(workspace(), "typed.ts"));
    server.script(
      calling([
        [
          "call_1",
          "create_file",
          JSON.stringify({ path: "typed.ts", content: 'export const total: number = "seven";\n' }),
        ],
      ]),
      answer("I made typed.ts."),
      answer("Typed file"),
    );
    await panelSend("Make typed.ts");
    const result = await until(
      () => received(server).find((m) => m.includes("Created typed.ts")),
      60_000,
      "the create_file result to reach the model",
    );
    // Written as a pending change (the default mode) or not, the problems follow the answer.
    assert.match(
      result,
      /^Created typed\.ts \(1 line\)\.( The change is pending [^\n]*)?\nProblems in typed\.ts now \(1 error\):\n/,
    );
    assert.match(
      result,
      /typed\.ts:1:\d+ error: Type 'string' is not assignable to type 'number'\. \(ts 2322\)/,
    );
    // The title is asked after the conversation's first run: it takes its reply before the next test scripts.
    await until(
      () => received(server).some((m) => m.includes("Write a short title")),
      30_000,
      "the title request",
    );
  });

  it("offers Fix with Tandem on the problem, which opens the conversation with the problem and its lines", async () => {
    const uri = vscode.Uri.file(join(workspace(), "typed.ts"));
    await vscode.window.showTextDocument(uri);
    const [problem] = await until(() => {
      const found = vscode.languages.getDiagnostics(uri);
      return found.length ? found : undefined;
    });
    const actions = await vscode.commands.executeCommand<(vscode.CodeAction | vscode.Command)[]>(
      "vscode.executeCodeActionProvider",
      uri,
      problem.range,
      vscode.CodeActionKind.QuickFix.value,
    );
    const fix = actions.find((a): a is vscode.CodeAction => a.title === "Fix with Tandem" && "kind" in a);
    assert.ok(fix?.command, "the quick fix is offered");
    assert.equal(fix.kind?.value, vscode.CodeActionKind.QuickFix.value);
    server.script(answer("Make total a string, or give it a number."));
    await vscode.commands.executeCommand(fix.command.command, ...(fix.command.arguments ?? []));
    const asked = await until(
      () => received(server).find((m) => m.includes("Fix this error in typed.ts")),
      60_000,
      "the quick fix's message to reach the model",
    );
    assert.match(asked, /Fix this error in typed\.ts:1:\d+:/);
    // The message is quoted (its words may be the repository's), with who reported it.
    assert.match(asked, /> ts 2322: Type 'string' is not assignable to type 'number'\./);
    assert.match(asked, /1 \| export const total: number = \\?"seven\\?";/);
    // The conversation holds the problem as the person's message and the answer; the panel shows them.
    const { store } = await vscode.extensions
      .getExtension<{ conversations(): Promise<{ store: Store }> }>("tandem-dev.tandem")!
      .exports.conversations();
    await until(
      () =>
        store
          .rows("items")
          .some(
            (i) =>
              i.kind === "text" && i.done && i.text.includes("Make total a string, or give it a number."),
          ),
      30_000,
      "the answer in the conversation",
    );
    const shown = await panelText();
    assert.match(shown, /Fix this error in typed\.ts:1:\d+/);
    assert.match(shown, /Make total a string, or give it a number\./);
  });

  it("finds definitions, references and symbols through the TypeScript language features", async () => {
    const use = join(workspace(), "use-math.ts");
    made.push(use);
    writeFileSync(use, 'import { add } from "./math";\nexport const three = add(1, 2);\n');
    await vscode.window.showTextDocument(vscode.Uri.file(use));
    const definition = await until(async () => {
      const text = await tool("definition", { path: "use-math.ts", symbol: "add", line: 2 });
      return text.includes("math.ts:1:") ? text : undefined;
    });
    assert.equal(
      definition,
      'Definition of "add" at use-math.ts:2:22:\nmath.ts:1: export function add(a: number, b: number) {',
    );
    const references = await tool("references", { path: "math.ts", symbol: "add" });
    assert.match(references, /^3 references to "add" at math\.ts:1:17:/);
    assert.match(references, /^use-math\.ts:2: export const three = add\(1, 2\);$/m);
    assert.equal(
      await tool("symbols", { path: "math.ts" }),
      "1 symbol in math.ts:\nfunction add — math.ts:1",
    );
  });

  it("writes a commit message of the staged changes into the Source Control input", async () => {
    const root = workspace();
    // The repository stays: removing .git under the git extension breaks its pending commands (an uncaught
    // EPIPE in the extension host). The workspace is this run's own copy, removed when the run ends.
    made.push(join(root, "notes"));
    const git = (...args: string[]) =>
      execFileSync("git", ["-c", "user.name=Test", "-c", "user.email=test@example.com", ...args], {
        cwd: root,
      });
    git("init", "-q");
    git("commit", "-q", "--allow-empty", "-m", "Start");
    mkdirSync(join(root, "notes"), { recursive: true });
    writeFileSync(join(root, "notes/commit.txt"), "a note about commits\n");
    git("add", "notes/commit.txt");
    server.script(answer("Add a note about commits\n\nThe note says what a commit holds."));
    const message = await vscode.commands.executeCommand<string | undefined>("tandem.generateCommitMessage");
    assert.equal(message, "Add a note about commits\n\nThe note says what a commit holds.");
    assert.equal(gitRepository()?.inputBox.value, message);
    const prompt = received(server).find((m) => m.includes("Write a git commit message"));
    assert.ok(prompt, "the model was asked");
    assert.match(prompt, /staged changes/);
    assert.match(prompt, /\+a note about commits/);
    // The agent's git_diff reads the same repository, and refuses an option given as a ref.
    assert.match(
      await tool("git_diff", { changes: "staged" }),
      /^The staged changes:\ndiff --git a\/notes\/commit\.txt/,
    );
    assert.equal(await tool("git_diff", {}), "No unstaged changes.");
    await assert.rejects(
      tool("git_diff", { changes: "ref", ref: "--output=/tmp/x" }),
      /cannot start with "-"/,
    );
  });
});
