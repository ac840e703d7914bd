import assert from "node:assert/strict";
import { symlinkSync } from "node:fs";
import { join, relative } from "node:path";
import { fileInFolders } from "../../../src/chat/workspace/contained";
import { folder, refusal, write } from "./fixtures";

describe("go to file: only a regular file inside a workspace folder is opened", () => {
  let first: string;
  let second: string;
  let outside: string;
  const cleanups: (() => void)[] = [];
  beforeEach(() => {
    const [f, s, o] = [folder(), folder(), folder("tandem-out-")];
    cleanups.push(f.remove, s.remove, o.remove);
    [first, second, outside] = [f.path, s.path, o.path];
    write(first, { "src/a.ts": "a\n" });
    write(second, { "lib/b.ts": "b\n" });
    write(outside, { "secret.txt": "secret\n" });
  });
  afterEach(() => {
    while (cleanups.length) (cleanups.pop() as () => void)();
  });

  it("opens a file of any workspace folder, by relative or absolute path", async () => {
    assert.equal(await fileInFolders([first, second], "src/a.ts"), join(first, "src/a.ts"));
    assert.equal(await fileInFolders([first, second], "lib/b.ts"), join(second, "lib/b.ts"));
    assert.equal(await fileInFolders([first, second], join(second, "lib/b.ts")), join(second, "lib/b.ts"));
  });

  it("opens a path named by its folder, as the tools write it in a workspace of several folders", async () => {
    const named = [
      { root: first, name: "web" },
      { root: second, name: "api" },
    ];
    assert.equal(await fileInFolders(named, "api/lib/b.ts"), join(second, "lib/b.ts"));
    assert.equal(await fileInFolders(named, "web/src/a.ts"), join(first, "src/a.ts"));
  });

  it("refuses a path out of the workspace: by .., absolute elsewhere, or through a link", async () => {
    assert.match(
      await refusal(fileInFolders([first], relative(first, join(outside, "secret.txt")))),
      /outside the workspace\. Tandem opens only files in the workspace folders\./,
    );
    assert.match(await refusal(fileInFolders([first], join(outside, "secret.txt"))), /outside the workspace/);
    assert.match(await refusal(fileInFolders([first], "/etc/passwd")), /outside the workspace/);
    symlinkSync(join(outside, "secret.txt"), join(first, "innocent.ts"));
    assert.match(
      await refusal(fileInFolders([first], "innocent.ts")),
      /leads through a symbolic link out of it/,
    );
    symlinkSync(outside, join(first, "docs"));
    assert.match(await refusal(fileInFolders([first], "docs/secret.txt")), /symbolic link/);
  });

  it("refuses a folder, a missing file, and anything when no folder is open, saying why", async () => {
    assert.equal(await refusal(fileInFolders([first], "src")), '"src" is not a regular file.');
    assert.equal(
      await refusal(fileInFolders([first], "gone.ts")),
      '"gone.ts" does not exist in the workspace.',
    );
    assert.equal(await refusal(fileInFolders([], "src/a.ts")), 'Open a folder to go to "src/a.ts".');
  });
});
