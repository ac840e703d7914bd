import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import type {
  CodeSymbol,
  Command,
  DiffOf,
  Editor,
  NewFile,
  Place,
  Problem,
  Proposal,
  Ran,
  EditVerdict,
} from "../../../src/chat/workspace/editor";
import { checkedRef, commitMessageOf, commitPrompt, DIFF_CHARS } from "../../../src/chat/workspace/git-diff";
import { fixPrompt, PROBLEMS, PROBLEMS_AFTER_EDIT } from "../../../src/chat/workspace/problems";
import { PLACES } from "../../../src/chat/workspace/symbols";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, write } from "./fixtures";

/**
 * An editor whose language features and git answer what a test sets: problems per file, places,
 * symbols and a diff; it writes what it is asked to, as the real one does.
 */
class KnowingEditor implements Editor {
  problemList: Problem[] = [];
  /** Problems the language server reports once a write has happened (what `problemsAfterWrite` sees). */
  afterWrite: Problem[] | undefined = [];
  places: Place[] = [];
  outline: CodeSymbol[] = [];
  found: CodeSymbol[] = [];
  diff = "";
  asked: { what: string; at?: Place; of?: DiffOf; query?: string }[] = [];
  verdict: EditVerdict = { accepted: true };

  async open(): Promise<void> {}
  async propose(p: Proposal): Promise<EditVerdict> {
    if (this.verdict.accepted) writeFileSync(p.path, p.after);
    return this.verdict;
  }
  async create(f: NewFile): Promise<void> {
    writeFileSync(f.path, f.content);
  }
  async run(_c: Command): Promise<Ran> {
    return { exitCode: 0, output: "" };
  }
  async problems(path?: string): Promise<Problem[]> {
    return path === undefined ? this.problemList : this.problemList.filter((p) => p.path === path);
  }
  async problemsAfterWrite(path: string): Promise<Problem[] | undefined> {
    return this.afterWrite?.filter((p) => p.path === path);
  }
  async definition(at: Place): Promise<Place[]> {
    this.asked.push({ what: "definition", at });
    return this.places;
  }
  async references(at: Place): Promise<Place[]> {
    this.asked.push({ what: "references", at });
    return this.places;
  }
  async fileSymbols(): Promise<CodeSymbol[]> {
    return this.outline;
  }
  async workspaceSymbols(query: string): Promise<CodeSymbol[]> {
    this.asked.push({ what: "workspaceSymbols", query });
    return this.found;
  }
  async gitDiff(of: DiffOf): Promise<string> {
    this.asked.push({ what: "gitDiff", of });
    return this.diff;
  }
}

