import assert from "node:assert/strict";
import { mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { says, scripted } from "../../../src/agent/scripted";
import { planFiles } from "../../../src/chat/panel";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { bench, hostOf, until, type Bench } from "./runner-fixture";
import { recordingHost } from "../../fixtures/view-host";

/** The panel's host with real plan files in FOLDER; what it opened and sent is kept. */
function planHost(folder: string): ViewHost & { opened: string[]; sent: HostMessage[] } {
  const opened: string[] = [];
  const sent: HostMessage[] = [];
  const host = recordingHost(sent, { plans: planFiles(folder, async (file) => void opened.push(file)) });
  return Object.assign(host, { opened, sent });
}

describe("Plan mode in the panel's host half", () => {
  let b: Bench | undefined;
  let folder = "";
  beforeEach(async () => (folder = await mkdtemp(join(tmpdir(), "tandem-plans-"))));
  afterEach(async () => {
    await b?.end();
    b = undefined;
    await rm(folder, { recursive: true, force: true });
  });

  it("a new chat started in Plan keeps it; the switch puts it out and back", async () => {
    const model = scripted([says("# Plan\n\n1. One"), says("Title")]);
    b = await bench(hostOf({ default: model }));
    const view = new PanelView(b.store, b.runner, planHost(folder));
    await view.receive({
      type: "send",
      chat: "",
      text: "Plan it",
      files: [],
      model: "",
      assistant: "",
      mode: "plan",
    });
    const chat = b.store.conversations()[0].id;
    assert.equal(b.store.get("conversations", chat)?.mode, "plan");
    await view.receive({ type: "mode", chat, mode: "act" });
    assert.equal(b.store.get("conversations", chat)?.mode, undefined);
    assert.ok(!("mode" in b.store.get("conversations", chat)!));
    await view.receive({ type: "mode", chat, mode: "plan" });
    assert.equal(b.store.get("conversations", chat)?.mode, "plan");
  });

  it("Edit plan writes it to a file in storage and opens it; Act sends the file as saved, out of Plan", async () => {
    const model = scripted([says("# Plan\n\n1. Rename a"), says("Title"), says("Acting.")]);
    b = await bench(hostOf({ default: model }));
    const host = planHost(folder);
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({
      type: "send",
      chat: "",
      text: "Plan it",
      files: [],
      model: "",
      assistant: "",
      mode: "plan",
    });
    const chat = b.store.conversations()[0].id;
    const answerText = () => b!.store.items(chat).find((i) => i.kind === "text" && i.done);
    await until(() => answerText() !== undefined, "the plan answer");
    const plan = answerText()!;

    await view.receive({ type: "editPlan", item: plan.id });
    assert.equal(host.opened.length, 1);
    assert.ok(host.opened[0].startsWith(folder), host.opened[0]);
    assert.equal(await readFile(host.opened[0], "utf8"), "# Plan\n\n1. Rename a");
    // The person edits and saves; opened again, the edit is kept.
    await writeFile(host.opened[0], "# Plan\n\n1. Rename a\n2. Test it");
    await view.receive({ type: "editPlan", item: plan.id });
    assert.equal(await readFile(host.opened[1], "utf8"), "# Plan\n\n1. Rename a\n2. Test it");

    await view.receive({ type: "act", item: plan.id });
    assert.equal(b.store.get("conversations", chat)?.mode, undefined);
    const act = b.store.items(chat).filter((i) => i.kind === "user")[1];
    assert.equal(act.text, "Act on this plan:\n\n# Plan\n\n1. Rename a\n2. Test it");
    await until(() => model.requests.length === 3, "the acting answer");
    const last = model.requests[2].messages.at(-1);
    assert.match(
      last && "text" in last ? last.text : "",
      /^Act on this plan:\n\n# Plan\n\n1\. Rename a\n2\. Test it$/,
    );
  });

  it("Act on an item that is no plan says why and sends nothing", async () => {
    b = await bench(hostOf({ default: scripted([]) }));
    const host = planHost(folder);
    const view = new PanelView(b.store, b.runner, host);
    await view.receive({ type: "act", item: "nope" });
    assert.deepEqual(
      host.sent.filter((m) => m.type === "notice").map((m) => (m as { text: string }).text),
      ["That answer is not a finished plan."],
    );
    assert.equal(b.store.conversations().length, 0);
  });
});
