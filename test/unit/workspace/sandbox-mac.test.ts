import assert from "node:assert/strict";
import { macProfile, quoted } from "../../../src/chat/workspace/sandbox-mac";
import type { Confinement } from "../../../src/chat/workspace/sandbox-linux";

const confinement: Confinement = {
  writable: ["/Users/ann/app"],
  readOnly: ["/Users/ann/app/.git", "/Users/ann/app/.npmrc"],
  hidden: [
    { path: "/Users/ann/.ssh", folder: true },
    { path: "/Users/ann/.npmrc", folder: false },
  ],
  network: false,
  cwd: "/Users/ann/app",
};

describe("the macOS sandbox profile (sandbox-exec)", () => {
  it("denies by default, reads all but the secrets, writes only the workspace and its own temporary folder", () => {
    const profile = macProfile(confinement, "/private/var/folders/x/tandem-sandbox-1");
    const lines = profile.trimEnd().split("\n");
    assert.equal(lines[0], "(version 1)");
    assert.equal(lines[1], "(deny default)");
    assert.ok(lines.includes("(allow file-read*)"));
    assert.ok(
      lines.includes(
        '(deny file-read* file-write* (subpath "/Users/ann/.ssh") (literal "/Users/ann/.npmrc"))',
      ),
      profile,
    );
    assert.ok(
      lines.includes(
        '(allow file-write* (subpath "/Users/ann/app") (subpath "/private/var/folders/x/tandem-sandbox-1") (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))',
      ),
      profile,
    );
  });

  it("keeps the protected places read-only, and a .git or .vscode made anywhere in the workspace later", () => {
    const profile = macProfile(confinement, "/tmp/t");
    const deny = profile.split("\n").find((l) => l.startsWith("(deny file-write*"));
    assert.equal(
      deny,
      '(deny file-write* (subpath "/Users/ann/app/.git") (subpath "/Users/ann/app/.npmrc") (regex #"^\\/Users\\/ann\\/app/(.*/)?\\.git(/|$)") (regex #"^\\/Users\\/ann\\/app/(.*/)?\\.vscode(/|$)"))',
    );
    // The deny comes after the allow: Seatbelt's last matching rule wins.
    assert.ok(profile.indexOf("(deny file-write*") > profile.indexOf("(allow file-write*"));
  });

  it("reaches the network only when it was allowed", () => {
    assert.doesNotMatch(macProfile(confinement, "/tmp/t"), /network/);
    assert.match(macProfile({ ...confinement, network: true }, "/tmp/t"), /^\(allow network\*\)$/m);
  });

  it("quotes paths so a quote or backslash in a folder's name cannot end the string", () => {
    assert.equal(quoted('/Users/a"b\\c'), '"/Users/a\\"b\\\\c"');
    const odd = macProfile({ ...confinement, writable: ['/Users/a"b'] }, "/tmp/t");
    assert.match(odd, /\(subpath "\/Users\/a\\"b"\)/);
    assert.match(odd, /\(regex #"\^\\\/Users\\\/a\.b\/\(\.\*\/\)\?\\\.git/);
  });
});
