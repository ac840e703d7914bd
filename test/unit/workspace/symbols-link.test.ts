import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join } from "node:path";
import { placesText } from "../../../src/chat/workspace/symbols";
import { folder, write } from "./fixtures";

describe("places the language features answer: no line from outside the workspace", () => {
  it("reads a workspace file's line, and not one a link leads out to, nor one outside", async () => {
    const ws = folder();
    const outside = folder("tandem-outside-");
    try {
      write(ws.path, { "src/a.ts": "export const a = 1;\n" });
      write(outside.path, { "keys.ts": "export const token = 'secret';\n" });
      symlinkSync(outside.path, join(ws.path, "vendor"));
      const lines = await placesText({ root: ws.path }, [
        { path: join(ws.path, "src/a.ts"), line: 1, column: 14 },
        { path: join(ws.path, "vendor/keys.ts"), line: 1, column: 14 },
        { path: join(outside.path, "keys.ts"), line: 1, column: 14 },
      ]);
      assert.deepEqual(lines, [
        "src/a.ts:1: export const a = 1;",
        "(outside the workspace) keys.ts:1",
        "(outside the workspace) keys.ts:1",
      ]);
    } finally {
      ws.remove();
      outside.remove();
    }
  });
});
