import assert from "node:assert/strict";
import { existsSync, readdirSync, readFileSync, readlinkSync, realpathSync } from "node:fs";
import { agent } from "../../../src/agent/agent";
import { run } from "../../../src/agent/run";
import { calls, says, scripted } from "../../../src/agent/scripted";
import type { Tool } from "../../../src/agent/types";
import { Jobs, readLines, spawnLine } from "../../../src/chat/workspace/background";
import type { Editor } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { folder } from "./fixtures";

/** An editor whose background commands are real processes (spawnLine, as VS Code's terminal uses). */
function spawning(): Editor {
  return {
    open: async () => undefined,
    propose: async () => ({ accepted: false }),
    create: async () => undefined,
    run: async () => ({ exitCode: 0, output: "" }),
    start: spawnLine,
  };
}

/** A command line running `node -e script`. */
const nodeLine = (script: string) => `"${process.execPath}" -e ${JSON.stringify(script)}`;

/** Prints `lines` numbered lines, then "ready", then waits until it is ended. */
const server = (lines: number) =>
  nodeLine(
    `for (let i = 1; i <= ${lines}; i++) console.log("line " + i); console.log("ready"); setInterval(() => {}, 1000);`,
  );

/**
 * True while the process group `pid` has a live process in it (a zombie, ended but not yet reaped
 * by an init that does not reap, counts as gone). Read from /proc where there is one.
 */
function alive(pid: number): boolean {
  if (existsSync("/proc/self/stat")) {
    return readdirSync("/proc")
      .filter((name) => /^\d+$/.test(name))
      .some((name) => {
        const stat = safeRead(`/proc/${name}/stat`);
        // The fields after the command's name (in parentheses): state, ppid, pgrp.
        const [state, , group] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(group) === pid && state !== "Z" && state !== "X";
      });
  }
  try {
    process.kill(process.platform === "win32" ? pid : -pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * The live processes working in `dir` (any a command started, in a sandbox or not, wherever its
 * process group is); none where there is no /proc to read.
 */
function workingIn(dir: string): number[] {
  if (!existsSync("/proc/self/cwd")) return [];
  const real = realpathSync(dir);
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .filter((name) => {
      try {
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const state = stat.slice(stat.lastIndexOf(")") + 2).split(" ")[0];
        return state !== "Z" && state !== "X" && readlinkSync(`/proc/${name}/cwd`) === real;
      } catch {
        return false; // It ended, or is not ours to read.
      }
    })
    .map(Number);
}

/** The text of a file, "" when it is gone (a process ended while it was read). */
function safeRead(path: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch {
    return "";
  }
}

/** The pid a run_command answer names. */
function pidIn(text: string): number {
  const found = /\(pid (\d+)\)/.exec(text);
  assert.ok(found, text);
  return Number(found[1]);
}

/** Resolves once `check` resolves true (asked again as each answer comes back), or fails after 15 s. */
async function eventually(check: () => Promise<boolean>, what: string): Promise<void> {
  const end = Date.now() + 15_000;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("background commands", () => {
  let ws: { path: string; remove: () => void };
  let tools: Tool[];
  const call = (name: string, input: unknown) =>
    tools.find((t) => t.name === name)!.run(JSON.stringify(input), new AbortController().signal);
  const ready = (id: number) =>
    eventually(
      async () => (await call("read_output", { id, lines: 1 })).endsWith("\nready"),
      `command ${id} to be ready`,
    );
  beforeEach(() => {
    ws = folder();
    tools = workspaceTools({ root: ws.path, editor: spawning(), trusted: true });
  });
  afterEach(async () => {
    for (const t of tools) t.close?.();
    ws.remove();
  });

  it("starts a command without waiting, reads its output by line range, and stops it: its process is gone", async () => {
    const started = await call("run_command", { command: server(500), background: true });
    assert.match(started, /^Background command 1 \(pid \d+\) is running: /);
    assert.match(started, /Its id is 1/);
    const pid = pidIn(started);
    assert.equal(alive(pid), true);
    await ready(1);
    const range = await call("read_output", { id: 1, fromLine: 100, lines: 3 });
    assert.match(range, /is running/);
    assert.match(
      range,
      /Lines 100–102 of 501:\nline 100\nline 101\nline 102\n\[… 399 more lines: read on from line 103\]$/,
    );
    const stopped = await call("stop_command", { id: 1 });
    assert.match(stopped, /^Background command 1 \(pid \d+\) was stopped: /);
    assert.match(stopped, /line 500\nready$/);
    assert.equal(alive(pid), false);
    assert.deepEqual(workingIn(ws.path), []);
    assert.match(await call("read_output", { id: 1 }), /was stopped/);
  });

  it("keeps output far beyond the old 8 KB window: the first line of 200 KB is still read", async () => {
    await call("run_command", { command: server(20_000), background: true });
    await ready(1);
    const first = await call("read_output", { id: 1, fromLine: 1, lines: 2 });
    assert.match(first, /Lines 1–2 of 20001:\nline 1\nline 2\n/);
    const last = await call("read_output", { id: 1, lines: 2 });
    assert.match(last, /Lines 20000–20001 of 20001:\nline 20000\nready$/);
  });

  it("lets the oldest lines go past the cap, and says so", async () => {
    const jobs = new Jobs(spawnLine, 1000);
    const job = jobs.start({ command: server(1000), cwd: ws.path, shown: "." });
    await eventually(async () => job.text.endsWith("ready\n"), "the command to be ready");
    assert.ok(job.text.length <= 1000);
    assert.ok(job.dropped > 800);
    const read = readLines(job, 1, 2);
    assert.match(
      read,
      new RegExp(`Lines 1–${job.dropped} were let go: only the last \\d+ characters are kept\\.`),
    );
    assert.match(
      read,
      new RegExp(`Lines ${job.dropped + 1}–${job.dropped + 2} of 1001:\nline ${job.dropped + 1}\n`),
    );
    await jobs.close();
    assert.equal(alive(job.running.pid!), false);
  });

  it("tells the end and exit code of a command that ends by itself", async () => {
    await call("run_command", { command: nodeLine('console.log("hi"); process.exit(3)'), background: true });
    await eventually(
      async () => /ended with exit code 3/.test(await call("read_output", { id: 1 })),
      "the end",
    );
    assert.match(await call("read_output", { id: 1 }), /Lines 1–1 of 1:\nhi$/);
  });

  it("names the ids there are when asked for another", async () => {
    await assert.rejects(
      call("read_output", { id: 7 }),
      /There is no background command 7 in this run \(ids: none\)/,
    );
  });

  it("ends every background command when the run that started it ends", async () => {
    const model = scripted([
      calls([["run_command", JSON.stringify({ command: server(3), background: true })]]),
      says("Started."),
    ]);
    const a = agent(model, "", tools);
    await run(a, "Start the server");
    const result = a.history.find((m) => m.role === "tool");
    assert.ok(result && result.role === "tool");
    const pid = pidIn(result.text);
    await eventually(async () => /was stopped/.test(await call("read_output", { id: 1 })), "the stop");
    assert.equal(alive(pid), false);
    // Nothing it started is left, inside a sandbox either (stopped as it started, before its ready).
    assert.deepEqual(workingIn(ws.path), []);
  });
});
