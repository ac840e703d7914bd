import assert from "node:assert/strict";
import http from "node:http";
import net from "node:net";
import type { AddressInfo } from "node:net";
import zlib from "node:zlib";
import { fetchPage, type Page, type PageOptions } from "../../../src/chat/workspace/page";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { call, refusal } from "./fixtures";

const PAGE = `<!doctype html><html><head><title>Fixture &amp; Page</title><script>window.SECRET = 1</script>
<style>body { color: red }</style></head><body><h1>Hello</h1><p>Some <a href="/x">linked text</a> here.</p></body></html>`;

describe("fetch_page", () => {
  let server: http.Server;
  let port: number;
  let base: string;
  const hits: Record<string, number> = {};

  before(async () => {
    server = http.createServer((request, response) => {
      const path = request.url ?? "/";
      hits[path] = (hits[path] ?? 0) + 1;
      const redirect = (to: string, status = 302) => response.writeHead(status, { location: to }).end();
      switch (path) {
        case "/page":
          response.writeHead(200, { "content-type": "text/html; charset=utf-8" }).end(PAGE);
          return;
        case "/text":
          response.writeHead(200, { "content-type": "text/plain" }).end("  plain text  \n");
          return;
        case "/latin1":
          response
            .writeHead(200, { "content-type": "text/html; charset=iso-8859-1" })
            .end(Buffer.concat([Buffer.from("<p>caf"), Buffer.from([0xe9]), Buffer.from("</p>")]));
          return;
        case "/gzip":
          response
            .writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" })
            .end(zlib.gzipSync("<title>Zipped</title><p>unzipped text</p>"));
          return;
        case "/bad-gzip":
          response
            .writeHead(200, { "content-type": "text/html", "content-encoding": "gzip" })
            .end("not gzip at all");
          return;
        case "/bad-location":
          return redirect("http://[::1");
        case "/redirect":
          return redirect("/page");
        case "/redirect-relative":
          return redirect("page", 301);
        case "/loop":
          return redirect("/loop");
        case "/to-file":
          return redirect("file:///etc/passwd");
        case "/to-private":
          return redirect(`http://127.0.0.1:${port}/page`);
        case "/to-localhost":
          return redirect(`http://localhost:${port}/page`);
        case "/to-other":
          return redirect(`http://other.example:${port}/page`);
        case "/to-other-chain":
          return redirect("/to-other");
        case "/to-metadata":
          return redirect("http://169.254.169.254/latest/meta-data/");
        case "/big": {
          response.writeHead(200, { "content-type": "text/plain" });
          const chunk = "word ".repeat(13_108); // about 64 KB
          for (let i = 0; i < 32; i++) response.write(chunk);
          response.end();
          return;
        }
        case "/long":
          response.writeHead(200, { "content-type": "text/plain" }).end("x".repeat(100_000));
          return;
        case "/stall":
          // Headers and a little body, then nothing.
          response.writeHead(200, { "content-type": "text/html" });
          response.write("<p>start");
          return;
        case "/hang":
          return; // Never answers.
        case "/pdf":
          response.writeHead(200, { "content-type": "application/pdf" }).end("%PDF-1.4");
          return;
        default:
          response.writeHead(404, { "content-type": "text/plain" }).end("nothing here");
      }
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    base = `http://127.0.0.1:${port}`;
  });

  after(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  const local: PageOptions = { allowPrivate: true };
  /** A name that resolves to a public address, whose connection the test routes to the local server. */
  const publicName: PageOptions = {
    allowPrivate: false,
    lookup: async () => [{ address: "93.184.216.34", family: 4 }],
    connect: () => net.connect(port, "127.0.0.1"),
  };

  it("gives a page's title, address, readable text and its source", async () => {
    const page = await fetchPage(`${base}/page`, local);
    assert.deepEqual(page, {
      title: "Fixture & Page",
      url: `${base}/page`,
      text: "# Hello\n\nSome linked text here.",
      sources: [{ title: "Fixture & Page", url: `${base}/page` }],
    });
  });

  it("answers the page as JSON through the tool", async () => {
    const tools = workspaceTools({ root: process.cwd(), trusted: false, allowPrivate: true });
    const page = JSON.parse(await call(tools, "fetch_page", { url: `${base}/redirect` })) as Page;
    assert.equal(page.url, `${base}/page`);
    assert.deepEqual(page.sources, [{ title: "Fixture & Page", url: `${base}/page` }]);
    assert.doesNotMatch(page.text, /SECRET|color: red/);
  });

  it("reads plain text, other character sets and compressed bodies", async () => {
    assert.equal((await fetchPage(`${base}/text`, local)).text, "plain text");
    assert.equal((await fetchPage(`${base}/latin1`, local)).text, "café");
    const zipped = await fetchPage(`${base}/gzip`, local);
    assert.equal(zipped.title, "Zipped");
    assert.equal(zipped.text, "unzipped text");
  });

  it("follows redirects, relative ones too, and gives up on a loop", async () => {
    assert.equal((await fetchPage(`${base}/redirect-relative`, local)).url, `${base}/page`);
    assert.match(await refusal(fetchPage(`${base}/loop`, local)), /redirects more than 5 times; gave up/);
  });

  it("refuses a private address when private addresses are not allowed, without reaching it", async () => {
    const before = hits["/page"] ?? 0;
    assert.match(
      await refusal(fetchPage(`${base}/page`, { allowPrivate: false })),
      /refused: private address 127\.0\.0\.1 \(loopback\)/,
    );
    assert.match(
      await refusal(fetchPage(`http://localhost:${port}/page`, {})),
      /refused: private address localhost/,
    );
    const lookup = async () => [{ address: "10.1.2.3", family: 4 }];
    assert.match(
      await refusal(fetchPage("http://intranet.example.com/", { lookup })),
      /refused: private address 10\.1\.2\.3/,
    );
    assert.equal(hits["/page"] ?? 0, before);
  });

  it("re-checks every redirect: a public page that redirects inside is refused", async () => {
    const page = await fetchPage(`http://public.example:${port}/page`, publicName);
    assert.equal(page.title, "Fixture & Page");
    const before = hits["/page"];
    for (const path of ["/to-private", "/to-localhost", "/to-metadata"]) {
      const message = await refusal(fetchPage(`http://public.example:${port}${path}`, publicName));
      assert.match(
        message,
        new RegExp(`^http://public\\.example:${port}${path} redirects to .*: refused: private address`),
        message,
      );
    }
    assert.equal(hits["/page"], before, "the private target was never reached");
  });

  it("follows no redirect to another host than the one named, in one hop or a chain, and says how to read it", async () => {
    const before = hits["/page"];
    for (const path of ["/to-other", "/to-other-chain"]) {
      const message = await refusal(fetchPage(`http://public.example:${port}${path}`, publicName));
      assert.equal(
        message,
        `http://public.example:${port}/to-other redirects to http://other.example:${port}/page, on another host than public.example. ` +
          "It was not followed: call fetch_page with that address to read it (the person is asked about a host they have not allowed).",
      );
    }
    assert.equal(hits["/page"], before, "the other host was never reached");
  });

  it("refuses other schemes, also as a redirect target", async () => {
    assert.match(await refusal(fetchPage("file:///etc/passwd", local)), /file addresses are not allowed/);
    assert.match(
      await refusal(fetchPage(`${base}/to-file`, local)),
      /redirects to file:\/\/\/etc\/passwd: refused: file addresses/,
    );
    assert.match(await refusal(fetchPage("not a url", local)), /is not a valid address/);
  });

  it("reads at most the size limit and says the page was cut", async () => {
    const page = await fetchPage(`${base}/big`, local);
    assert.match(page.text, /\[The page is larger than 1\.0 MB; only its start was read\.\]$/);
    assert.ok(page.text.length <= 1024 * 1024 + 200, `${page.text.length}`);
    const small = await fetchPage(`${base}/big`, { ...local, maxBytes: 1000 });
    assert.ok(small.text.startsWith("word word"));
    assert.ok(small.text.length < 1100);
  });

  it("gives a long text in parts, saying where to read on", async () => {
    const tools = workspaceTools({ root: process.cwd(), trusted: false, allowPrivate: true });
    const first = JSON.parse(await call(tools, "fetch_page", { url: `${base}/long` })) as Page;
    assert.match(first.text, /\[The text goes on: 60000 more characters; read on with offset 40000\.\]$/);
    const second = JSON.parse(
      await call(tools, "fetch_page", { url: `${base}/long`, offset: 80_000 }),
    ) as Page;
    assert.equal(second.text, `[Characters 80000–100000 of 100000.]\n${"x".repeat(20_000)}`);
  });

  it("gives up after the time limit, on a silent server and on a stalled body", async () => {
    const started = Date.now();
    assert.match(
      await refusal(fetchPage(`${base}/hang`, { ...local, timeoutMs: 300 })),
      /\/hang did not answer within 0\.3 s/,
    );
    assert.match(
      await refusal(fetchPage(`${base}/stall`, { ...local, timeoutMs: 300 })),
      /\/stall did not answer within 0\.3 s/,
    );
    assert.ok(Date.now() - started < 5000);
  });

  it("stops when the run is stopped", async () => {
    const stop = new AbortController();
    setTimeout(() => stop.abort(), 100);
    assert.match(await refusal(fetchPage(`${base}/hang`, local, stop.signal)), /was stopped/);
  });

  it("says what went wrong with a corrupt body, a broken redirect or a closed port", async () => {
    assert.match(
      await refusal(fetchPage(`${base}/bad-gzip`, local)),
      /^Could not fetch .*\/bad-gzip: Z_DATA_ERROR/,
    );
    assert.match(
      await refusal(fetchPage(`${base}/bad-location`, local)),
      /redirects to an address that is not valid: http:\/\/\[::1$/,
    );
    const closed = net.createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const closedPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    assert.match(
      await refusal(fetchPage(`http://127.0.0.1:${closedPort}/`, local)),
      /^Could not fetch .*: ECONNREFUSED/,
    );
  });

  it("refuses error statuses and bodies that are not text", async () => {
    assert.match(await refusal(fetchPage(`${base}/missing`, local)), /answered HTTP 404 Not Found/);
    assert.match(await refusal(fetchPage(`${base}/pdf`, local)), /is application\/pdf, not a web page/);
  });
});
