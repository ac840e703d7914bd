import assert from "node:assert/strict";
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from "node:fs";
import { join } from "node:path";
import { spawnLine } from "../../../src/chat/workspace/background";
import { decide, jailFor, probeBwrap, sandboxing, type Jail } from "../../../src/chat/workspace/sandbox";
import { protectedWithin } from "../../../src/chat/workspace/sandbox-protect";
import { outsideFolder } from "../hostile/attacks-sandbox";
import { folder, write } from "./fixtures";

/** Resolves once `check` is true, or fails after 5 s. */
async function until(check: () => boolean, what: string): Promise<void> {
  for (const end = Date.now() + 5000; !check(); await new Promise((r) => setTimeout(r, 20)))
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
}

/** Runs `command` in `cwd` under `jail` and answers its exit code and output. */
function ran(command: string, cwd: string, jail: Jail): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    let output = "";
    spawnLine(
      { command, cwd, shown: ".", jail },
      { output: (text) => void (output += text), exit: (code) => resolve({ code, output }) },
    );
  });
}

describe("the sandbox (real bubblewrap)", () => {
  let ws: { path: string; remove: () => void };
  let home: string;
  beforeEach(() => {
    ws = folder("tandem-sandbox-");
    home = outsideFolder("tandem-home-");
  });
  afterEach(() => {
    ws.remove();
    rmSync(home, { recursive: true, force: true });
  });
  const jail = async (network = false) =>
    jailFor(await sandboxing(), { root: ws.path, cwd: ws.path, network, homes: [home] });

  it("is bubblewrap on this machine: it passed its self-test", async () => {
    assert.equal(process.platform, "linux", "the sandbox tests run on Linux");
    const s = await sandboxing();
    assert.equal(s.kind, "bwrap", s.kind === "none" ? s.why : "");
  });

  it("says how to install bubblewrap when it is missing, and why when it fails its self-test", async () => {
    const missing = await probeBwrap(undefined);
    assert.equal(missing.kind, "none");
    assert.match(
      missing.kind === "none" ? missing.why : "",
      /not installed.*sudo apt install bubblewrap.*sudo dnf install bubblewrap.*sudo pacman -S bubblewrap/,
    );
    const failing = await probeBwrap("/bin/false");
    assert.match(
      failing.kind === "none" ? failing.why : "",
      /^bubblewrap \(\/bin\/false\) failed its self-test: exit code 1/,
    );
    const windows = await decide("win32");
    assert.match(windows.kind === "none" ? windows.why : "", /no sandbox for commands on win32/);
  });

  it("lets the command write its workspace and says how it ran, with the command's own exit code", async () => {
    const j = await jail();
    assert.equal(j.how, "sandboxed: workspace writable, no network");
    const { code } = await ran(
      "echo made > made.txt && mkdir -p src/deep && echo x > src/deep/y && exit 3",
      ws.path,
      j,
    );
    assert.equal(code, 3);
    assert.equal(readFileSync(join(ws.path, "made.txt"), "utf8"), "made\n");
    assert.equal(readFileSync(join(ws.path, "src/deep/y"), "utf8"), "x\n");
  });

  it("holds a missing .git and .vscode while commands run, and leaves the workspace as it was once the last ends", async () => {
    const made = () => [".git", ".vscode"].filter((name) => existsSync(join(ws.path, name)));
    const first = await jail();
    const second = await jail();
    assert.deepEqual(made(), [".git", ".vscode"], "held while the commands run");
    const one = await ran(
      "git init -q . ; mkdir -p .vscode/x ; echo {} > .vscode/settings.json",
      ws.path,
      first,
    );
    assert.match(one.output, /Read-only file system/);
    // The second command still holds them after the first ended: it cannot make them either.
    assert.deepEqual(made(), [".git", ".vscode"]);
    assert.deepEqual(readdirSync(join(ws.path, ".git")), []);
    const two = await ran("mkdir .git/hooks || rmdir .vscode || true", ws.path, second);
    assert.match(two.output, /Read-only file system|busy/);
    await until(() => made().length === 0, "the placeholders to go");
    // A folder that has them keeps them as they are.
    mkdirSync(join(ws.path, ".vscode"));
    writeFileSync(join(ws.path, ".vscode", "settings.json"), "{}");
    await ran("true", ws.path, await jail());
    assert.equal(readFileSync(join(ws.path, ".vscode", "settings.json"), "utf8"), "{}");
    assert.deepEqual(made(), [".vscode"]);
  });

  it("gives it a /tmp of its own: the host's /tmp is not seen, and what it writes there is gone", async () => {
    const marker = `tandem-host-tmp-${process.pid}-${Date.now()}`;
    writeFileSync(join("/tmp", marker), "host");
    try {
      const { output } = await ran(
        `ls /tmp; echo inside > /tmp/${marker}-inside; cat /tmp/${marker}-inside`,
        ws.path,
        await jail(),
      );
      assert.doesNotMatch(output, new RegExp(`${marker}\\n`));
      assert.match(output, /inside/);
      assert.throws(() => readFileSync(join("/tmp", `${marker}-inside`)));
    } finally {
      rmSync(join("/tmp", marker), { force: true });
    }
  });

  it("gives it a process tree of its own: /proc holds only its processes, not the host's", async () => {
    const { output } = await ran(
      "ls /proc | grep -E '^[0-9]+$' | wc -l; test -e /proc/" + process.pid + " && echo host-visible",
      ws.path,
      await jail(),
    );
    assert.ok(Number(output.trim().split("\n")[0]) < 10, output);
    assert.doesNotMatch(output, /host-visible/);
  });

  it("hides the person's secrets that exist: ~/.ssh empty, ~/.npmrc empty, ~/.aws gone from view, a linked ~/.netrc empty", async () => {
    write(home, {
      ".ssh/id_rsa": "KEY",
      ".npmrc": "//registry.npmjs.org/:_authToken=npm_secret",
      ".aws/credentials": "AKIA",
      "dotfiles/netrc": "machine x login a password b",
      "notes.txt": "plain",
    });
    symlinkSync(join(home, "dotfiles/netrc"), join(home, ".netrc"));
    const { output } = await ran(
      `ls -A ${home}/.ssh | wc -l; cat ${home}/.npmrc; ls -A ${home}/.aws | wc -l; cat ${home}/.netrc; cat ${home}/notes.txt`,
      ws.path,
      await jail(),
    );
    assert.equal(output, "0\n0\nplain");
  });

  it("keeps the home's start-up files read-only when the workspace is the home itself", async () => {
    write(home, { ".bashrc": "# mine\n", "project/a.txt": "a" });
    const j = await jailFor(await sandboxing(), { root: home, cwd: home, network: false, homes: [home] });
    const { output } = await ran("echo evil >> .bashrc; echo b > project/a.txt; echo done", home, j);
    assert.match(output, /Read-only file system/);
    assert.equal(readFileSync(join(home, ".bashrc"), "utf8"), "# mine\n");
    assert.equal(readFileSync(join(home, "project/a.txt"), "utf8"), "b\n");
  });
});

