import assert from "node:assert/strict";
import { readFileSync } from "node:fs";
import { rmSync } from "node:fs";
import { join } from "node:path";
import { agent } from "../../../src/agent/agent";
import { run } from "../../../src/agent/run";
import { calls, says, scripted, type Script, type ScriptedModel } from "../../../src/agent/scripted";
import type { FunctionTool, Piece, Request } from "../../../src/agent/types";
import { allowanceOf } from "../../../src/chat/approval/judge";
import { asked } from "../../../src/chat/make";
import { openedAfter, prepareChatViewRun, type RunSource } from "../../../src/chat/runner/prepare";
import { Delegates } from "../../../src/chat/runner/delegate";
import { panelWorkspace, vscodeTools } from "../../fixtures/panel-tools";
import { bench, type Bench } from "./runner-fixture";

/** A scripted model of `window` tokens, as a server that says its window. */
function windowed(turns: Script[], window: number): ScriptedModel {
  const model = scripted(turns);
  return Object.assign(model, { window: async () => window });
}

/** What a request carries every time: its instructions and its tools, as the model reads them. */
interface Fixed {
  instructions: string;
  tools: FunctionTool[];
}

const fixedOf = (request: Request): Fixed => ({ instructions: request.instructions, tools: request.tools });
const namesOf = (tools: readonly FunctionTool[]): string[] => tools.map((t) => t.function.name);

/** The first request the panel's runner sends to answer "hi", over `source`. */
async function panelFixed(source: RunSource, window: number, benches: Bench[]): Promise<Fixed> {
  const model = windowed([says("Hello."), says("Greeting")], window);
  const b = await bench({ ...source, model: () => model });
  benches.push(b);
  await b.send(asked("hi", b.chat()));
  return fixedOf(model.requests[0]);
}

/** The first request `@tandem`'s path sends to answer "hi", over `source` (and what it opened earlier). */
async function chatViewFixed(
  source: RunSource,
  window: number,
  opened: string[] = [],
  mode?: "plan",
): Promise<Fixed> {
  const model = windowed([says("Hello.")], window);
  const a = agent(model);
  await prepareChatViewRun(a, source, {
    inPlay: [],
    opened,
    said: ["hi"],
    allowed: allowanceOf(undefined),
    ask: async () => undefined,
    failed: () => undefined,
    mode,
    // As @tandem makes its delegate (src/vscode/chat-subagents.ts): the same tool over the run's reading tools.
    delegate: (reading) =>
      new Delegates({ model: () => model, tools: reading, limits: { rounds: 0, maxTokens: 0, maxMs: 0 } })
        .tool,
  });
  await run(a, "hi", { each: () => undefined });
  return fixedOf(model.requests[0]);
}

/** The chat tools the panel's runs have besides the editor's (they keep what they write in the store; remember writes, so an untrusted workspace has no remember). */
const CHAT_TOOLS = ["remember", "update_plan"];

