import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import http from "node:http";
import type { AddressInfo } from "node:net";
import type { Lookup } from "../../../src/chat/net/address";
import { McpPlugin } from "../../../src/chat/plugins/plugins";
import { everything, named, plainServer, signal } from "./plugin-fixture";

/** A port nothing listens on now. */
async function freePort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The everything server in MODE ("streamableHttp" or "sse") on PORT, once it listens. */
async function serve(mode: string, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [everything, mode], {
    env: { ...process.env, PORT: String(port) },
    stdio: ["ignore", "pipe", "pipe"],
  });
  await new Promise<void>((resolve, reject) => {
    let said = "";
    const heard = (chunk: Buffer) => {
      said += chunk.toString();
      if (/listening on port|running on port/i.test(said)) resolve();
    };
    child.stdout?.on("data", heard);
    child.stderr?.on("data", heard);
    child.once("exit", (code) => reject(new Error(`the everything server ended (${code}): ${said}`)));
  });
  return child;
}

async function stop(child: ChildProcess | undefined): Promise<void> {
  if (!child || child.exitCode !== null || child.signalCode !== null) return;
  const ended = new Promise((resolve) => child.once("exit", resolve));
  child.kill("SIGKILL");
  await ended;
}

/** A plain HTTP server that is no MCP server: it records each request and answers a web page. */
const webPage = () => plainServer(200, "text/html", "<html><body>Welcome</body></html>");

describe("HTTP plugins (the everything server)", function () {
  this.timeout(20_000);
  let port: number;
  let server: ChildProcess | undefined;

  before(async () => {
    port = await freePort();
    server = await serve("streamableHttp", port);
  });
  after(async () => {
    await stop(server);
  });

  it("speak streamable HTTP when private addresses are allowed", async () => {
    const plugin = new McpPlugin({
      name: "web",
      address: `http://127.0.0.1:${port}/mcp`,
      allowPrivate: true,
      key: "k1",
    });
    try {
      const tools = await plugin.tools();
      assert.match(plugin.status, /^\d+ tools$/);
      assert.equal(
        await named(tools, "web_echo").run('{"message":"over http"}', signal()),
        "Echo: over http",
      );
      assert.equal(named(tools, "web_echo").readOnly, true);
    } finally {
      await plugin.close();
    }
  });

  it("refuse the same server when private addresses are not allowed, naming the setting", async () => {
    const plugin = new McpPlugin({ name: "web", address: `http://127.0.0.1:${port}/mcp` });
    assert.deepEqual(await plugin.tools(), []);
    assert.equal(
      plugin.status,
      "refused: private address 127.0.0.1 (loopback); turn on the setting tandem.plugins.allowPrivateAddresses to allow private addresses",
    );
  });

  it("refuse a public-looking name that resolves to this computer", async () => {
    const lookup: Lookup = async () => [{ address: "127.0.0.1", family: 4 }];
    const plugin = new McpPlugin({ name: "web", address: `http://mcp.example.com:${port}/mcp`, lookup });
    await plugin.tools();
    assert.match(plugin.status, /^refused: private address 127\.0\.0\.1 for mcp\.example\.com \(loopback\)/);
  });

  it("fail a call when the server dies during it, and reconnect when it is back", async () => {
    const plugin = new McpPlugin(
      { name: "web", address: `http://127.0.0.1:${port}/mcp`, allowPrivate: true },
      { callMs: 5000 },
    );
    try {
      const tools = await plugin.tools();
      const slow = named(tools, "web_trigger-long-running-operation").run(
        '{"duration": 2, "steps": 2}',
        signal(),
      );
      setTimeout(() => void stop(server), 300);
      const started = Date.now();
      await assert.rejects(
        slow,
        /^Error: plugin web: .*(connection closed|could not reach).*(restarts|reconnects) on the next call/,
      );
      assert.ok(Date.now() - started < 4000, "the call fails when the server dies, not at its time limit");
      await assert.rejects(
        named(tools, "web_echo").run('{"message":"down"}', signal()),
        /plugin web: .*connection refused/,
      );
      server = await serve("streamableHttp", port);
      assert.equal(await named(tools, "web_echo").run('{"message":"up again"}', signal()), "Echo: up again");
    } finally {
      await plugin.close();
    }
  });
});

describe("HTTP plugins of the older SSE protocol", function () {
  this.timeout(20_000);

  it("are reached through the SSE stream when streamable HTTP is not spoken", async () => {
    const port = await freePort();
    const server = await serve("sse", port);
    const plugin = new McpPlugin({
      name: "old",
      address: `http://127.0.0.1:${port}/sse`,
      allowPrivate: true,
    });
    try {
      const tools = await plugin.tools();
      assert.match(plugin.status, /^\d+ tools$/);
      assert.equal(await named(tools, "old_echo").run('{"message":"sse"}', signal()), "Echo: sse");
    } finally {
      await plugin.close();
      await stop(server);
    }
  });
});

describe("HTTP plugins at addresses that are not MCP", function () {
  this.timeout(10_000);

  it("say that no MCP server answers at a web page, after sending the key in its header", async () => {
    const page = await webPage();
    try {
      const plugin = new McpPlugin({
        name: "page",
        address: page.url,
        allowPrivate: true,
        header: "X-Api-Key",
        key: "s3cret",
      });
      assert.deepEqual(await plugin.tools(), []);
      assert.match(
        plugin.status,
        new RegExp(`^could not connect to ${page.url}: no MCP server answers there`),
      );
      assert.ok(page.requests.length >= 1);
      assert.equal(page.requests[0]["x-api-key"], "s3cret");
      await plugin.close();
    } finally {
      await page.close();
    }
  });

  it("send a key as a bearer token when no header is named", async () => {
    const page = await webPage();
    try {
      const plugin = new McpPlugin({ name: "page", address: page.url, allowPrivate: true, key: "tok" });
      await plugin.tools();
      assert.equal(page.requests[0].authorization, "Bearer tok");
      await plugin.close();
    } finally {
      await page.close();
    }
  });

  it("send nothing at all to a private address that is not allowed", async () => {
    const page = await webPage();
    try {
      const plugin = new McpPlugin({ name: "page", address: page.url, key: "tok" });
      await plugin.tools();
      assert.match(plugin.status, /^refused: private address/);
      assert.equal(page.requests.length, 0);
    } finally {
      await page.close();
    }
  });

  it("refuse a header name or key that would break the request", async () => {
    const bad = new McpPlugin({
      name: "p",
      address: "http://127.0.0.1:9/",
      allowPrivate: true,
      header: "X Key",
      key: "k",
    });
    await bad.tools();
    assert.equal(bad.status, 'refused: "X Key" is not a header name');
    const split = new McpPlugin({
      name: "p",
      address: "http://127.0.0.1:9/",
      allowPrivate: true,
      key: "k\r\nX-Evil: 1",
    });
    await split.tools();
    assert.equal(split.status, "refused: the key holds a line break");
  });

  it("say when nothing listens there", async () => {
    const port = await freePort();
    const plugin = new McpPlugin({ name: "p", address: `http://127.0.0.1:${port}/mcp`, allowPrivate: true });
    await plugin.tools();
    assert.equal(plugin.status, `could not connect to http://127.0.0.1:${port}/mcp: connection refused`);
  });

  it("refuse addresses that are not http or https", async () => {
    const plugin = new McpPlugin({ name: "p", address: "file:///etc/passwd", allowPrivate: true });
    await plugin.tools();
    assert.equal(plugin.status, "refused: file addresses are not allowed (only http and https)");
  });
});
