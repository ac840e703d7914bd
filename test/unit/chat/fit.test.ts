import assert from "node:assert/strict";
import { answer, calling } from "../../fixtures/openai-server";
import { panelRequest } from "../../fixtures/panel-budget";
import { panelWorkspace, pluginTools, vscodeTools } from "../../fixtures/panel-tools";
import { fit, openedBy, type FixedParts } from "../../../src/chat/runner/fit";

/** The goal for the fixed part on each window: ≤ 700 tokens at 2k, else ≤ a quarter of the window. */
const GOALS: [window: number, most: number][] = [
  [2048, 700],
  [4096, 1024],
  [8192, 2048],
  [32768, 8192],
];

const VSCODE = vscodeTools().map((t) => t.name);
const PLUGINS = pluginTools().map((t) => t.name);

describe("chat: the fixed part of the panel's requests fits the model's window", () => {
  for (const [window, most] of GOALS) {
    it(`answers "hi" on a ${window}-token model with the panel's whole tool set, the fixed part ≤ ${most} tokens`, async () => {
      const m = await panelRequest(window);
      assert.equal(m.said, "Hello.", "the answer came, no error");
      // The first request answers; a second, if any, names the conversation.
      assert.ok(m.requests.length >= 1);
      assert.ok(m.fixed <= most, `the fixed part took ${m.fixed} tokens of ${window}`);
      // The core tools are always there; the meter shows what the request carried.
      for (const name of [
        "read_file",
        "list_files",
        "search_text",
        "propose_edit",
        "create_file",
        "run_command",
      ])
        assert.ok(m.names[0].includes(name), `${name} is offered`);
      assert.equal(m.meter, m.fixed, "the meter's fixed part is the request's");
    });
  }

  it("cuts the project's instructions on a small window with a note saying how to read the rest", async () => {
    const m = await panelRequest(2048);
    const messages = m.requests[0].body.messages as { role: string; content: string }[];
    const system = messages[0].content;
    assert.match(system, /AGENTS\.md/);
    assert.match(system, /to fit the model's window: read (it|them|the rest) with read_file/);
    assert.ok(!system.includes("Rule 26:"), "the end of AGENTS.md is not given");
    const large = await panelRequest(32768);
    const whole = (large.requests[0].body.messages as { content: string }[])[0].content;
    assert.match(whole, /Rule 2[0-9]:/, "on a large window AGENTS.md is given whole");
  });

  it("never sends VS Code's or the plugins' tools by default, on any window", async () => {
    for (const window of [4096, 32768]) {
      const m = await panelRequest(window);
      const sent = m.names[0];
      assert.deepEqual(
        sent.filter((n) => VSCODE.includes(n) || PLUGINS.includes(n)),
        [],
        `on ${window}: ${sent.join(", ")}`,
      );
      assert.ok(sent.includes("open_tools"), "they are offered on demand");
      const opener = (m.requests[0].body.tools as { function: { name: string; description: string } }[]).find(
        (t) => t.function.name === "open_tools",
      );
      assert.match(opener?.function.description ?? "", /vscode\b.*run_in_terminal/);
      assert.match(opener?.function.description ?? "", /plugins\b.*docs_search, docs_page/);
    }
  });

  it("sends the ones the person chose with every request", async () => {
    const m = await panelRequest(32768, { host: { chosenTools: () => "copilot_getErrors,docs_*" } });
    const sent = m.names[0];
    assert.ok(sent.includes("copilot_getErrors"));
    assert.ok(sent.includes("docs_search") && sent.includes("docs_page"));
    assert.ok(!sent.includes("run_in_terminal"), "the others stay unsent");
  });

  it("gives the model a group it opens from its next request on", async () => {
    const m = await panelRequest(4096, {
      prompt: "what changed?",
      replies: [calling([["c1", "open_tools", '{"name":"git"}']]), answer("Nothing changed.")],
    });
    assert.equal(m.said, "Nothing changed.");
    // The second request answers; a third, if any, names the conversation.
    assert.ok(m.requests.length >= 2);
    assert.ok(!m.names[0].includes("git_diff"), "git_diff is not sent at first");
    assert.ok(m.names[1].includes("git_diff"), "the opened group's tool joins the next request");
    const result = (m.requests[1].body.messages as { role: string; content: string }[]).find(
      (x) => x.role === "tool",
    );
    assert.match(result?.content ?? "", /^Opened: git_diff\. You can call them from your next step\./);
  });

  it("keeps the tools the model opened for the conversation's later messages, only those that had room", () => {
    const parts: FixedParts = {
      instructions: { full: "Help.", short: "Help." },
      project: [],
      memories: [],
      plan: "",
      tools: panelWorkspace().tools,
      chosen: "",
      opened: [],
      window: 4096,
    };
    const names = (p: FixedParts) => fit(p).tools.map((t) => t.name);
    assert.ok(!names(parts).includes("copilot_getErrors"), "VS Code's tool is not sent before it is opened");
    const opened = openedBy([
      {
        name: "open_tools",
        output:
          "Opened: git_diff, copilot_getErrors. You can call them from your next step.\nNo room in the model's window for: runTests.",
      },
      { name: "read_file", output: "Opened: read_output. You can call them" },
    ]);
    assert.deepEqual(opened, ["git_diff", "copilot_getErrors"]);
    const later = names({ ...parts, opened });
    assert.ok(later.includes("git_diff") && later.includes("copilot_getErrors"), later.join(", "));
    assert.ok(!later.includes("runTests"), "a tool that had no room stays closed");
  });

  it("opens VS Code's tools only as far as the window has room, and names the rest", async () => {
    const m = await panelRequest(4096, {
      replies: [calling([["c1", "open_tools", '{"name":"vscode"}']]), answer("Done.")],
    });
    const result = (m.requests[1].body.messages as { role: string; content: string }[]).find(
      (x) => x.role === "tool",
    );
    assert.match(result?.content ?? "", /No room in the model's window for: .*copilot_getVSCodeAPI/);
    const opened = m.names[1].filter((n) => VSCODE.includes(n));
    assert.ok(opened.length > 0 && opened.length < VSCODE.length, `${opened.length} opened`);
  });

  it("says what takes the room, with figures, when the message itself cannot fit", async () => {
    const m = await panelRequest(2048, { prompt: `Summarise this: ${"word ".repeat(2000)}` });
    assert.equal(m.requests.length, 0, "nothing the server would refuse was sent");
    assert.match(
      m.said,
      /^This request does not fit the model's 2048-token window: the instructions take \d+ tokens, \d+ tools \d+, attachments 0, the message and its tool outputs \d+, earlier turns 0\. Send a shorter message or start a new conversation, or choose a model with a larger window\.$/,
    );
    const message = Number(/the message and its tool outputs (\d+)/.exec(m.said)?.[1]);
    assert.ok(message > 2500 && message < 2700, `the message counted ${message}`);
  });
});
