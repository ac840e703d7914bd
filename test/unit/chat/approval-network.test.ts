import assert from "node:assert/strict";
import { writeFileSync } from "node:fs";
import { createServer, type AddressInfo, type Server } from "node:net";
import { calls, says, scripted } from "../../../src/agent/scripted";
import { asked } from "../../../src/chat/make";
import { PanelView } from "../../../src/chat/panel/view";
import { runCommandTool } from "../../../src/chat/workspace/command";
import type { HostMessage } from "../../../src/protocol/messages";
import { recordingHost } from "../../fixtures/view-host";
import { LINE, spawningEditor } from "../hostile/attacks-sandbox";
import { folder } from "../workspace/fixtures";
import { answered, bench, hostOf, until, type Bench } from "./runner-fixture";

describe("approval in the panel: 'Allow with Network' on a sandboxed command's row", () => {
  let b: Bench | undefined;
  let ws: { path: string; remove: () => void };
  let server: Server;
  beforeEach(async () => {
    ws = folder("tandem-panel-network-");
    server = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const { port } = server.address() as AddressInfo;
    writeFileSync(
      `${ws.path}/attack.js`,
      `require("net").connect(${port}, "127.0.0.1").on("connect", function () { console.log("connected"); this.end(); }).on("error", (e) => console.log("no connection: " + e.code));`,
    );
  });
  afterEach(async () => {
    await b?.end();
    b = undefined;
    server.close();
    ws.remove();
  });

  /** Runs `node attack.js` through the panel, answered with DECIDE's extra fields; the call's row as it ends. */
  async function answeredWith(decide: { always: boolean; network?: boolean }) {
    const model = scripted([
      calls([["run_command", JSON.stringify({ command: LINE })]]),
      says("Ran it."),
      says("Run"),
    ]);
    const tool = runCommandTool({ root: ws.path }, spawningEditor());
    b = await bench(hostOf({ default: model }, { tools: () => [tool] }));
    const sent: HostMessage[] = [];
    const view = new PanelView(b.store, b.runner, recordingHost(sent));
    try {
      const chat = b.chat();
      view.openChat(chat);
      const user = asked("Run the attack script", chat);
      b.store.put("items", user);
      const call = () => b!.store.items(chat).find((i) => i.kind === "call");
      await until(() => call()?.state === "approval", "the command's question");
      const offered = call()!.network;
      await view.receive({ type: "decide", item: call()!.id, yes: true, ...decide });
      await answered(b.store, user.id);
      return { offered, row: call()! };
    } finally {
      view.dispose();
    }
  }

  it("is offered on the row, and only it lets this run of the command reach the network", async () => {
    const networked = await answeredWith({ always: false, network: true });
    assert.equal(networked.offered, "Allow with Network");
    assert.equal(networked.row.state, "done");
    assert.equal(networked.row.network, undefined, "the label goes with the question");
    assert.match(networked.row.output ?? "", /Sandboxed: workspace writable, network allowed\./);
    assert.match(networked.row.output ?? "", /\nconnected/);
    await b!.end();
    b = undefined;
    const plain = await answeredWith({ always: false });
    assert.match(plain.row.output ?? "", /Sandboxed: workspace writable, no network\./);
    assert.match(plain.row.output ?? "", /no connection: ECONNREFUSED/);
  });
});