describe("editor tools: problems, language features and git", () => {
  let root: string;
  let editor: KnowingEditor;
  let remove: () => void;
  const tools = (trusted = true) => workspaceTools({ root, editor, trusted });
  const problem = (path: string, line: number, severity: Problem["severity"], message: string): Problem => ({
    path: join(root, path),
    line,
    column: 7,
    severity,
    message,
    source: "ts",
    code: "2322",
  });

  beforeEach(() => {
    const ws = folder();
    root = ws.path;
    remove = ws.remove;
    editor = new KnowingEditor();
    write(root, {
      "src/math.ts":
        "// the address of an adder\nexport function add(a: number, b: number) {\n  return a + b;\n}\n",
      "src/use.ts": 'import { add } from "./math";\nconst n: string = add(1, 2);\n',
    });
  });

  afterEach(() => remove());

  it("offers the editor's tools as read-only, and git_diff only in a trusted workspace", () => {
    const names = (list: ReturnType<typeof tools>) => list.filter((t) => t.readOnly).map((t) => t.name);
    assert.deepEqual(
      names(tools()).filter((n) =>
        ["problems", "definition", "references", "symbols", "git_diff"].includes(n),
      ),
      ["problems", "definition", "references", "symbols", "git_diff"],
    );
    assert.ok(!names(tools(false)).includes("git_diff"));
    assert.ok(names(tools(false)).includes("problems"));
  });

  describe("problems", () => {
    it("lists errors before warnings with workspace paths, leaving out other folders and hints", async () => {
      editor.problemList = [
        problem("src/use.ts", 4, "warning", "'x' is declared but never used."),
        problem("src/use.ts", 2, "error", "Type 'number' is not assignable to type 'string'."),
        problem("src/use.ts", 1, "hint", "Unused import."),
        { ...problem("x", 1, "error", "outside"), path: "/elsewhere/lib.ts" },
      ];
      const text = await call(tools(), "problems", {});
      assert.equal(
        text,
        [
          "1 error, 1 warning in the workspace:",
          "src/use.ts:2:7 error: Type 'number' is not assignable to type 'string'. (ts 2322)",
          "src/use.ts:4:7 warning: 'x' is declared but never used. (ts 2322)",
        ].join("\n"),
      );
      assert.match(await call(tools(), "problems", { all: true }), /src\/use\.ts:1:7 hint: Unused import\./);
    });

    it("answers for one file, and says when it has none", async () => {
      editor.problemList = [problem("src/use.ts", 2, "error", "Bad.")];
      assert.match(await call(tools(), "problems", { path: "src/use.ts" }), /^1 error in src\/use\.ts:/);
      assert.equal(
        await call(tools(), "problems", { path: "src/math.ts" }),
        "No errors or warnings in src/math.ts.",
      );
      assert.match(
        await refusal(call(tools(), "problems", { path: "../outside.ts" })),
        /outside the workspace/,
      );
    });

    it(`lists at most ${PROBLEMS}, with a note of how many more there are`, async () => {
      editor.problemList = Array.from({ length: PROBLEMS + 5 }, (_, i) =>
        problem("src/use.ts", i + 1, "error", "E"),
      );
      const lines = (await call(tools(), "problems", {})).split("\n");
      assert.equal(lines.length, 1 + PROBLEMS + 1);
      assert.equal(lines.at(-1), "[5 more problems not shown; ask the problems tool for one file.]");
    });

    it("gives the agent the new problems of a file after its own edit", async () => {
      editor.afterWrite = [
        problem("src/use.ts", 2, "error", "Type 'number' is not assignable to type 'string'."),
      ];
      const text = await call(tools(), "propose_edit", {
        path: "src/use.ts",
        oldText: "add(1, 2)",
        newText: "add(1, 3)",
      });
      assert.equal(
        text,
        [
          "The person accepted the edit; src/use.ts is changed.",
          "Problems in src/use.ts now (1 error):",
          "src/use.ts:2:7 error: Type 'number' is not assignable to type 'string'. (ts 2322)",
        ].join("\n"),
      );
      assert.equal(
        await call(tools(), "create_file", { path: "src/new.ts", content: "export {};\n" }),
        "Created src/new.ts (1 line).\nNo errors or warnings in src/new.ts now.",
      );
    });

    it("caps the problems after an edit, and says nothing of them when none are known or the edit is rejected", async () => {
      editor.afterWrite = Array.from({ length: PROBLEMS_AFTER_EDIT + 2 }, (_, i) =>
        problem("src/new.ts", i + 1, "error", "E"),
      );
      const made = await call(tools(), "create_file", { path: "src/new.ts", content: "x\n" });
      assert.match(made, /Problems in src\/new\.ts now \(22 errors\):/);
      assert.match(made, /\[2 more problems not shown; ask the problems tool for one file\.\]$/);
      // No language server answered in time: the answer does not guess "no problems".
      editor.afterWrite = undefined;
      assert.equal(
        await call(tools(), "create_file", { path: "notes.txt", content: "x\n" }),
        "Created notes.txt (1 line).",
      );
      editor.verdict = { accepted: false };
      const rejected = await call(tools(), "propose_edit", {
        path: "src/use.ts",
        oldText: "1, 2",
        newText: "1",
      });
      assert.equal(rejected, "The person rejected the edit; src/use.ts is unchanged.");
    });
  });

  describe("definition, references and symbols", () => {
    it("finds the symbol's column by name as a whole word, and answers with each place's line", async () => {
      editor.places = [{ path: join(root, "src/math.ts"), line: 2, column: 17 }];
      const text = await call(tools(), "definition", { path: "src/use.ts", symbol: "add", line: 2 });
      assert.deepEqual(editor.asked[0].at, { path: join(root, "src/use.ts"), line: 2, column: 19 });
      assert.equal(
        text,
        'Definition of "add" at src/use.ts:2:19:\nsrc/math.ts:2: export function add(a: number, b: number) {',
      );
      // "address" and "adder" on line 1 are not "add": the first whole-word occurrence is on line 2.
      await call(tools(), "references", { path: "src/math.ts", symbol: "add" });
      assert.deepEqual(editor.asked[1].at, { path: join(root, "src/math.ts"), line: 2, column: 17 });
    });

    it("refuses a place it cannot find, with a reason", async () => {
      assert.match(
        await refusal(call(tools(), "definition", { path: "src/use.ts", symbol: "nothing" })),
        /"nothing" does not occur as a whole word in src\/use\.ts/,
      );
      assert.match(
        await refusal(call(tools(), "definition", { path: "src/use.ts", line: 9, column: 1 })),
        /src\/use\.ts has 2 lines; line 9 is past its end/,
      );
      assert.match(
        await refusal(call(tools(), "definition", { path: "src/use.ts" })),
        /Give the symbol's name/,
      );
    });

    it(`names places outside the workspace by file name only, and lists at most ${PLACES}`, async () => {
      editor.places = [
        { path: "/usr/lib/node_modules/typescript/lib/lib.es5.d.ts", line: 12, column: 1 },
        ...Array.from({ length: PLACES + 3 }, (_, i) => ({
          path: join(root, "src/use.ts"),
          line: 2,
          column: i + 1,
        })),
      ];
      const lines = (await call(tools(), "references", { path: "src/use.ts", line: 2, column: 19 })).split(
        "\n",
      );
      assert.equal(lines[0], "104 references to src/use.ts:2:19:");
      assert.equal(lines[1], "(outside the workspace) lib.es5.d.ts:12");
      assert.equal(lines[2], "src/use.ts:2: const n: string = add(1, 2);");
      assert.equal(lines.at(-1), "[4 more places not shown.]");
    });

    it("lists a file's outline and searches the workspace's symbols", async () => {
      editor.outline = [
        { name: "add", kind: "function", path: join(root, "src/math.ts"), line: 2, column: 17 },
      ];
      assert.equal(
        await call(tools(), "symbols", { path: "src/math.ts" }),
        "1 symbol in src/math.ts:\nfunction add — src/math.ts:2",
      );
      editor.found = [
        {
          name: "add",
          kind: "method",
          container: "Calc",
          path: join(root, "src/calc.ts"),
          line: 4,
          column: 3,
        },
        { name: "add", kind: "function", path: "/elsewhere/x.ts", line: 1, column: 1 },
      ];
      assert.equal(
        await call(tools(), "symbols", { query: " add " }),
        '1 symbol in the workspace matching "add":\nmethod Calc.add — src/calc.ts:4',
      );
      assert.match(
        await refusal(call(tools(), "symbols", {})),
        /Give a file \(path\) for its outline, or a query/,
      );
    });
  });

  describe("git_diff", () => {
    it("asks the editor for staged, unstaged or ref changes, and says when there are none", async () => {
      assert.equal(await call(tools(), "git_diff", {}), "No unstaged changes.");
      assert.equal(
        await call(tools(), "git_diff", { changes: "staged", path: "src/use.ts" }),
        "No staged changes of src/use.ts.",
      );
      editor.diff = "diff --git a/src/use.ts b/src/use.ts\n";
      assert.equal(
        await call(tools(), "git_diff", { changes: "ref", ref: "main~2" }),
        "The changes against main~2:\ndiff --git a/src/use.ts b/src/use.ts\n",
      );
      assert.deepEqual(
        editor.asked.map((a) => a.of),
        [
          { kind: "unstaged", path: undefined },
          { kind: "staged", path: join(root, "src/use.ts") },
          { kind: "ref", ref: "main~2", path: undefined },
        ],
      );
    });

    it("refuses a ref that git would read as an option, before git is asked", async () => {
      for (const ref of ["--output=/tmp/x", "-p", "main --output=x", "HEAD;rm -rf ~", "a\nb", ""]) {
        assert.match(await refusal(call(tools(), "git_diff", { changes: "ref", ref })), /ref/, ref);
      }
      assert.deepEqual(editor.asked, []);
      for (const ref of [
        "main",
        "HEAD~3",
        "origin/main",
        "v1.2.0",
        "a1b2c3d",
        "main..HEAD",
        "HEAD@{1}",
        "HEAD^",
      ]) {
        assert.equal(checkedRef(ref), ref);
      }
      assert.match(await refusal(call(tools(), "git_diff", { changes: "ref" })), /needs ref/);
      assert.match(await refusal(call(tools(), "git_diff", { ref: "main" })), /only used with changes "ref"/);
    });

    it(`shows at most ${DIFF_CHARS / 1024} KB of a diff, cut at a line, with a note`, async () => {
      editor.diff = "+a line of the diff\n".repeat(5000);
      const text = await call(tools(), "git_diff", {});
      const [, ...rest] = text.split("\n");
      assert.ok(rest.slice(0, -1).every((l) => l === "+a line of the diff"));
      assert.match(
        rest.at(-1)!,
        /^\[… \d+\.\d KB more of the diff not shown: ask for one file with path\.\]$/,
      );
      assert.ok(text.length < DIFF_CHARS + 200);
    });
  });

  describe("the commit message and the quick fix's message", () => {
    it("asks for a message of the diff and takes the message out of the answer", () => {
      const prompt = commitPrompt("diff --git a/x b/x\n+y\n", true);
      assert.match(prompt, /staged changes/);
      assert.ok(prompt.endsWith("diff --git a/x b/x\n+y\n"));
      assert.ok(commitPrompt("+x\n".repeat(40_000), false).length < DIFF_CHARS + 1000);
      assert.equal(
        commitMessageOf("<think>hmm</think>\n```\nAdd the sum\n\nBecause.\n```"),
        "Add the sum\n\nBecause.",
      );
      assert.equal(commitMessageOf('Commit message: "Fix the build"'), "Fix the build");
    });

    it("gives the problem, its place and the numbered lines around it", () => {
      const text = fixPrompt({
        shown: "src/use.ts",
        line: 2,
        column: 7,
        severity: "error",
        message: "Type 'number' is not assignable to type 'string'.",
        source: "ts",
        code: "2322",
        language: "typescript",
        lines: ['import { add } from "./math";', "const n: string = add(1, 2);"],
        first: 1,
      });
      assert.equal(
        text,
        [
          "Fix this error in src/use.ts:2:7:",
          "> ts 2322: Type 'number' is not assignable to type 'string'.",
          "",
          "Lines 1–2 of src/use.ts:",
          "```typescript",
          '1 | import { add } from "./math";',
          "2 | const n: string = add(1, 2);",
          "```",
        ].join("\n"),
      );
    });
  });
});
