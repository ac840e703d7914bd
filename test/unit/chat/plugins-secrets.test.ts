import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { McpPlugin } from "../../../src/chat/plugins/plugins";
import { everything, named, signal } from "./plugin-fixture";

const KEY = "sk-plugin-7f3a9c1e5b2d8f40";
const TOKEN = "ghp_envsecret0123456789abcdef";

/** A server that answers every request 400 with the Authorization header it received and the key, as some gateways echo them. */
async function echoing(): Promise<{ url: string; close: () => Promise<void> }> {
  const server = http.createServer((request, response) => {
    request.resume();
    response
      .writeHead(400, { "content-type": "application/json" })
      .end(JSON.stringify({ error: `bad key ${request.headers.authorization ?? ""}`, key: KEY }));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    close: async () => {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

describe("plugin secrets are cut out of what a plugin says", function () {
  this.timeout(20_000);

  it("a key the server echoes is hidden in the status and in a call's error, its Bearer form too", async () => {
    const server = await echoing();
    const plugin = new McpPlugin({ name: "gw", address: server.url, allowPrivate: true, key: KEY });
    try {
      assert.deepEqual(await plugin.tools(), []);
      const said = `could not connect to ${server.url}: HTTP 400: Streamable HTTP error: Error POSTing to endpoint: {"error":"bad key Bearer [key hidden]","key":"[key hidden]"}`;
      assert.equal(plugin.status, said);
      await assert.rejects(plugin.call("search", "{}"), { message: `plugin gw: ${said}` });
    } finally {
      await plugin.close();
      await server.close();
    }
  });

  it("a secret of the program's environment is hidden in what it printed as it failed to start", async () => {
    const plugin = new McpPlugin(
      {
        name: "leaky",
        command: process.execPath,
        args: ["-e", "console.error('token is ' + process.env.GH_TOKEN); process.exit(1)"],
        env: { GH_TOKEN: TOKEN },
        trusted: true,
        approveStart: () => true,
      },
      { connectMs: 5000 },
    );
    try {
      await plugin.tools();
      assert.match(plugin.status, /— it said: token is \[key hidden\]$/);
    } finally {
      await plugin.close();
    }
  });

  it("a secret of the program's environment is hidden in a tool's output", async () => {
    const plugin = new McpPlugin({
      name: "every",
      command: process.execPath,
      args: [everything, "stdio"],
      env: { GH_TOKEN: TOKEN },
      trusted: true,
      approveStart: () => true,
    });
    try {
      const output = await named(await plugin.tools(), "every_get-env").run("{}", signal());
      assert.match(output, /"GH_TOKEN": "\[key hidden\]"/);
      assert.ok(!output.includes(TOKEN.slice(0, 10)));
    } finally {
      await plugin.close();
    }
  });
});
