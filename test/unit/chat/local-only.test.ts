import assert from "node:assert/strict";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { endpoint } from "../../../src/agent/endpoint";
import type { Lookup } from "../../../src/chat/net/address";
import { asked, plugin } from "../../../src/chat/make";
import { AgentPlugins } from "../../../src/chat/plugins/set";
import { McpPlugin, onThisComputer } from "../../../src/chat/plugins/plugins";
import type { Secrets } from "../../../src/chat/row-schemas";
import { fetchPage, fetchPageTool, LOCAL_ONLY_PAGE } from "../../../src/chat/workspace/page";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { judge, questionOf } from "../../../src/chat/approval/judge";
import { spawningEditor } from "../hostile/attacks-sandbox";
import { answer, calling, openaiServer, type Received, type Reply } from "../../fixtures/openai-server";
import { watchConnections } from "./connections";
import { plainServer } from "./plugin-fixture";
import { bench, hostOf, until } from "./runner-fixture";
import { scripted } from "../../../src/agent/scripted";
import { PanelView } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { panelCsp } from "../../../src/vscode/panel-page";
import { recordingHost } from "../../fixtures/view-host";

/** Every name of the attack's hosts resolves to one public address (nothing leaves: the watcher ends it). */
const lookup: Lookup = async () => [{ address: "93.184.216.34", family: 4 }];

/** No secrets: the plugins here take no key. */
const secrets: Secrets = {
  get: async () => undefined,
  store: async () => undefined,
  delete: async () => undefined,
};

