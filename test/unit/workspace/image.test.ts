import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fetchImage, type ImageOptions } from "../../../src/chat/workspace/image";
import { PanelView, type ViewHost } from "../../../src/chat/panel/view";
import type { HostMessage } from "../../../src/protocol/messages";
import { bench, hostOf, until, type Bench } from "../chat/runner-fixture";
import { scripted } from "../../../src/agent/scripted";
import { refusal } from "./fixtures";
import { recordingHost } from "../../fixtures/view-host";

/** The first bytes of a PNG, a GIF and a WebP: enough for the fetch to know them. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");
const GIF = Buffer.from("GIF89a\x01\x00\x01\x00", "latin1");
const WEBP = Buffer.concat([Buffer.from("RIFF"), Buffer.alloc(4), Buffer.from("WEBPVP8 ")]);

describe("remote images, fetched by the host when the person clicks", () => {
  let server: http.Server;
  let port: number;
  /** The same images over TLS, with a certificate for images.example that the test trusts. */
  let secure: https.Server;
  let securePort: number;
  let cert: Buffer;
  let certs: string;
  const hits: { path: string; cookie?: string; authorization?: string }[] = [];

  before(async () => {
    certs = mkdtempSync(join(tmpdir(), "tandem-image-tls-"));
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", "/CN=images.example"],
        ...["-addext", "subjectAltName=DNS:images.example"],
        ...["-keyout", join(certs, "key.pem"), "-out", join(certs, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
    cert = readFileSync(join(certs, "cert.pem"));
    server = http.createServer((request, response) => {
      const path = request.url ?? "/";
      hits.push({ path, cookie: request.headers.cookie, authorization: request.headers.authorization });
      const send = (type: string, body: Buffer | string) =>
        response.writeHead(200, { "content-type": type }).end(body);
      if (path.startsWith("/pixel.png")) return send("image/png", PNG);
      if (path === "/a.gif") return send("image/gif", GIF);
      if (path === "/a.webp") return send("image/webp", WEBP);
      if (path === "/svg") return send("image/svg+xml", "<svg onload='x'/>");
      if (path === "/lies") return send("image/png", "<html>not an image</html>");
      if (path === "/big") return send("image/png", Buffer.concat([PNG, Buffer.alloc(2048)]));
      if (path === "/to-private")
        return response.writeHead(302, { location: `http://127.0.0.1:${port}/pixel.png` }).end();
      if (path === "/to-png") return response.writeHead(301, { location: "/pixel.png?moved" }).end();
      response.writeHead(404).end();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    secure = https.createServer({ key: readFileSync(join(certs, "key.pem")), cert }, (request, response) =>
      server.emit("request", request, response),
    );
    await new Promise<void>((resolve) => secure.listen(0, "127.0.0.1", resolve));
    securePort = (secure.address() as AddressInfo).port;
  });

  after(async () => {
    server.closeAllConnections();
    secure.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    await new Promise((resolve) => secure.close(resolve));
    rmSync(certs, { recursive: true, force: true });
  });

  beforeEach(() => (hits.length = 0));

  /** A public name whose connections the test routes to the local server. */
  const publicName: ImageOptions = {
    lookup: async () => [{ address: "93.184.216.34", family: 4 }],
    connect: () => net.connect(port, "127.0.0.1"),
  };

  it("answers a PNG, GIF or WebP as a data URL, following redirects, with no cookie or credential sent", async () => {
    assert.equal(
      await fetchImage("http://images.example/pixel.png?d=1", publicName),
      `data:image/png;base64,${PNG.toString("base64")}`,
    );
    assert.match(await fetchImage("http://images.example/a.gif", publicName), /^data:image\/gif;base64,/);
    assert.match(await fetchImage("http://images.example/a.webp", publicName), /^data:image\/webp;base64,/);
    assert.match(await fetchImage("http://images.example/to-png", publicName), /^data:image\/png;base64,/);
    assert.deepEqual(
      hits.map((h) => [h.path, h.cookie, h.authorization]),
      [
        ["/pixel.png?d=1", undefined, undefined],
        ["/a.gif", undefined, undefined],
        ["/a.webp", undefined, undefined],
        ["/to-png", undefined, undefined],
        ["/pixel.png?moved", undefined, undefined],
      ],
    );
  });

  it("refuses SVG, a body that is not the image it claims, and one over the size limit", async () => {
    assert.match(
      await refusal(fetchImage("http://images.example/svg", publicName)),
      /^it is image\/svg\+xml, not a PNG, JPEG, GIF or WebP image$/,
    );
    assert.match(
      await refusal(fetchImage("http://images.example/lies", publicName)),
      /^it is image\/png, not a PNG, JPEG, GIF or WebP image$/,
    );
    assert.match(
      await refusal(fetchImage("http://images.example/big", { ...publicName, maxBytes: 1024 })),
      /^it is larger than 1.0 KB$/,
    );
  });

  it("never reaches a private address, directly or by a redirect", async () => {
    assert.match(
      await refusal(fetchImage(`http://127.0.0.1:${port}/pixel.png`)),
      /^refused: private address 127\.0\.0\.1 \(loopback\); images load from public addresses only$/,
    );
    assert.equal(hits.length, 0, "nothing reached the server");
    assert.match(
      await refusal(fetchImage("http://images.example/to-private", publicName)),
      /private address 127\.0\.0\.1/,
    );
    assert.deepEqual(
      hits.map((h) => h.path),
      ["/to-private"],
    );
  });

  describe("through the panel's host half", () => {
    let b: Bench | undefined;
    afterEach(async () => {
      await b?.end();
      b = undefined;
    });

    /** A host that keeps what the panel was sent. */
    function viewHost(sent: HostMessage[]): ViewHost {
      return recordingHost(sent, {
        images: { ...publicName, connect: () => net.connect(securePort, "127.0.0.1"), ca: cert },
      });
    }

    it("answers loadImage with the image as a data URL, or why it could not load it", async () => {
      b = await bench(hostOf({ default: scripted([]) }));
      const sent: HostMessage[] = [];
      const view = new PanelView(b.store, b.runner, viewHost(sent));
      // The https placeholder's URL, reached over TLS with a certificate for its name.
      await view.receive({ type: "loadImage", url: "https://images.example/pixel.png?d=SECRET" });
      await view.receive({ type: "loadImage", url: "https://images.example/svg" });
      await view.receive({ type: "loadImage", url: "http://images.example/pixel.png" });
      await view.receive({ type: "loadImage", url: "javascript:alert(1)" });
      await until(() => sent.length === 4, "four answers");
      assert.deepEqual(sent, [
        {
          type: "image",
          url: "https://images.example/pixel.png?d=SECRET",
          data: `data:image/png;base64,${PNG.toString("base64")}`,
        },
        {
          type: "image",
          url: "https://images.example/svg",
          error: "it is image/svg+xml, not a PNG, JPEG, GIF or WebP image",
        },
        { type: "image", url: "http://images.example/pixel.png", error: "only https images are loaded" },
        { type: "image", url: "javascript:alert(1)", error: "only https images are loaded" },
      ]);
      assert.deepEqual(
        hits.map((h) => h.path),
        ["/pixel.png?d=SECRET", "/svg"],
      );
    });
  });
});