describe("one way to start a run: the panel's runner and @tandem prepare the same run", () => {
  const benches: Bench[] = [];
  let workspace: ReturnType<typeof panelWorkspace>;
  const NOW = Date.UTC(2026, 2, 14);
  /** The editor the runs are prepared from, as VS Code fills it for both faces. */
  const sourceOf = (over: Partial<RunSource> = {}): RunSource => ({
    tools: () => workspace.tools,
    roots: () => [workspace.root],
    root: () => workspace.root,
    trusted: () => true,
    chosenTools: () => "",
    approvals: () => ({}),
    now: () => NOW,
    ...over,
  });

  beforeEach(() => {
    workspace = panelWorkspace();
  });
  afterEach(async () => {
    for (const b of benches.splice(0)) await b.end();
    rmSync(workspace.root, { recursive: true, force: true });
  });

  /** Both faces' first request over `source`: the same instructions, and the same tools but the panel's chat tools. */
  async function same(source: RunSource, window = 128_000): Promise<Fixed> {
    const panel = await panelFixed(source, window, benches);
    const chatView = await chatViewFixed(source, window);
    assert.equal(chatView.instructions, panel.instructions);
    const panelOnly = namesOf(panel.tools).filter((name) => !namesOf(chatView.tools).includes(name));
    assert.ok(
      panelOnly.includes("update_plan") && panelOnly.every((name) => CHAT_TOOLS.includes(name)),
      `the panel has only its chat tools besides the same tools: ${panelOnly.join(", ")}`,
    );
    assert.deepEqual(
      chatView.tools,
      panel.tools.filter((t) => !CHAT_TOOLS.includes(t.function.name)),
      "the same tools, in the same order and form",
    );
    return chatView;
  }

  it("gives the same instructions (the date, the project's AGENTS.md) and the same tools", async () => {
    const fixed = await same(sourceOf());
    assert.match(fixed.instructions, /^You are Tandem, .*\n\nToday is 2026-03-14\./);
    assert.match(fixed.instructions, /Project instructions from AGENTS\.md/);
    assert.ok(namesOf(fixed.tools).includes("create_file"), namesOf(fixed.tools).join(", "));
    // VS Code's tools the person did not choose wait behind open_tools, in both.
    assert.ok(namesOf(fixed.tools).includes("open_tools"));
    assert.ok(!namesOf(fixed.tools).includes(vscodeTools()[0].name));
  });

  it("follows a change of the workspace's trust in both: no tool that writes or runs", async () => {
    const fixed = await same(sourceOf({ trusted: () => false }));
    for (const name of ["create_file", "propose_edit", "run_command"])
      assert.ok(!namesOf(fixed.tools).includes(name), `${name} is offered untrusted`);
    assert.ok(namesOf(fixed.tools).includes("read_file"));
  });

  it("follows the person's chosen tools in both: the VS Code tool chosen is sent", async () => {
    const chosen = vscodeTools()[0].name;
    const fixed = await same(sourceOf({ chosenTools: () => chosen }));
    assert.ok(namesOf(fixed.tools).includes(chosen), namesOf(fixed.tools).join(", "));
  });

  it("offers @tandem /plan only the tools that read, and tells it to end with a plan", async () => {
    const fixed = await chatViewFixed(sourceOf(), 128_000, [], "plan");
    const names = namesOf(fixed.tools);
    for (const name of ["create_file", "propose_edit", "run_command"])
      assert.ok(!names.includes(name), `${name} is offered in Plan mode`);
    assert.ok(names.includes("read_file") && names.includes("delegate"), names.join(", "));
    assert.match(
      fixed.instructions,
      /You are in Plan mode: investigate with the tools that read, change nothing/,
    );
    // Out of Plan mode, the same request offers them again.
    assert.ok(namesOf((await chatViewFixed(sourceOf(), 128_000)).tools).includes("create_file"));
  });

  it("follows a project without instructions in both", async () => {
    rmSync(join(workspace.root, "AGENTS.md"));
    const fixed = await same(sourceOf());
    assert.doesNotMatch(fixed.instructions, /Project instructions/);
  });

  it("gives the shortest instructions on a small window in both", async () => {
    const panel = await panelFixed(sourceOf(), 2048, benches);
    const chatView = await chatViewFixed(sourceOf(), 2048);
    assert.equal(chatView.instructions.split("\n")[0], panel.instructions.split("\n")[0]);
    assert.match(
      chatView.instructions,
      /^You are Tandem, a coding assistant in the person's editor\. Answer briefly/,
    );
  });

  it("leaves @tandem no assembly of its own: the participant starts its runs through prepare.ts", () => {
    const participant = readFileSync(join(__dirname, "../../../src/vscode/participant.ts"), "utf8");
    assert.match(participant, /core\(\)\.prepareChatViewRun\(/);
    // What prepare.ts assembles must not be assembled a second time beside it.
    for (const second of [
      /\bfit\(/,
      /\boffered\(/,
      /\bapproveWith\(/,
      /\bcheckpointBefore\(/,
      /\b(read|request)Instructions\(/,
      /: Rules\b/,
      /\.(instructions|tools|approve|rounds) = /,
      /You are Tandem/,
    ])
      assert.doesNotMatch(participant, second);
  });
});

describe("@tandem remembers the tool groups the model opened in earlier turns", () => {
  let workspace: ReturnType<typeof panelWorkspace>;
  beforeEach(() => {
    workspace = panelWorkspace();
  });
  afterEach(() => rmSync(workspace.root, { recursive: true, force: true }));

  const source = (): RunSource => ({
    tools: () => workspace.tools,
    roots: () => [workspace.root],
    root: () => workspace.root,
  });

  it("offers a group opened in turn 1 in turn 2, and keeps it for turn 3", async () => {
    const vscodeNames = vscodeTools().map((t) => t.name);
    // Turn 1: the model opens VS Code's tools and answers.
    const first = windowed(
      [calls([["open_tools", JSON.stringify({ name: "vscode" })]]), says("Opened.")],
      8192,
    );
    const a = agent(first);
    await prepareChatViewRun(a, source(), {
      inPlay: [],
      opened: [],
      said: ["open VS Code's tools"],
      allowed: allowanceOf(undefined),
      ask: async () => undefined,
      failed: () => undefined,
    });
    const results: { name: string; output: string }[] = [];
    await run(a, "open VS Code's tools", {
      each(piece: Piece) {
        if (piece.kind === "result") results.push({ name: piece.call.name, output: piece.text });
      },
    });
    assert.deepEqual(
      namesOf(first.requests[0].tools).filter((n) => vscodeNames.includes(n)),
      [],
    );
    // What the answer keeps in its result's metadata for the next turn.
    const kept = openedAfter([], results);
    assert.ok(kept.length > 0 && kept.every((name) => vscodeNames.includes(name)), kept.join(", "));
    // Turn 2: the group is offered from the first request on; without what was kept, it is not.
    const withKept = namesOf((await chatViewFixed(source(), 8192, kept)).tools);
    const without = namesOf((await chatViewFixed(source(), 8192, [])).tools);
    for (const name of kept) assert.ok(withKept.includes(name), `${name} in ${withKept.join(", ")}`);
    assert.deepEqual(
      without.filter((n) => vscodeNames.includes(n)),
      [],
    );
    // Turn 3: a turn that opened nothing keeps what the turns before it opened.
    assert.deepEqual(openedAfter(kept, []), kept);
  });
});
