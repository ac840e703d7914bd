import assert from "node:assert/strict";
import type { Tool } from "../../../src/agent/types";
import { searchText } from "../../../src/chat/workspace/search";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, searchPaths, write } from "./fixtures";

/** The `path:line: text` lines of a search answer. */
function matches(answer: string): string[] {
  return answer.split("\n").filter((line) => /^[^[\s].*:\d+: /.test(line));
}

for (const implementation of searchPaths) {
  describe(`search_text (${implementation.name})`, () => {
    let ripgrep: string | undefined;
    before(() => {
      ripgrep = implementation.ripgrep();
    });

    let root: string;
    let tools: Tool[];
    const cleanups: (() => void)[] = [];

    beforeEach(() => {
      const ws = folder();
      cleanups.push(ws.remove);
      root = ws.path;
      tools = workspaceTools({ root, ripgrep, trusted: true, exclude: { "generated/**": true } });
      write(root, {
        ".gitignore": "ignored.txt\n",
        "src/a.ts": "export const Answer = 42;\nconst other = 1;\n// the answer again\n",
        "src/b.ts": "function f(x) { return x + 1; }\n",
        "src/c.md": "The (answer) is [here].\r\nsecond line\r\n",
        "ignored.txt": "answer in an ignored file\n",
        "generated/x.ts": "answer in an excluded file\n",
        "node_modules/m/index.js": "answer in node_modules\n",
        "image.bin": Buffer.concat([Buffer.from("answer"), Buffer.from([0, 1, 2, 3])]),
        "big.txt": `answer\n${"y".repeat(1024 * 1024 + 10)}\n`,
      });
    });

    afterEach(() => {
      while (cleanups.length) (cleanups.pop() as () => void)();
    });

    it("finds a literal, ignoring case by default, as path:line: text", async () => {
      const answer = await call(tools, "search_text", { query: "answer" });
      assert.deepEqual(matches(answer), [
        "src/a.ts:1: export const Answer = 42;",
        "src/a.ts:3: // the answer again",
        "src/c.md:1: The (answer) is [here].",
      ]);
      assert.match(answer, /^3 matches for "answer" in 2 files:/);
      assert.match(answer, /\[1 file larger than 1\.0 MB was not searched\.\]/);
    });

    it("matches case exactly when asked, and reads regex characters literally by default", async () => {
      assert.deepEqual(matches(await call(tools, "search_text", { query: "Answer", caseSensitive: true })), [
        "src/a.ts:1: export const Answer = 42;",
      ]);
      assert.deepEqual(matches(await call(tools, "search_text", { query: "(answer) is [here]" })), [
        "src/c.md:1: The (answer) is [here].",
      ]);
    });

    it("searches a regular expression within a glob", async () => {
      const answer = await call(tools, "search_text", {
        query: "return \\w+ \\+ \\d",
        regex: true,
        glob: "src/**/*.ts",
      });
      assert.deepEqual(matches(answer), ["src/b.ts:1: function f(x) { return x + 1; }"]);
    });

    it("answers a clear error for an invalid regular expression", async () => {
      const message = await refusal(call(tools, "search_text", { query: "(unclosed", regex: true }));
      assert.match(
        message,
        /^The query is not a valid regular expression \(.*\); fix it, or set regex to false/,
      );
    });

    it("refuses a nested repetition that could run for ever", async () => {
      const message = await refusal(call(tools, "search_text", { query: "(a+)+$", regex: true }));
      assert.match(message, /repeats a repetition/);
      // The same characters as a literal are fine.
      assert.match(await call(tools, "search_text", { query: "(a+)+$" }), /^No match/);
    });

    it("caps the matches and says so", async () => {
      write(root, { "many.txt": "hit\n".repeat(50) });
      const answer = await searchText({ root }, {}, { query: "hit", maxResults: 20 }, { ripgrep });
      assert.equal(matches(answer).length, 20);
      assert.match(answer, /\[Stopped at 20 matches; narrow the query or the glob to see others\.\]/);
    });

    it("clips a long matching line around the match", async () => {
      write(root, { "long.txt": `${"a".repeat(500)}NEEDLE${"b".repeat(500)}\n` });
      const [line] = matches(await call(tools, "search_text", { query: "needle", glob: "long.txt" }));
      assert.ok(line.includes("NEEDLE"));
      assert.ok(line.length < 300, `${line.length}`);
    });

    it("says when nothing matches", async () => {
      assert.equal(
        await call(tools, "search_text", { query: "zebra", glob: "src/**" }),
        'No match for "zebra" in src/**.',
      );
    });

    it("refuses a glob that leaves the workspace", async () => {
      assert.match(
        await refusal(call(tools, "search_text", { query: "x", glob: "../**" })),
        /outside the workspace/,
      );
    });
  });
}
