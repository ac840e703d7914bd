import assert from "node:assert/strict";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer } from "../../fixtures/openai-server";
import { fixtureEndpoint } from "./endpoint";
import { panelSend } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;
const workspace = () => process.env.TANDEM_WORKSPACE!;

/** A dev server: says it is ready, leaves its pid in a file, then runs until it is ended. */
const SERVE = `console.log("ready on 4321"); require("fs").writeFileSync("serve.pid", String(process.pid)); setInterval(() => {}, 1000);\n`;
/** Waits until the server has started (its pid file is there), then ends. */
const WAIT = `const t = setInterval(() => { if (require("fs").existsSync("serve.pid")) { clearInterval(t); console.log("started"); } }, 20);\n`;

/** True while the process `pid` runs (a zombie nobody reaped counts as ended). */
function running(pid: number): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return process.platform !== "linux";
  }
}

describe("background commands in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("fixture", "fixture-model", { asDefault: true });
    writeFileSync(join(workspace(), "serve.js"), SERVE);
    writeFileSync(join(workspace(), "wait.js"), WAIT);
    await vscode.commands.executeCommand("tandem.chatView.focus");
  });

  after(async () => {
    await vscode.workspace
      .getConfiguration("tandem")
      .update("commands", undefined, vscode.ConfigurationTarget.Global);
    for (const name of ["serve.js", "wait.js", "serve.pid"]) rmSync(join(workspace(), name), { force: true });
    await server.close();
  });

  it("starts a dev server in the background, reads its output and stops it, each line allowed by the person's rules", async () => {
    // The person's own rules: these two lines run without asking (nobody answers a question here).
    await vscode.workspace
      .getConfiguration("tandem")
      .update(
        "commands",
        { allow: ["node serve.js", "node wait.js"], deny: [] },
        vscode.ConfigurationTarget.Global,
      );
    const tool = (id: string, name: string, input: unknown): [string, string, string] => [
      id,
      name,
      JSON.stringify(input),
    ];
    server.script(
      calling([tool("call_1", "run_command", { command: "node serve.js", background: true })]),
      calling([tool("call_2", "run_command", { command: "node wait.js" })]),
      calling([tool("call_3", "read_output", { id: 1 })]),
      calling([tool("call_4", "stop_command", { id: 1 })]),
      answer("The server started and is stopped."),
      answer("Server check"),
    );
    const { store } = await api().conversations();
    // A conversation of its own: the calls of earlier tests' conversations are not this test's.
    await vscode.commands.executeCommand("tandem.newChat");
    const prompt = "Start the dev server, check it, stop it";
    await panelSend(prompt);
    const chat = await until(
      () => store.rows("items").find((i) => i.kind === "user" && i.text === prompt)?.chat,
      30_000,
      "the message to be stored",
    );
    const callNamed = (name: string, n = 0) =>
      store.items(chat).filter((i) => i.kind === "call" && i.name === name)[n];
    const stopped = await until(
      () => (callNamed("stop_command")?.state === "done" ? callNamed("stop_command") : undefined),
      45_000,
      "the background command to be stopped",
    );
    const started = callNamed("run_command");
    assert.equal(started.state, "done");
    assert.match(started.output, /^Background command 1 \(pid \d+\) is running: node serve\.js/);
    assert.equal(callNamed("run_command", 1).state, "done");
    const read = callNamed("read_output");
    assert.match(read.output, /Background command 1 \(pid \d+\) is running/);
    assert.match(read.output, /ready on 4321/);
    assert.match(stopped.output, /Background command 1 \(pid \d+\) was stopped/);
    // Nobody was asked: every call ran by the person's rules or as a read.
    assert.ok(store.items(chat).every((i) => i.kind !== "call" || i.state === "done"));
    // The pid the answer names is the sandbox's (bubblewrap's): its end ends every process inside.
    const pid = Number(/\(pid (\d+)\)/.exec(started.output)?.[1]);
    assert.equal(running(pid), false, `the server (pid ${pid}) still runs`);
    assert.match(started.output, /Sandboxed: workspace writable, no network\./);
  });
});
