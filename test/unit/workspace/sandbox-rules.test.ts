import assert from "node:assert/strict";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type AddressInfo, type Server } from "node:net";
import type { Decision, Rules } from "../../../src/chat/approval/approval";
import { approveWith, judge, questionOf } from "../../../src/chat/approval/judge";
import { runCommandTool } from "../../../src/chat/workspace/command";
import type { Sandboxing } from "../../../src/chat/workspace/sandbox";
import { LINE, spawningEditor } from "../hostile/attacks-sandbox";
import { folder } from "./fixtures";

/** The person's rules: `allow`, and the allow rules that carry the network. */
function rulesOf(root: string, allow: string[], networked: string[] = [], sandbox?: Sandboxing): Rules {
  return {
    tools: "",
    approve: "",
    always: new Set(),
    trusted: true,
    root,
    sandbox,
    commands: { rules: () => ({ allow, deny: [] }), keep: async () => undefined, networked: () => networked },
  };
}

const input = JSON.stringify({ command: LINE });

describe("command rules and the sandbox", () => {
  let ws: { path: string; remove: () => void };
  let server: Server;
  let port = 0;
  beforeEach(async () => {
    ws = folder("tandem-sandbox-rules-");
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    writeFileSync(
      `${ws.path}/attack.js`,
      `require("net").connect(${port}, "127.0.0.1").on("connect", function () { console.log("connected"); this.end(); }).on("error", (e) => console.log("no connection: " + e.code));`,
    );
  });
  afterEach(() => {
    server.close();
    ws.remove();
  });

  /** Approves the line under `rules` with the person answering `answer`, then runs it if allowed: the tool's answer, or "not run". */
  async function approvedRun(rules: Rules, answer: Decision, localOnly = false): Promise<string> {
    const tool = runCommandTool({ root: ws.path }, spawningEditor(), undefined, undefined, localOnly);
    const allowed = { tools: new Set<string>(), hosts: new Set<string>() };
    const { yes } = await approveWith(tool, input, rules, allowed, async () => answer);
    return yes ? tool.run(input, new AbortController().signal) : "not run";
  }

  it("lets a rule allow a line only where commands run in a sandbox; elsewhere it asks, and says why in full once", async () => {
    const tool = runCommandTool({ root: ws.path }, spawningEditor());
    assert.equal((await judge(tool, input, rulesOf(ws.path, [LINE]))).verdict, "allowed");
    const none: Sandboxing = {
      kind: "none",
      why: "bubblewrap (bwrap) is not installed. Install bubblewrap to have it: sudo apt install bubblewrap.",
    };
    const first = await judge(tool, input, rulesOf(ws.path, [LINE], [], none));
    assert.equal(first.verdict, "ask");
    const text = questionOf("run_command", first).text;
    assert.match(
      text,
      /Commands cannot run in a sandbox on this machine, so your command rules do not apply and every command is asked: bubblewrap \(bwrap\) is not installed\. .*sudo apt install bubblewrap/,
    );
    assert.equal(questionOf("run_command", first).always, undefined);
    assert.equal(questionOf("run_command", first).network, undefined);
    const second = questionOf(
      "run_command",
      await judge(tool, input, rulesOf(ws.path, [LINE], [], none)),
    ).text;
    assert.doesNotMatch(second, /sudo apt install/);
    assert.match(
      second,
      /A rule allows this line, but rules apply only inside a sandbox, which this machine lacks\./,
    );
    const other = questionOf(
      "run_command",
      await judge(tool, JSON.stringify({ command: "make" }), rulesOf(ws.path, [LINE], [], none)),
    ).text;
    assert.doesNotMatch(other, /sandbox/);
  });

  it("offers 'Allow with Network' as its own choice: only it lets the command reach the network", async () => {
    const tool = runCommandTool({ root: ws.path }, spawningEditor());
    const q = questionOf("run_command", await judge(tool, input, rulesOf(ws.path, [])));
    assert.equal(q.network, "Allow with Network");
    const plain = await approvedRun(rulesOf(ws.path, []), true);
    assert.match(plain, /Sandboxed: workspace writable, no network\./);
    assert.match(plain, /no connection: ECONNREFUSED/);
    const networked = await approvedRun(rulesOf(ws.path, []), "network");
    assert.match(networked, /Sandboxed: workspace writable, network allowed\./);
    assert.match(networked, /\nconnected/);
    // The permit was for that one run: the next run of the line is without network again.
    assert.match(
      await runCommandTool({ root: ws.path }, spawningEditor()).run(input, new AbortController().signal),
      /no connection/,
    );
  });

  it("gives a network permit whose run never came to no later approval of the same line that gave none", async () => {
    const rules = rulesOf(ws.path, []);
    const tool = runCommandTool({ root: ws.path }, spawningEditor());
    const allowed = { tools: new Set<string>(), hosts: new Set<string>() };
    // "Allow with Network", then the answer stopped before the command ran.
    assert.equal((await approveWith(tool, input, rules, allowed, async () => "network")).yes, true);
    // The same line again, allowed without the network: it runs without it.
    const ran = await approvedRun(rules, true);
    assert.match(ran, /Sandboxed: workspace writable, no network\./);
    assert.match(ran, /no connection: ECONNREFUSED/);
    // And a rule that allows the line but carries no network clears a permit left before it.
    assert.equal((await approveWith(tool, input, rules, allowed, async () => "network")).yes, true);
    const byRule = await approvedRun(rulesOf(ws.path, [LINE]), true);
    assert.match(byRule, /no connection: ECONNREFUSED/);
  });

  it("under tandem.localOnly, even 'Allow with Network' leaves the command without network", async () => {
    const ran = await approvedRun(rulesOf(ws.path, []), "network", true);
    assert.match(ran, /Sandboxed: workspace writable, no network\./);
    assert.match(ran, /no connection: ECONNREFUSED/);
  });

  it("tells the model, when a sandboxed command fails on a read-only place, to ask the person to run it", async () => {
    mkdirSync(join(ws.path, "node_modules"));
    const tool = runCommandTool({ root: ws.path }, spawningEditor());
    const line = JSON.stringify({ command: "touch node_modules/x" });
    const said = await tool.run(line, new AbortController().signal);
    assert.match(said, /Read-only file system/);
    assert.match(said, /ask the person to run it in their own terminal/);
    assert.ok(!existsSync(join(ws.path, "node_modules/x")));
    // A command that writes its workspace gets no such note.
    const fine = await tool.run(JSON.stringify({ command: "touch made.txt" }), new AbortController().signal);
    assert.doesNotMatch(fine, /own terminal/);
  });

  it("lets a rule that carries the network reach it, and a rule without it not", async () => {
    assert.match(await approvedRun(rulesOf(ws.path, [LINE]), false), /no connection: ECONNREFUSED/);
    assert.match(
      await approvedRun(rulesOf(ws.path, [LINE], [LINE]), false),
      /network allowed\.[\s\S]*\nconnected/,
    );
  });
});
