import assert from "node:assert/strict";
import * as vscode from "vscode";
import { answer, calling, type FixtureServer, type Received, type Reply } from "../../fixtures/openai-server";
import type { Item } from "../../../src/chat/row-schemas";
import { fixtureEndpoint } from "./endpoint";
import { panelControl, panelSend, panelText } from "./person";
import { until } from "./wait";

interface Api {
  conversations(): Promise<{ store: import("../../../src/chat/store/store").Store }>;
  running(): Promise<string[]>;
}

const api = () => vscode.extensions.getExtension<Api>("tandem-dev.tandem")!.exports;

const FIRST = "Which node is this?";
const STEERED = "Say its major version too";
const SECOND = "Check it once more";
const QUEUED = "Then say both answers";

interface Message {
  role: string;
  content: unknown;
}

/** The text of a message (its content as text, or its parts as JSON). */
const textOf = (m: Message | undefined): string =>
  typeof m?.content === "string" ? m.content : JSON.stringify(m?.content ?? "");

/**
 * The model's replies: each question runs a command (which waits for the person's approval, so the
 * run goes on while the person types); a steered or queued message is answered.
 */
function reply(request: Received): Reply {
  if (!Array.isArray(request.body.tools)) return answer("Queue and steer");
  const messages = request.body.messages as Message[];
  const last = messages.at(-1);
  if (last?.role === "tool") return answer("Checked the version.");
  const text = textOf(last);
  if (text.includes(FIRST) || text.includes(SECOND))
    return calling([["r1", "run_command", JSON.stringify({ command: "node --version" })]]);
  if (text.includes(STEERED)) return answer("Node, and its major version as printed.");
  if (text.includes(QUEUED)) return answer("Both answers: the same node.");
  return answer("?");
}

describe("messages queued and steered while an answer runs, in VS Code", () => {
  let server: FixtureServer;

  before(async () => {
    server = await fixtureEndpoint("queue", "queue-model", { asDefault: true });
    server.script(...Array.from({ length: 12 }, () => reply));
  });

  after(() => server.close());

  /** Waits until the command waits for the person's answer (asked in the panel and a notification), the `nth` time. */
  const waitingFor = (nth: number) =>
    until(
      async () => {
        const { store } = await api().conversations();
        return store
          .rows("items")
          .filter((i) => i.kind === "call" && i.name === "run_command")
          .find((i, n) => n === nth && i.state === "approval");
      },
      30_000,
      `question ${nth} about the command`,
    );

  it("joins a steered message to the run at its next step, and sends a queued one when the run ends", async () => {
    const { store } = await api().conversations();
    await vscode.commands.executeCommand("tandem.chatView.focus");
    await vscode.commands.executeCommand("tandem.newChat");
    await panelSend(FIRST);
    await waitingFor(0);
    const chat = store.conversations().find((c) => store.items(c.id).some((i) => i.text === FIRST))!.id;
    const texts = (): Item[] => store.items(chat);

    // Typed while the call waits: queued, shown above the box, not sent.
    await panelSend(STEERED);
    const shown = await until(
      async () => {
        const text = await panelText();
        return /Queued/.test(text) && text.includes(STEERED) ? text : undefined;
      },
      20_000,
      "the queued message",
    );
    assert.match(shown, /Send now/);
    assert.ok(!texts().some((i) => i.kind === "user" && i.text === STEERED), "not sent while queued");
    // Send now: it joins the run; the call in flight is approved and runs, then the model reads it.
    await panelControl("button", "Send now");
    await panelControl("button", "Allow", { nth: -1 });
    await until(
      () => texts().find((i) => i.kind === "text" && i.text === "Node, and its major version as printed."),
      30_000,
      "the answer to the steered message",
    );
    const steeredRequest = server.requests.find((r) =>
      textOf((r.body.messages as Message[]).at(-1)).includes(STEERED),
    )!;
    const roles = (steeredRequest.body.messages as Message[]).map((m) => m.role);
    assert.deepEqual(roles.slice(-2), ["tool", "user"], "after the call's result, in the same run");
    const items = texts();
    const at = (wanted: (i: Item) => boolean) => items.findIndex(wanted);
    const call = at((i) => i.kind === "call" && i.name === "run_command");
    const steered = at((i) => i.kind === "user" && i.text === STEERED);
    const answered = at((i) => i.kind === "text" && i.text === "Node, and its major version as printed.");
    assert.ok(call >= 0 && call < steered && steered < answered, JSON.stringify(items.map((i) => i.text)));
    assert.equal(items.filter((i) => i.kind === "user" && i.text === STEERED).length, 1);

    // Queued and left: sent by itself, as the next message, once the run it waited for ends.
    await until(async () => !(await api().running()).includes(chat) || undefined, 20_000, "the run to end");
    await panelSend(SECOND);
    await waitingFor(1);
    await panelSend(QUEUED);
    await until(async () => (await panelText()).includes(QUEUED) || undefined, 20_000, "queued");
    await panelControl("button", "Allow", { nth: -1 });
    await until(
      () => texts().find((i) => i.kind === "text" && i.text === "Both answers: the same node."),
      30_000,
      "the answer to the queued message",
    );
    const after = texts();
    const wrote = after.map((i) => i.text).lastIndexOf("Checked the version.");
    const queued = after.findIndex((i) => i.kind === "user" && i.text === QUEUED);
    assert.ok(wrote >= 0 && wrote < queued, "sent after the run before it ended");
    assert.doesNotMatch(await panelText(), /Queued/);
  });
});