describe("the protected places the sandbox keeps read-only", () => {
  let ws: { path: string; remove: () => void };
  beforeEach(() => (ws = folder("tandem-protect-")));
  afterEach(() => ws.remove());

  it("finds .git, .vscode, node_modules, package-manager files, a virtual environment's bin, every git layout, and where .git files and protected links point", async () => {
    write(ws.path, {
      ".git/config": "",
      ".vscode/settings.json": "{}",
      "node_modules/x/index.js": "",
      "node_modules/x/node_modules/y/index.js": "",
      "sub/.npmrc": "",
      "venv/bin/python": "",
      "venv/readme.txt": "",
      "src/a.ts": "",
      "vendor/cache/HEAD": "ref: refs/heads/main\n",
      "vendor/cache/config": "",
      "vendor/cache/objects/.keep": "",
      "vendor/cache/refs/.keep": "",
      "wt/.git": "gitdir: ../repos/wt\n",
      "repos/wt/index": "",
      "notes.txt": "",
    });
    symlinkSync("notes.txt", join(ws.path, ".envrc"));
    const found = await protectedWithin(ws.path);
    const rel = found.paths.map((p) => p.slice(ws.path.length + 1)).sort();
    assert.deepEqual(rel, [
      ".git",
      ".vscode",
      "node_modules",
      "notes.txt",
      "repos/wt",
      "sub/.npmrc",
      "vendor/cache",
      "venv/bin",
      "wt/.git",
    ]);
    assert.equal(found.partial, false);
  });

  it("takes a git directory's own parts when the workspace folder itself is one", async () => {
    write(ws.path, {
      HEAD: "ref: refs/heads/main\n",
      config: "",
      "objects/.keep": "",
      "refs/.keep": "",
      "hooks/x": "",
      "src/a.c": "",
    });
    const rel = (await protectedWithin(ws.path)).paths.map((p) => p.slice(ws.path.length + 1)).sort();
    assert.deepEqual(rel, ["HEAD", "config", "hooks", "objects", "refs"]);
  });

  it("says when it stopped walking before the end", async () => {
    for (let i = 0; i < 5; i++) mkdirSync(join(ws.path, `d${i}`, "e"), { recursive: true });
    assert.equal((await protectedWithin(ws.path, 3)).partial, true);
    assert.equal((await protectedWithin(ws.path)).partial, false);
  });
});
