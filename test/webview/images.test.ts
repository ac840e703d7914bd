import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import https from "node:https";
import net, { type AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { chromium, type Browser } from "playwright-core";
import { chromiumArgs, chromiumPath, requireChromium } from "../../scripts/vscode.mjs";
import { fetchImage } from "../../src/chat/workspace/image";
import { keyed } from "../../src/markdown";
import type { HostMessage, PanelMessage } from "../../src/protocol/messages";
import { Panel } from "./page";
import { item, snapshot, streamed } from "./stream";

/** The first bytes of a PNG: what the capture server answers for an image. */
const PNG = Buffer.from("89504e470d0a1a0a0000000d4948445200000001", "hex");

describe("remote images in the panel", () => {
  let server: https.Server;
  let port: number;
  /** The capture server's certificate, for images.example, which the host's fetch is told to trust. */
  let cert: Buffer;
  let certs: string;
  /** Every connection the capture server saw (a browser's TLS attempt too), and every request. */
  let connections = 0;
  const requests: string[] = [];
  let browser: Browser | undefined;
  let panel: Panel | undefined;

  before(async () => {
    certs = mkdtempSync(join(tmpdir(), "tandem-panel-tls-"));
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
    server = https.createServer({ key: readFileSync(join(certs, "key.pem")), cert }, (request, response) => {
      requests.push(request.url ?? "");
      if (request.url?.startsWith("/pixel.png"))
        response.writeHead(200, { "content-type": "image/png" }).end(PNG);
      else response.writeHead(404).end();
    });
    server.on("connection", () => connections++);
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as AddressInfo).port;
    requireChromium();
    // The image's host name leads Chromium to the capture server: a browser that loaded the image by
    // itself would connect there.
    browser = await chromium.launch({
      executablePath: chromiumPath,
      args: [...chromiumArgs, "--host-resolver-rules=MAP images.example 127.0.0.1"],
    });
  });

  afterEach(async () => {
    await panel?.close();
    panel = undefined;
  });

  after(async () => {
    await browser?.close();
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
    rmSync(certs, { recursive: true, force: true });
  });

  /** The host's side of `loadImage`, as PanelView does it: the guarded fetch, routed to the capture server. */
  async function answer(url: string): Promise<HostMessage> {
    const options = {
      lookup: async () => [{ address: "93.184.216.34", family: 4 }],
      connect: () => net.connect(port, "127.0.0.1"),
      ca: cert,
    };
    try {
      return { type: "image", url, data: await fetchImage(url, options) };
    } catch (error) {
      return { type: "image", url, error: (error as Error).message };
    }
  }

  it("loads no remote image until the person clicks its placeholder, then shows it from the host's fetch", async () => {
    if (!browser) throw new Error("the browser is launched before the tests");
    panel = await Panel.open(browser);
    const url = `https://images.example:${port}/pixel.png?d=SECRET`;
    const missing = `https://images.example:${port}/missing.png`;
    const text = `Build status: ![build status](${url})\n\nAnd ![logo](${missing}) too.`;
    await panel.send(snapshot(), { type: "opened", chat: "c1", items: [], blocks: {} });
    await panel.send(...streamed(item("c1.1", "text"), text, 5));
    await panel.page.locator('[data-item="c1.1"] .markdown p').first().waitFor();
    // Whatever image the page shows has loaded or failed by now: the browser's own attempt is over.
    await panel.page.waitForFunction(() =>
      [...document.querySelectorAll<HTMLImageElement>(".markdown img")].every((i) => i.complete),
    );
    assert.equal(connections, 0, "the panel reached the image's server by itself");
    assert.equal(await panel.page.locator(".markdown img").count(), 0);
    assert.deepEqual(await panel.violations(), []);
    const placeholders = panel.page.locator("button.remote-image");
    assert.deepEqual(await placeholders.allInnerTexts(), [
      "Image build status from images.example — click to load",
      "Image logo from images.example — click to load",
    ]);

    // From the keyboard: Tab to the placeholder and press Enter.
    await placeholders.first().focus();
    await panel.page.keyboard.press("Enter");
    await placeholders.nth(1).click();
    const asked = (await panel.posted()).filter(
      (m): m is Extract<PanelMessage, { type: "loadImage" }> => m.type === "loadImage",
    );
    assert.deepEqual(asked, [
      { type: "loadImage", url },
      { type: "loadImage", url: missing },
    ]);
    assert.match(
      await placeholders.first().innerText(),
      /^Loading the image “build status” from images\.example…$/,
    );
    assert.equal(connections, 0, "only the host fetches");

    await panel.send(await answer(url), await answer(missing));
    const image = panel.page.locator(".markdown img.loaded-image");
    await image.waitFor();
    assert.equal(await image.getAttribute("src"), `data:image/png;base64,${PNG.toString("base64")}`);
    assert.equal(await image.getAttribute("alt"), "build status");
    assert.equal(
      await panel.page.locator("button.remote-image").innerText(),
      "The image “logo” from images.example could not be loaded: the server answered HTTP 404 Not Found. Click to try again.",
    );
    assert.deepEqual(requests, ["/pixel.png?d=SECRET", "/missing.png"]);
    assert.deepEqual(await panel.violations(), []);

    // The conversation opened again renders its blocks anew: the loaded image stays.
    await panel.send({
      type: "opened",
      chat: "c1",
      items: [item("c1.1", "text")],
      blocks: { "c1.1": keyed(text, "c1.1") },
    });
    await panel.page.locator(".markdown img.loaded-image").waitFor();
    assert.equal(requests.length, 2);
  });

  it("serves a page whose CSP lets images come only from the extension and data URLs", async () => {
    if (!browser) throw new Error("the browser is launched before the tests");
    panel = await Panel.open(browser);
    const before = connections;
    const csp = await panel.page.evaluate(
      () =>
        document.querySelector('meta[http-equiv="Content-Security-Policy"]')?.getAttribute("content") ?? "",
    );
    const img = csp.split(";").find((d) => d.trim().startsWith("img-src")) ?? "";
    assert.match(img, /^ ?img-src http:\/\/127\.0\.0\.1:\d+ data:$/);
    assert.doesNotMatch(img, /https:|\*/);
    // An image written straight into the page (past every sanitizer) is still refused by the CSP.
    await panel.page.evaluate((src) => {
      const image = document.createElement("img");
      image.src = src;
      document.body.append(image);
    }, `https://images.example:${port}/pixel.png?direct`);
    await panel.page.waitForFunction(() =>
      (window as unknown as { __violations: { directive: string }[] }).__violations.some(
        (v) => v.directive === "img-src",
      ),
    );
    assert.equal(connections, before);
  });
});
