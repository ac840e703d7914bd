import assert from "node:assert/strict";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { CommandRules } from "../../../src/chat/workspace/command-rules";
import { judgeCommandIn, judgeCommandInFolders } from "../../../src/chat/workspace/command-where";
import { riskyGitSetting, riskyNpmrcSetting } from "../../../src/chat/workspace/repo-config";

/** A folder holding `files` (a path ending in `/` is a folder); removed by the returned function. */
function repository(files: Record<string, string>): { root: string; remove: () => void } {
  const root = mkdtempSync(join(tmpdir(), "tandem-config-"));
  for (const [path, content] of Object.entries(files)) {
    const at = join(root, path);
    if (path.endsWith("/")) mkdirSync(at, { recursive: true });
    else {
      mkdirSync(dirname(at), { recursive: true });
      writeFileSync(at, content);
    }
  }
  return { root, remove: () => rmSync(root, { recursive: true, force: true }) };
}

const RULES: CommandRules = {
  allow: ["git status", "git diff *", "npm test", "yarn test"],
  deny: ["git push"],
};

/** The judgement of `line` run in `cwd` of a repository holding `files`. */
async function judged(
  files: Record<string, string>,
  line: string,
  cwd = ".",
  rules = RULES,
  platform = "linux",
) {
  const { root, remove } = repository(files);
  try {
    mkdirSync(join(root, cwd), { recursive: true });
    return {
      root,
      said: await judgeCommandIn(line, rules, { cwd: join(root, cwd), roots: [root] }, platform),
    };
  } finally {
    remove();
  }
}

const BARE = { HEAD: "ref: refs/heads/main\n", "objects/": "", "refs/": "" };

