import assert from "node:assert/strict";
import { runsWorkspaceCode } from "../../../src/chat/workspace/runs-code";
import { unreviewedFor } from "../../../src/chat/workspace/unreviewed";

describe("a command that runs the workspace's code is asked again while any file has an unreviewed change", () => {
  it("knows the commands that run the workspace's code", () => {
    for (const line of [
      "npm test",
      "npm run build",
      "npm start",
      "npm",
      "yarn",
      "pnpm install",
      "cargo test",
      "cargo build --release",
      "go test ./...",
      "go run .",
      "pytest -q",
      "python scripts/x.py",
      "make",
      "gmake all",
      "./gradlew build",
      "scripts/gen.sh",
      "node index.js",
      "npx jest",
      "git status && make",
      "dotnet test",
    ])
      assert.ok(runsWorkspaceCode(line), line);
    for (const line of [
      "git status",
      "git log --grep make",
      "ls src",
      "npm view x",
      "cargo fmt",
      "go version",
      "cat Makefile",
      "/usr/bin/git diff",
    ])
      assert.ok(!runsWorkspaceCode(line), line);
  });

  it("names the changed source file for a command that runs the code, the defining or test file first", () => {
    const pairs: [string, string][] = [
      ["cargo test", "src/lib.rs"],
      ["go test ./...", "pkg/core.go"],
      ["pytest", "pkg/core.py"],
      ["make", "scripts/gen.sh"],
      ["npm run build", "scripts/build.js"],
      ["npm test", "jest.setup.js"],
      ["npm test", "src/lib.js"],
      ["python main.py", "util/helpers.py"],
      ["./gradlew test", "src/main/java/App.java"],
    ];
    for (const [line, path] of pairs) assert.equal(unreviewedFor(line, [path]), path, line);
    assert.equal(unreviewedFor("npm test", ["src/a.ts", "test/a.ts"]), "test/a.ts");
    assert.equal(unreviewedFor("npm test", ["src/a.ts", "package.json"]), "package.json");
    assert.equal(unreviewedFor("git status", ["src/lib.js"]), undefined);
    assert.equal(unreviewedFor("npm test", []), undefined);
  });
});
