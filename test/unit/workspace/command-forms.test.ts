import assert from "node:assert/strict";
import {
  deniedBy,
  judgeCommand,
  plainParts,
  type CommandRules,
} from "../../../src/chat/workspace/command-rules";
import { sedScriptRuns } from "../../../src/chat/workspace/command-scripts";

const verdictOf = (line: string, rules: CommandRules, platform = "linux") =>
  judgeCommand(line, rules, platform).verdict;
const allow = (...rules: string[]): CommandRules => ({ allow: rules, deny: [] });

describe("command rules: an option is judged in every form its program accepts", () => {
  const rules = allow("git *", "npm test *", "npm run *", "make *", "sort *", "tar *", "cargo *");
  for (const line of [
    "git fetch --upl=./x .",
    "git fetch --upload-p ./x .",
    "git clone -u ./x a b",
    "git clone -qu ./x a b",
    "git clone -c core.sshCommand=./x a b",
    "git grep --open-files-in-pag=./x main",
    "git grep -iO./x main",
    "git push --receive=./x origin",
    "git log --ext-d -p",
    "git log --outp=package.json",
    "git rebase -ix ./x main",
    "npm test --script-sh=./x",
    "npm test --script-sh ./x",
    "npm test -script-shell=./x",
    "npm test --node-opt=--require=./x.js",
    "npm run build --userc=evilrc",
    "npm test -C ../elsewhere",
    "make --fi=evil.mk",
    "make -sf evil.mk",
    "make --dir ../x",
    "sort --compress=./x a",
    "tar --to-comm=./x -xf a.tar",
    "cargo test --manifest-path ../x/Cargo.toml",
  ]) {
    it(`asks for ${JSON.stringify(line)}, saying which word`, () => {
      const said = judgeCommand(line, rules, "linux");
      assert.equal(said.verdict, "ask");
      assert.match(
        said.verdict === "ask" ? said.why : "",
        /can make \w+ run another program or read other settings/,
      );
    });
  }

  it("still allows a program's own options that only look like a risky one's start", () => {
    for (const line of [
      "git diff --text",
      "git diff --stat",
      "git log --oneline --no-ext-diff --no-textconv",
      "git log --remotes",
      "git push -u origin main",
      "git fetch -u origin",
      "git log -c",
      "npm test -- --script-shell=x",
      "npm test --silent",
      "make -j4 test",
      "sort -n a",
      "tar -tzf a.tar",
    ]) {
      assert.equal(verdictOf(line, rules), "allowed", line);
    }
  });
});

describe("command rules: a * covers further words only of a program Tandem knows", () => {
  const rules = allow(
    "find *",
    "sed *",
    "awk *",
    "sort *",
    "tar *",
    "zip *",
    "docker *",
    "python *",
    "node *",
  );
  for (const line of [
    "find . -maxdepth 0 -exec ./x ';'",
    "find . -execdir ./x ';'",
    "find . -ok ./x ';'",
    "find . -delete",
    "find . -fprint /tmp/x",
    'sed "1e ./x" a',
    "sed s/a/b/e a",
    "sed s/a/b/w/tmp/x a",
    "sed -n w/tmp/x a",
    "sed -i s/a/b/ a",
    "sed --in-pl s/a/b/ a",
    "sed -f script.sed a",
    "awk 'system(\"./x\")' a",
    "awk '\"./x\" | getline' a",
    "sort --compress-program=./x a",
    "sort -o /tmp/x a",
    "tar --checkpoint=1 --checkpoint-action=exec=./x -cf a.tar b",
    "tar -I ./x -cf a.tar b",
    "tar --use-compress-program=./x -cf a.tar b",
    "tar cIf ./x a.tar b",
    "zip -TT ./x a.zip b",
    "zip --unzip-command=./x a.zip b",
    "python -c 'import os'",
    "node -e 'process.exit()'",
  ]) {
    it(`asks for ${JSON.stringify(line)}`, () => {
      assert.equal(verdictOf(line, rules), "ask", line);
    });
  }

  it("asks for a program it does not know, saying so, and allows its rule's exact words", () => {
    const said = judgeCommand("docker run -v /:/host x", rules, "linux");
    assert.deepEqual(said, {
      verdict: "ask",
      why: "No rule of yours allows `docker run -v /:/host x`. Tandem does not know the options of docker, so a `*` in a rule does not cover its words.",
      offer: ["docker run -v /:/host x"],
    });
    assert.equal(verdictOf("docker", rules), "allowed");
  });

  it("asks for the commands that run another command, whatever the rules", () => {
    for (const line of ["xargs ls", "env ls", "timeout 5 ls", "nice ls", "npx x"])
      assert.equal(
        verdictOf(line, allow("xargs *", "env *", "timeout *", "nice *", "npx *", "ls *")),
        "ask",
        line,
      );
  });

  it("still allows their plain uses", () => {
    for (const line of [
      "find . -name x -type f",
      "sed -n 1,5p a",
      "sed s/a/b/g a",
      "sed -E s/a+/b/ a",
      "awk NR==1 a",
      "sort -u a",
      "tar -czf a.tar.gz b",
      "zip -r a.zip b",
      "python x.py",
    ])
      assert.equal(verdictOf(line, rules), "allowed", line);
  });

  it("reads sed scripts: commands that run or write, and those that do not", () => {
    for (const script of [
      "e",
      "1e ./x",
      "$e x",
      "s/a/b/e",
      "s|a|b|w x",
      "/x/w out",
      "1r /etc/passwd",
      "R x",
      "W x",
      "s/a",
    ])
      assert.ok(sedScriptRuns(script), script);
    for (const script of [
      "p",
      "1,5p",
      "s/a/b/g",
      "s/e/w/",
      "/e/d",
      "y/abc/xyz/",
      "$!N;P;D",
      "a text; e x",
      "10q",
    ])
      assert.ok(!sedScriptRuns(script), script);
  });
});

