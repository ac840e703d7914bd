import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import type { Tool } from "../../../src/agent/types";
import type { Editor } from "../../../src/chat/workspace/editor";
import { nameFolders } from "../../../src/chat/workspace/folders";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, folder, refusal, searchPaths, write } from "./fixtures";

for (const implementation of searchPaths) {
  describe(`a workspace of two folders (${implementation.name})`, () => {
    let api: string;
    let web: string;
    let tools: Tool[];
    const opened: string[] = [];
    const cleanups: (() => void)[] = [];

    beforeEach(() => {
      const a = folder("tandem-api-");
      const w = folder("tandem-web-");
      cleanups.push(a.remove, w.remove);
      api = a.path;
      web = w.path;
      write(api, { ".gitignore": "*.log\n", "src/a.ts": "export const answer = 1;\n", "x.log": "answer\n" });
      write(web, { "src/b.ts": "// the answer\n", "README.md": "# web\n" });
      const editor = {
        open: async (path: string) => {
          opened.push(path);
        },
      } as unknown as Editor;
      tools = workspaceTools({
        root: api,
        folders: [
          { root: api, name: "api" },
          { root: web, name: "web" },
        ],
        editor,
        trusted: false,
        ripgrep: implementation.ripgrep(),
      });
    });

    afterEach(() => {
      while (cleanups.length) (cleanups.pop() as () => void)();
    });

    it("lists and searches every folder, paths named by folder", async () => {
      assert.equal(
        await call(tools, "list_files", {}),
        ["4 files matching **/*:", "api/.gitignore", "api/src/a.ts", "web/README.md", "web/src/b.ts"].join(
          "\n",
        ),
      );
      assert.equal(
        await call(tools, "search_text", { query: "answer" }),
        [
          '2 matches for "answer" in 2 files:',
          "api/src/a.ts:1: export const answer = 1;",
          "web/src/b.ts:1: // the answer",
        ].join("\n"),
      );
      assert.equal(
        await call(tools, "search_text", { query: "answer", glob: "web/src" }),
        ['1 match for "answer" in 1 file:', "web/src/b.ts:1: // the answer"].join("\n"),
      );
      assert.equal(
        await call(tools, "list_files", { glob: "web/*.md" }),
        "1 file matching web/*.md:\nweb/README.md",
      );
      const capped = await call(tools, "search_text", { query: "answer", maxResults: 1 });
      assert.match(capped, /^1 match for "answer" in 1 file:\napi\/src\/a\.ts:1: .*\n\[Stopped at 1 matches/);
    });

    it("reads and opens a file in the folder its path names, each folder guarded on its own", async () => {
      assert.match(await call(tools, "read_file", { path: "web/src/b.ts" }), /\/\/ the answer/);
      assert.match(await call(tools, "read_file", { path: join(api, "src/a.ts") }), /export const answer/);
      await call(tools, "open_file", { path: "web/README.md" });
      assert.deepEqual(opened.slice(-1), [join(web, "README.md")]);
      assert.match(
        await refusal(call(tools, "read_file", { path: "src/a.ts" })),
        /names no folder of the workspace.*\(api, web\)/,
      );
      assert.match(
        await refusal(call(tools, "read_file", { path: "web/../../etc/passwd" })),
        /outside the workspace/,
      );
      // A link from one folder into the other is a way out of its folder.
      symlinkSync(join(api, "src"), join(web, "to-api"));
      assert.match(
        await refusal(call(tools, "read_file", { path: "web/to-api/a.ts" })),
        /outside the workspace/,
      );
    });

    it("answers arguments that are not a JSON object with the reason the model can act on", async () => {
      const read = tools.find((t) => t.name === "read_file") as Tool;
      const signal = new AbortController().signal;
      await assert.rejects(read.run('{"path": "web/', signal), /^Error: The arguments are not valid JSON/);
      await assert.rejects(read.run('["web/README.md"]', signal), /must be a JSON object, not a list/);
    });
  });
}

describe("folder names", () => {
  it("are the folders' names, made unique when two share one", () => {
    assert.deepEqual(
      nameFolders([
        { root: "/x/api" },
        { root: "/y/api" },
        { root: "/z/web", name: "Web App" },
        { root: "/q", name: "a/b" },
      ]).map((f) => f.name),
      ["api", "api-2", "Web App", "a-b"],
    );
  });
});