describe("command rules: the repository's configuration voids a rule, saying why", () => {
  it("asks for npm test while the workspace's .npmrc sets script-shell, naming the file and the setting", async () => {
    const { said } = await judged(
      { ".npmrc": "registry=https://r.example\nscript-shell = ./x.sh\n" },
      "npm test",
    );
    assert.deepEqual(said, {
      verdict: "ask",
      why: `The repository's .npmrc sets script-shell, which changes what npm runs: your rule does not cover this command.`,
    });
  });

  it("reads every .npmrc setting that runs or loads something, in npm's spellings", () => {
    for (const line of [
      "script-shell=x",
      "node-options=--require x",
      "NODE_OPTIONS=x",
      "onload-script=x",
      "'shell'=x",
      "node-gyp=x",
    ])
      assert.ok(riskyNpmrcSetting(line), line);
    for (const line of [
      "registry=https://r.example",
      "# script-shell=x",
      "save-exact=true",
      "//r.example/:_authToken=x",
    ])
      assert.equal(riskyNpmrcSetting(line), undefined, line);
  });

  it("finds an .npmrc or .yarnrc.yml in a parent folder inside the workspace", async () => {
    assert.equal(
      (await judged({ ".npmrc": "node-options=--require ./x.js\n" }, "npm test", "pkg/a")).said.verdict,
      "ask",
    );
    assert.equal(
      (await judged({ ".yarnrc.yml": "yarnPath: ./x.cjs\n" }, "yarn test", "pkg")).said.verdict,
      "ask",
    );
  });

  it("voids git rules for git settings in .git/config, a .git file's gitdir: and a bare layout in the folder or a parent", async () => {
    const fsmonitor = "[core]\n\tbare = false\n\tfsmonitor = ./x.sh\n";
    const layouts: [string, Record<string, string>, string][] = [
      [".git/config", { ".git/HEAD": "ref: refs/heads/main\n", ".git/config": fsmonitor }, "."],
      [
        "gitdir:",
        { ".git": "gitdir: elsewhere/g\n", "elsewhere/g/HEAD": "x", "elsewhere/g/config": fsmonitor },
        ".",
      ],
      ["bare, here", { ...BARE, config: fsmonitor }, "."],
      ["bare, in a parent", { ...BARE, config: fsmonitor }, "src/deep"],
      [
        "bare, in a sub-folder",
        {
          ...Object.fromEntries(Object.entries(BARE).map(([k, v]) => [`sub/${k}`, v])),
          "sub/config": fsmonitor,
        },
        "sub",
      ],
      [
        "worktree's commondir",
        {
          ".git": "gitdir: g/worktrees/w\n",
          "g/worktrees/w/HEAD": "x",
          "g/worktrees/w/commondir": "../..",
          "g/config": fsmonitor,
        },
        ".",
      ],
    ];
    for (const [name, files, cwd] of layouts) {
      const { said } = await judged(files, "git status", cwd);
      assert.equal(said.verdict, "ask", name);
      assert.match(
        said.verdict === "ask" ? said.why : "",
        /git settings \((.+\/)?config\) set core\.fsmonitor, which makes git run a program/,
        name,
      );
    }
  });

  it("reads the git settings that run a program, and leaves the ordinary ones", () => {
    for (const text of [
      "[core]\n\tpager = less -x",
      "[Core]\n\tSSHCommand = ./x",
      "[core] hooksPath = hooks",
      '[diff "pdf"]\n\ttextconv = ./x',
      "[diff.pdf]\n\tcommand = ./x",
      "[diff]\n\texternal = ./x",
      '[filter "lfs"]\n\tsmudge = ./x',
      "[alias]\n\tst = !./x",
      "[pager]\n\tlog = ./x",
      "[include]\n\tpath = other.cfg",
      '[includeIf "gitdir:x"]\n\tpath = other.cfg',
      '[remote "o"]\n\turl = ext::./x',
      '[remote "o"]\n\tuploadpack = ./x',
      "[credential]\n\thelper = ./x",
    ])
      assert.ok(riskyGitSetting(text), text);
    for (const text of [
      "[core]\n\trepositoryformatversion = 0\n\tfilemode = true\n\tbare = false\n\tlogallrefupdates = true",
      '[remote "origin"]\n\turl = https://github.com/a/b\n\tfetch = +refs/heads/*:refs/remotes/origin/*',
      '[branch "main"]\n\tremote = origin\n\tmerge = refs/heads/main',
      "[core]\n\tfsmonitor = true",
      "# [alias]\n; st = !x",
    ])
      assert.equal(riskyGitSetting(text), undefined, text);
  });

  it("voids a rule when the .git file points outside the workspace", async () => {
    const { said } = await judged({ ".git": `gitdir: ${tmpdir()}/no-such-tandem-repo\n` }, "git status");
    assert.equal(said.verdict, "ask");
    assert.match(said.verdict === "ask" ? said.why : "", /git folder is outside the workspace/);
  });

  it("lets the rule by for an ordinary repository, adds the reason to a line asked anyway, and never lifts a deny", async () => {
    const plain = {
      ".git/HEAD": "ref: refs/heads/main\n",
      ".git/config": "[core]\n\tbare = false\n",
      ".npmrc": "save-exact=true\n",
    };
    assert.equal((await judged(plain, "git status && npm test")).said.verdict, "allowed");
    const risky = { ...BARE, config: "[core]\n\tpager = ./x\n" };
    const asked = (await judged(risky, "git log")).said;
    assert.ok(
      asked.verdict === "ask" && asked.offer === undefined && /core\.pager/.test(asked.why),
      JSON.stringify(asked),
    );
    assert.equal((await judged(risky, "git push")).said.verdict, "denied");
    // A setting of git's does not void a rule for npm, nor npm's for git.
    assert.equal((await judged(risky, "npm test")).said.verdict, "allowed");
    assert.equal((await judged({ ".npmrc": "script-shell=x\n" }, "git status")).said.verdict, "allowed");
  });

  it("on Windows, voids a rule when the command's folder holds a file cmd.exe runs instead (git.bat)", async () => {
    const { said } = await judged({ "git.bat": "calc.exe\r\n" }, "git status", ".", RULES, "win32");
    assert.deepEqual(said, {
      verdict: "ask",
      why: "On Windows, git.bat in the command's folder runs instead of the program: your rule does not cover this command.",
    });
    assert.equal(
      (await judged({ "git.bat": "x" }, "git status", ".", RULES, "linux")).said.verdict,
      "allowed",
    );
    assert.equal(
      (await judged({ "src/git.bat": "x" }, "git status", ".", RULES, "win32")).said.verdict,
      "allowed",
    );
  });

  it("judges a command in the folder its cwd names, in a workspace of several folders", async () => {
    const a = repository({});
    const b = repository({ "pkg/.npmrc": "script-shell=./x\n" });
    try {
      const folders = [
        { name: "a", root: a.root },
        { name: "b", root: b.root },
      ];
      const rules = { allow: ["npm test"], deny: [] };
      assert.equal(
        (await judgeCommandInFolders("npm test", rules, folders, "a", "linux")).verdict,
        "allowed",
      );
      assert.equal(
        (await judgeCommandInFolders("npm test", rules, folders, "b/pkg", "linux")).verdict,
        "ask",
      );
      assert.equal((await judgeCommandInFolders("npm test", rules, [], ".", "linux")).verdict, "allowed");
    } finally {
      a.remove();
      b.remove();
    }
  });
});