describe("local only (tandem.localOnly): Tandem opens no connection but to the person's endpoints", function () {
  this.timeout(30_000);

  it("offers no fetch_page, and the tool itself refuses, saying why, without connecting", async () => {
    const root = mkdtempSync(join(tmpdir(), "tandem-local-"));
    const watch = watchConnections(() => false);
    try {
      assert.ok(workspaceTools({ root, trusted: true }).some((t) => t.name === "fetch_page"));
      assert.ok(
        !workspaceTools({ root, trusted: true, localOnly: true }).some((t) => t.name === "fetch_page"),
      );
      await assert.rejects(fetchPage("https://docs.tools.example/", { lookup, localOnly: true }), {
        message: LOCAL_ONLY_PAGE,
      });
      const tool = fetchPageTool({ lookup, localOnly: true });
      await assert.rejects(tool.run('{"url":"https://docs.tools.example/"}', new AbortController().signal), {
        message: LOCAL_ONLY_PAGE,
      });
      assert.deepEqual(watch.attempts, []);
    } finally {
      watch.stop();
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("offers no 'Allow with Network' for the workspace's commands, where it would let nothing through", async () => {
    const root = mkdtempSync(join(tmpdir(), "tandem-local-"));
    try {
      const rules = {
        tools: "",
        approve: "",
        always: new Set<string>(),
        trusted: true,
        root,
        sandbox: { kind: "bwrap", program: "/usr/bin/bwrap" } as const,
      };
      const question = async (localOnly: boolean) => {
        const command = workspaceTools({ root, trusted: true, localOnly, editor: spawningEditor() }).find(
          (t) => t.name === "run_command",
        )!;
        return questionOf("run_command", await judge(command, '{"command":"npm install"}', rules));
      };
      assert.equal((await question(false)).network, "Allow with Network");
      assert.equal((await question(true)).network, undefined);
    } finally {
      rmSync(root, { recursive: true, force: true });
    }
  });

  it("connects no plugin at another computer's address, and still one on this computer", async () => {
    assert.deepEqual(
      ["http://localhost:3000/mcp", "http://127.0.0.1:9/mcp", "http://[::1]:9/", "http://a.localhost/"].map(
        onThisComputer,
      ),
      [true, true, true, true],
    );
    assert.deepEqual(
      ["https://mcp.tools.example/mcp", "http://10.0.0.5/mcp", "http://localhost.tools.example/", "x"].map(
        onThisComputer,
      ),
      [false, false, false, false],
    );
    const watch = watchConnections((to) => to.host === "127.0.0.1");
    const local = await plainServer(401, "application/json", '{"error":"no"}');
    try {
      const remote = new McpPlugin({
        name: "remote",
        address: "https://mcp.tools.example/mcp",
        lookup,
        localOnly: true,
      });
      assert.deepEqual(await remote.tools(), []);
      assert.equal(
        remote.status,
        "refused: Tandem works locally only (tandem.localOnly), and https://mcp.tools.example/mcp is not on this computer",
      );
      assert.deepEqual(watch.attempts, []);
      const near = new McpPlugin({ name: "near", address: local.url, allowPrivate: true, localOnly: true });
      await near.tools();
      assert.ok(local.requests.length > 0, `the local plugin was reached (${near.status})`);
      await Promise.all([remote.close(), near.close()]);
    } finally {
      watch.stop();
      await local.close();
    }
  });

  /** A run that fetches a page and has a remote plugin, with `localOnly`: every connection it tried. */
  async function runWith(
    localOnly: boolean,
  ): Promise<{ attempts: string[]; endpoint: string; status: string }> {
    const server = await openaiServer();
    const port = new URL(server.baseURL).port;
    const reply = (request: Received): Reply =>
      JSON.stringify(request.body.messages).includes('"role":"tool"') || !request.body.tools
        ? answer("Done.")
        : calling([["call_1", "fetch_page", '{"url":"https://docs.tools.example/"}']]);
    for (let i = 0; i < 6; i++) server.script(reply);
    const root = mkdtempSync(join(tmpdir(), "tandem-local-run-"));
    const held: { plugins?: AgentPlugins } = {};
    const watch = watchConnections((to) => to.host === "127.0.0.1" && String(to.port) === port);
    const host = hostOf(
      { default: endpoint({ baseURL: server.baseURL, model: "m" }) },
      {
        tools: async (assistant) => [
          ...workspaceTools({ root, trusted: true, lookup, localOnly }),
          ...((await held.plugins?.tools(assistant)) ?? []),
        ],
        // The person says yes to the fetch: only the setting may keep it from the network.
        approve: async () => true,
        root: () => root,
      },
    );
    const b = await bench(host);
    try {
      held.plugins = new AgentPlugins(b.store, secrets, {
        trusted: () => true,
        allowPrivate: () => false,
        localOnly: () => localOnly,
        approveStart: () => false,
        lookup,
      });
      const row = plugin("a1", "https://mcp.tools.example/mcp");
      b.store.put("plugins", row);
      await b.send(asked("Read https://docs.tools.example/ and use the plugin.", b.chat()));
      await held.plugins.close();
      const status = b.store.get("plugins", row.id)?.status ?? "";
      return {
        attempts: watch.attempts.map((a) => `${a.host}:${a.port}`),
        endpoint: `127.0.0.1:${port}`,
        status,
      };
    } finally {
      watch.stop();
      await b.end();
      await server.close();
      rmSync(root, { recursive: true, force: true });
    }
  }

  it("a run with fetch_page, a remote plugin and an endpoint connects only to the endpoint", async () => {
    const run = await runWith(true);
    assert.ok(run.attempts.length > 0, "the endpoint was asked");
    assert.deepEqual([...new Set(run.attempts)], [run.endpoint]);
    assert.match(run.status, /tandem\.localOnly/);
  });

  it("(without the setting, the same run reaches the page's and the plugin's hosts: the watcher sees them)", async () => {
    const run = await runWith(false);
    assert.deepEqual(
      [...new Set(run.attempts)].sort(),
      [run.endpoint, "docs.tools.example:443", "mcp.tools.example:443"].sort(),
    );
  });

  it("loads no image in the panel from the network: the page's CSP allows none, and a clicked placeholder is refused", async () => {
    const img = panelCsp("https://file+.vscode-resource.vscode-cdn.net", "abcdefghijklmnopqrstuv")
      .split(";")
      .map((d) => d.trim())
      .find((d) => d.startsWith("img-src"));
    assert.equal(img, "img-src https://file+.vscode-resource.vscode-cdn.net data:");
    const watch = watchConnections(() => false);
    const b = await bench(hostOf({ default: scripted([]) }));
    try {
      const sent: HostMessage[] = [];
      const view = new PanelView(
        b.store,
        b.runner,
        recordingHost(sent, { images: { lookup }, localOnly: () => true }),
      );
      await view.receive({ type: "loadImage", url: "https://images.tools.example/pixel.png" });
      await until(() => sent.length === 1, "the answer");
      assert.deepEqual(sent, [
        {
          type: "image",
          url: "https://images.tools.example/pixel.png",
          error: "Tandem works locally only (tandem.localOnly): images are not loaded from the network.",
        },
      ]);
      assert.deepEqual(watch.attempts, []);
    } finally {
      watch.stop();
      await b.end();
    }
  });
});
