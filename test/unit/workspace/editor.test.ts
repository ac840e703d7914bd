import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import { existsSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  Command,
  Editor,
  NewFile,
  Proposal,
  Ran,
  EditVerdict,
} from "../../../src/chat/workspace/editor";
import { ALWAYS_ASK, workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, write } from "./fixtures";

/**
 * An editor as the tools see it: it records what it is asked, answers proposals as told (writing
 * only what is accepted, as the real one does), and runs commands in a real shell.
 */
class FakeEditor implements Editor {
  opened: { path: string; line?: number }[] = [];
  proposals: Proposal[] = [];
  created: NewFile[] = [];
  commands: Command[] = [];
  verdict: EditVerdict = { accepted: true };

  async open(path: string, line?: number): Promise<void> {
    this.opened.push({ path, line });
  }

  async propose({ recheck, ...proposal }: Proposal): Promise<EditVerdict> {
    // A fake editor writes as a real one does: after checking the path again.
    await recheck?.();
    this.proposals.push(proposal);
    if (this.verdict.accepted) writeFileSync(proposal.path, proposal.after);
    return this.verdict;
  }

  async create({ recheck, ...file }: NewFile): Promise<void> {
    await recheck?.();
    this.created.push(file);
    writeFileSync(file.path, file.content, { flag: file.overwrite ? "w" : "wx" });
  }

  run(command: Command): Promise<Ran> {
    this.commands.push(command);
    return new Promise((resolve) => {
      // Its own process group, so ending it ends what it started too (a `sleep` holding the pipe).
      const child = spawn("sh", ["-c", command.command], { cwd: command.cwd, detached: true });
      let output = "";
      let timedOut = false;
      child.stdout.on("data", (d) => (output += d));
      child.stderr.on("data", (d) => (output += d));
      const timer = setTimeout(() => {
        timedOut = true;
        process.kill(-(child.pid as number), "SIGTERM");
      }, command.timeoutMs);
      child.on("close", (code) => {
        clearTimeout(timer);
        resolve({ exitCode: timedOut ? null : code, output, timedOut });
      });
    });
  }
}

