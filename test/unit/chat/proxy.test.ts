import assert from "node:assert/strict";
import net from "node:net";
import { pluginFetch } from "../../../src/chat/plugins/fetch";
import { fetchPage } from "../../../src/chat/workspace/page";
import { countingServer, rebinding, routeThroughProxy, startProxy, type Proxy } from "./proxy-fixture";

describe("the private-address guard with a proxy in the way (DNS rebinding)", () => {
  let privateSite: Awaited<ReturnType<typeof countingServer>>;
  let publicSite: Awaited<ReturnType<typeof countingServer>>;
  let proxy: Proxy;
  let lookup: ReturnType<typeof rebinding>;
  let undo: () => void;
  /** The addresses the requests connected to. */
  let reached: string[];
  const saved = { http: process.env.HTTP_PROXY, https: process.env.HTTPS_PROXY };

  /** Routes the checked public address to the local "public" site, noting where the socket was meant to go. */
  const connect = ({ host }: { host: string; port: number }) => {
    reached.push(host);
    return net.connect(publicSite.port, "127.0.0.1");
  };

  beforeEach(async () => {
    privateSite = await countingServer("the private admin page");
    publicSite = await countingServer("the public page");
    lookup = rebinding("93.184.216.34");
    proxy = await startProxy(lookup);
    reached = [];
    process.env.HTTP_PROXY = proxy.url;
    process.env.HTTPS_PROXY = proxy.url;
    undo = routeThroughProxy();
  });

  afterEach(async () => {
    undo();
    for (const [name, value] of [
      ["HTTP_PROXY", saved.http],
      ["HTTPS_PROXY", saved.https],
    ] as const) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    await Promise.all([privateSite.close(), publicSite.close(), proxy.close()]);
  });

  it("fetch_page connects to the address it checked, not through the proxy: the loopback server receives nothing", async () => {
    const address = `http://rebind.example:${privateSite.port}/admin`;
    const page = await fetchPage(address, { lookup, connect });
    assert.equal(page.text, "the public page");
    assert.deepEqual(reached, ["93.184.216.34"]);
    assert.deepEqual(publicSite.requests, [`GET /admin host=rebind.example:${privateSite.port}`]);
    assert.deepEqual(privateSite.requests, []);
    assert.deepEqual(proxy.tunnels, []);
    assert.equal(lookup.calls, 1, "the name was looked up again after the check");
  });

  it("a plugin's HTTP requests do the same", async () => {
    const plugin = pluginFetch({ lookup, connect });
    try {
      const response = await plugin.fetch(`http://rebind.example:${privateSite.port}/mcp`, {
        method: "POST",
        body: "{}",
      });
      assert.equal(await response.text(), "the public page");
    } finally {
      plugin.close();
    }
    assert.deepEqual(reached, ["93.184.216.34"]);
    assert.deepEqual(publicSite.requests, [`POST /mcp host=rebind.example:${privateSite.port}`]);
    assert.deepEqual(privateSite.requests, []);
    assert.deepEqual(proxy.tunnels, []);
  });

  it("says plainly that the proxy is not used when the direct connection fails", async () => {
    const closed = await countingServer("");
    const port = closed.port;
    await closed.close();
    const refused = () => net.connect(port, "127.0.0.1");
    await assert.rejects(fetchPage("http://site.example/", { lookup, connect: refused }), {
      message: new RegExp(
        `^Could not fetch http://site.example/: ECONNREFUSED .*\\(Tandem connects directly, not through the proxy in HTTPS_PROXY: a proxy would look the name up again, past the check that refuses private addresses\\.\\)$`,
      ),
    });
  });
});
