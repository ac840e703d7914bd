/**
 * `@` references in a workspace of two folders: the picker names a path by its folder (as the
 * tools do), and each reference is read inside the folder it names.
 */
import assert from "node:assert/strict";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Kept, resolveRefs, type EditorContext } from "../../../src/chat/panel/context-refs";
import { knowingNothing } from "./editor-context";

/** An editor over the folders `web` and `api` that knows nothing else. */
function twoFolders(web: string, api: string): EditorContext {
  return knowingNothing({
    root: () => web,
    folders: () => [
      { root: web, name: "web" },
      { root: api, name: "api" },
    ],
  });
}

describe("@ references in a workspace of two folders", () => {
  let web = "";
  let api = "";
  let storage = "";
  beforeEach(async () => {
    web = await mkdtemp(join(tmpdir(), "tandem-web-"));
    api = await mkdtemp(join(tmpdir(), "tandem-api-"));
    storage = await mkdtemp(join(tmpdir(), "tandem-refs-store-"));
    await mkdir(join(api, "lib"));
    await writeFile(join(api, "lib/b.ts"), "export function b() {}\n");
    await writeFile(join(web, "index.ts"), "export const a = 1;\n");
  });
  afterEach(async () => {
    for (const dir of [web, api, storage]) await rm(dir, { recursive: true, force: true });
  });

  it("reads a file, a folder and a symbol of the second folder by its folder's name", async () => {
    const kept = new Kept(storage);
    const { files, refused } = await resolveRefs(
      [
        { kind: "file", path: "api/lib/b.ts" },
        { kind: "folder", path: "api/lib" },
        { kind: "symbol", name: "b", path: "api/lib/b.ts", line: 0 },
        { kind: "file", path: "web/index.ts" },
      ],
      twoFolders(web, api),
      kept,
    );
    assert.deepEqual(refused, []);
    assert.deepEqual(
      files.map((f) => f.name),
      ["b.ts", "Folder api/lib", "Symbol b (api/lib/b.ts:1)", "index.ts"],
    );
  });

  it("refuses a path that leaves the folder it names", async () => {
    const { refused } = await resolveRefs(
      [{ kind: "file", path: "api/../../etc/passwd" }],
      twoFolders(web, api),
      new Kept(storage),
    );
    assert.equal(refused.length, 1);
    assert.match(refused[0], /^Tandem did not add api\/\.\.\/\.\.\/etc\/passwd: /);
  });
});