describe("tools that act through the editor", () => {
  let root: string;
  let editor: FakeEditor;
  const cleanups: (() => void)[] = [];
  const tools = () => workspaceTools({ root, editor, trusted: true });

  beforeEach(() => {
    const ws = folder();
    cleanups.push(ws.remove);
    root = ws.path;
    editor = new FakeEditor();
    write(root, {
      "src/a.ts": "const a = 1;\nconst b = 2;\nconst c = 3;\n",
      "src/twice.ts": "x();\nx();\n",
      "src/windows.ts": "one\r\ntwo\r\n",
      "pkg/package.json": "{}\n",
      "logo.png": Buffer.from([0x89, 0x50, 0, 0]),
    });
  });

  afterEach(() => {
    while (cleanups.length) (cleanups.pop() as () => void)();
  });

  describe("which tools exist", () => {
    it("offers every tool in a trusted workspace, and write tools need approval", () => {
      const offered = tools();
      assert.deepEqual(
        offered.map((t) => [t.name, t.readOnly]),
        [
          ["read_file", true],
          ["list_files", true],
          ["search_text", true],
          ["fetch_page", true],
          ["open_file", true],
          ["propose_edit", false],
          ["create_file", false],
          ["run_command", false],
        ],
      );
      assert.ok(ALWAYS_ASK.has("run_command"));
    });

    it("offers only read tools in an untrusted workspace", () => {
      const offered = workspaceTools({ root, editor, trusted: false }).map((t) => t.name);
      assert.deepEqual(offered, ["read_file", "list_files", "search_text", "fetch_page", "open_file"]);
      assert.deepEqual(
        workspaceTools({ root, trusted: true }).map((t) => t.name),
        ["read_file", "list_files", "search_text", "fetch_page"],
      );
    });

    it("describes each input field in the JSON Schema the model reads", () => {
      for (const t of tools()) {
        const properties = (t.parameters.properties ?? {}) as Record<string, { description?: string }>;
        for (const [name, field] of Object.entries(properties))
          assert.ok(field.description, `${t.name}.${name}`);
      }
    });
  });

  describe("propose_edit", () => {
    it("shows the replacement as a diff and writes nothing when the person rejects it", async () => {
      editor.verdict = { accepted: false, note: "They said: not now." };
      const answer = await call(tools(), "propose_edit", {
        path: "src/a.ts",
        oldText: "const b = 2;",
        newText: "const b = 20;",
      });
      assert.equal(answer, "The person rejected the edit; src/a.ts is unchanged. They said: not now.");
      assert.deepEqual(editor.proposals, [
        {
          path: join(root, "src/a.ts"),
          shown: "src/a.ts",
          before: "const a = 1;\nconst b = 2;\nconst c = 3;\n",
          after: "const a = 1;\nconst b = 20;\nconst c = 3;\n",
        },
      ]);
      assert.equal(
        readFileSync(join(root, "src/a.ts"), "utf8"),
        "const a = 1;\nconst b = 2;\nconst c = 3;\n",
      );
    });

    it("leaves the writing to the editor once accepted", async () => {
      const answer = await call(tools(), "propose_edit", { path: "src/a.ts", content: "whole\n" });
      assert.equal(answer, "The person accepted the edit; src/a.ts is changed.");
      assert.equal(readFileSync(join(root, "src/a.ts"), "utf8"), "whole\n");
    });

    it("matches \\n old text in a \\r\\n file and keeps its line ends", async () => {
      await call(tools(), "propose_edit", { path: "src/windows.ts", oldText: "one\ntwo", newText: "1\n2" });
      assert.equal(editor.proposals[0].after, "1\r\n2\r\n");
    });

    it("refuses missing, repeated and empty old text, mixed inputs, binaries and missing files", async () => {
      const t = tools();
      assert.match(
        await refusal(call(t, "propose_edit", { path: "src/a.ts", oldText: "nope", newText: "x" })),
        /oldText was not found in src\/a\.ts/,
      );
      assert.match(
        await refusal(call(t, "propose_edit", { path: "src/twice.ts", oldText: "x();", newText: "y();" })),
        /occurs 2 times/,
      );
      assert.match(
        await refusal(call(t, "propose_edit", { path: "src/a.ts", oldText: "", newText: "x" })),
        /oldText is empty/,
      );
      assert.match(
        await refusal(
          call(t, "propose_edit", { path: "src/a.ts", oldText: "a", newText: "b", content: "c" }),
        ),
        /not both/,
      );
      assert.match(
        await refusal(call(t, "propose_edit", { path: "src/a.ts", oldText: "a" })),
        /Give oldText and newText/,
      );
      assert.match(await refusal(call(t, "propose_edit", { path: "logo.png", content: "x" })), /binary file/);
      assert.match(
        await refusal(call(t, "propose_edit", { path: "src/new.ts", content: "x" })),
        /does not exist; make it with create_file/,
      );
      assert.equal(editor.proposals.length, 0);
    });

    it("says when the edit changes nothing, without asking the person", async () => {
      const answer = await call(tools(), "propose_edit", {
        path: "src/a.ts",
        oldText: "const a = 1;",
        newText: "const a = 1;",
      });
      assert.match(answer, /changes nothing/);
      assert.equal(editor.proposals.length, 0);
    });

    it("refuses paths out of the workspace", async () => {
      const out = folder("tandem-out-");
      cleanups.push(out.remove);
      write(out.path, { "victim.txt": "keep me\n" });
      symlinkSync(join(out.path, "victim.txt"), join(root, "link.txt"));
      for (const path of ["../victim.txt", join(out.path, "victim.txt"), "link.txt"]) {
        assert.match(
          await refusal(call(tools(), "propose_edit", { path, content: "owned" })),
          /outside the workspace/,
        );
      }
      assert.equal(readFileSync(join(out.path, "victim.txt"), "utf8"), "keep me\n");
    });
  });

  describe("create_file", () => {
    it("creates a file through the editor and says its lines", async () => {
      const answer = await call(tools(), "create_file", { path: "src/new.ts", content: "a\nb\n" });
      assert.equal(answer, "Created src/new.ts (2 lines).");
      assert.equal(readFileSync(join(root, "src/new.ts"), "utf8"), "a\nb\n");
      assert.deepEqual(editor.created, [
        { path: join(root, "src/new.ts"), shown: "src/new.ts", content: "a\nb\n", overwrite: false },
      ]);
    });

    it("refuses to replace a file unless told to", async () => {
      assert.match(
        await refusal(call(tools(), "create_file", { path: "src/a.ts", content: "x" })),
        /already exists; change it with propose_edit, or set overwrite to true/,
      );
      assert.equal(editor.created.length, 0);
      assert.equal(
        await call(tools(), "create_file", { path: "src/a.ts", content: "x", overwrite: true }),
        "Replaced src/a.ts (1 line).",
      );
      assert.equal(readFileSync(join(root, "src/a.ts"), "utf8"), "x");
    });

    it("refuses a folder, and paths that leave the workspace through a linked folder", async () => {
      assert.match(
        await refusal(call(tools(), "create_file", { path: "src", content: "x" })),
        /src is a folder/,
      );
      const out = folder("tandem-out-");
      cleanups.push(out.remove);
      symlinkSync(out.path, join(root, "escape"));
      assert.match(
        await refusal(call(tools(), "create_file", { path: "escape/evil.sh", content: "x" })),
        /outside the workspace/,
      );
      assert.match(
        await refusal(call(tools(), "create_file", { path: "/tmp/evil.sh", content: "x" })),
        /outside the workspace/,
      );
      assert.ok(!existsSync(join(out.path, "evil.sh")));
      assert.equal(editor.created.length, 0);
    });
  });

  describe("run_command", () => {
    it("runs in the folder asked and answers the exit code and output", async () => {
      const answer = await call(tools(), "run_command", { command: "ls; echo oops >&2; exit 3", cwd: "pkg" });
      assert.equal(
        answer,
        "Exit code 3 (in ./pkg).\nSandboxed: workspace writable, no network.\nOutput:\npackage.json\noops",
      );
      assert.equal(editor.commands[0].cwd, join(root, "pkg"));
      assert.equal(editor.commands[0].jail?.sandboxed, true);
      assert.equal(editor.commands[0].timeoutMs, 120_000);
    });

    it("keeps the tail of a long output and drops terminal colours", async () => {
      const answer = await call(tools(), "run_command", {
        command:
          "i=0; while [ $i -lt 2000 ]; do echo \"line $i\"; i=$((i+1)); done; printf '\\033[31mred\\033[0m done\\n'",
      });
      const [head, how, , note] = answer.split("\n");
      assert.equal(head, "Exit code 0.");
      assert.equal(how, "Sandboxed: workspace writable, no network.");
      assert.match(note, /^\[… \d+ earlier characters not shown\]$/);
      assert.ok(answer.endsWith("line 1999\nred done"));
      assert.ok(answer.length < 8 * 1024 + 200);
    });

    it("says when the command ran out of time", async () => {
      const answer = await call(tools(), "run_command", {
        command: "echo started; sleep 5",
        timeoutSeconds: 1,
      });
      assert.equal(
        answer,
        "The command ran out of time after 1 s and was ended.\nSandboxed: workspace writable, no network.\nOutput:\nstarted",
      );
    });

    it("refuses a folder outside the workspace or missing", async () => {
      assert.match(
        await refusal(call(tools(), "run_command", { command: "ls", cwd: "../" })),
        /outside the workspace/,
      );
      assert.match(
        await refusal(call(tools(), "run_command", { command: "ls", cwd: "nope" })),
        /The folder nope does not exist/,
      );
      assert.equal(editor.commands.length, 0);
    });
  });

  describe("open_file", () => {
    it("asks the editor to show the file at a line", async () => {
      assert.equal(
        await call(tools(), "open_file", { path: "src/a.ts", line: 2 }),
        "Opened src/a.ts at line 2.",
      );
      assert.deepEqual(editor.opened, [{ path: join(root, "src/a.ts"), line: 2 }]);
      assert.match(
        await refusal(call(tools(), "open_file", { path: "/etc/passwd" })),
        /outside the workspace/,
      );
      assert.match(await refusal(call(tools(), "open_file", { path: "src/none.ts" })), /does not exist/);
    });
  });
});