describe("command rules: a deny rule matches after global options, aliases and option forms", () => {
  it("refuses a denied subcommand behind the program's global options", () => {
    for (const line of [
      "git --no-pager push",
      "git -P push",
      "git -p push origin",
      "git -c x=y push",
      "git -C dir push",
      "git --git-dir=.git push",
      "git --work-tree . push",
      "git --no-optional-locks -c a=b -C x push --force",
      "sudo git -P push",
    ])
      assert.equal(deniedBy(line, ["git push"]), "git push", line);
  });

  it("refuses npm's aliases and abbreviations of a denied command, behind its options", () => {
    for (const line of [
      "npm pub",
      "npm publ",
      "npm publish",
      "npm --silent publish",
      "npm --loglevel silent publish",
    ])
      assert.equal(deniedBy(line, ["npm publish"]), "npm publish", line);
    for (const line of ["npm rm x", "npm r x", "npm un x", "npm remove x"])
      assert.equal(deniedBy(line, ["npm uninstall"]), "npm uninstall", line);
    assert.equal(deniedBy("npm run publish", ["npm publish"]), undefined);
    assert.equal(deniedBy("npm pack", ["npm publish"]), undefined);
  });

  it("finds a denied option anywhere after the subcommand, in any form", () => {
    for (const line of [
      "git reset --hard",
      "git reset --har",
      "git reset -q --hard HEAD~1",
      "git reset --hard=x",
    ])
      assert.equal(deniedBy(line, ["git reset --hard"]), "git reset --hard", line);
    for (const line of ["git push -f", "git push origin --force", "git push --forc origin"])
      assert.equal(deniedBy(line, ["git push --force"]), "git push --force", line);
    for (const line of ["rm -rf x", "rm -fr x", "rm -r -f x", "rm -Rf x", "rm --recursive --force x"])
      assert.equal(deniedBy(line, ["rm -rf"]), "rm -rf", line);
    assert.equal(deniedBy("git reset --soft", ["git reset --hard"]), undefined);
    assert.equal(deniedBy("git push --force-with-lease", ["git push --force"]), undefined);
    assert.equal(deniedBy("rm -r x", ["rm -rf"]), undefined);
    assert.equal(deniedBy("git log push", ["git push"]), undefined);
  });

  it("refuses the line with a whole sentence naming the rule and the part", () => {
    assert.deepEqual(
      judgeCommand("git status && git -P push", { allow: ["git *"], deny: ["git push"] }, "linux"),
      {
        verdict: "denied",
        rule: "git push",
        why: 'Your rule "git push" refuses this command (its part `git -P push`).',
      },
    );
  });
});

describe("command rules: options that read outside the workspace are asked", () => {
  for (const line of [
    "git diff --no-index /etc/passwd a",
    "git diff --no-ind /etc/passwd a",
    "git grep --no-index secret",
    "git blame --contents=/etc/passwd a",
    "git commit -F /etc/passwd",
    "git log --exclude-from=/etc/x",
  ]) {
    it(`asks for ${JSON.stringify(line)}`, () =>
      assert.equal(
        verdictOf(line, allow("git diff *", "git grep *", "git blame *", "git commit *", "git log *")),
        "ask",
      ));
  }
});

describe("command rules: on Windows a line is read as cmd.exe reads it", () => {
  const rules = allow("git diff *", "git status", "ls");
  it("asks for a ' that cmd.exe does not take for a quote, and for ; that joins nothing there", () => {
    for (const line of [
      "git diff 'x & calc.exe & '",
      "git diff 'a b'",
      "git status; ls",
      'git diff ""',
      "git diff x,--output=y",
    ]) {
      const said = judgeCommand(line, rules, "win32");
      assert.equal(said.verdict, "ask", line);
      assert.match(
        said.verdict === "ask" ? said.why : "",
        /On Windows, cmd\.exe and PowerShell read a line holding ', ;, a comma or "" differently/,
      );
    }
    // The same lines are plain for a POSIX shell.
    assert.equal(verdictOf("git diff 'x & calc.exe & '", rules, "linux"), "allowed");
  });

  it("allows what cmd.exe reads as the rules do: double quotes, && and |", () => {
    for (const line of ['git diff "a & b"', "git status && ls", "git diff x | ls"])
      assert.equal(verdictOf(line, rules, "win32"), "allowed", line);
    assert.ok("parts" in plainParts('git diff "a & b"', "win32"));
  });
});
