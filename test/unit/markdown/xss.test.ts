import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import { apply, html, keyed, stream } from "../../../src/markdown";
import type { Block } from "../../../src/protocol/blocks";
import { xss } from "../../fixtures/xss";

const FORBIDDEN =
  "script, iframe, object, embed, form, style, meta, link, base, svg, math, frame, frameset, template, portal";
const URL_ATTRIBUTES = [
  "href",
  "src",
  "action",
  "formaction",
  "xlink:href",
  "srcdoc",
  "data",
  "poster",
  "background",
];

const page = new JSDOM("<body></body>").window.document;

/** Why MARKUP could run something, or undefined when it is inert. */
function active(markup: string): string | undefined {
  // Parsed the way the panel inserts blocks (innerHTML), which runs no script in jsdom either.
  const host = page.createElement("div");
  host.innerHTML = markup;
  const element = host.querySelector(FORBIDDEN);
  if (element) return `<${element.localName}> element`;
  for (const e of host.querySelectorAll("*")) {
    for (const a of e.attributes) {
      if (a.name.startsWith("on")) return `${a.name} attribute on <${e.localName}>`;
      if (a.name === "style") return `style attribute on <${e.localName}>`;
      if (!URL_ATTRIBUTES.includes(a.name)) continue;
      const allowed =
        (e.localName === "a" && a.name === "href" && /^(https?:|mailto:)/.test(a.value)) ||
        (e.localName === "img" &&
          a.name === "src" &&
          /^data:image\/(png|jpeg|gif|webp);base64,/.test(a.value));
      if (!allowed) return `${a.name}="${a.value}" on <${e.localName}>`;
    }
  }
  return undefined;
}

describe("XSS corpus", () => {
  it("has at least a hundred payloads, each aiming at the page flag", () => {
    assert.ok(xss.length >= 100);
    for (const payload of xss)
      assert.match(
        payload,
        /__xss|PHN2Zy|PHNjcmlwdD53aW5kb3cuX194c3M9MTwvc2NyaXB0Pg|msgbox|passwd|sendSequence|tandem\.run|evil|relative|rel\]|\(x\)|insecure/i,
      );
  });

  it("never yields an active element or attribute when rendered whole", () => {
    for (const payload of xss) assert.equal(active(html(payload)), undefined, payload);
  });

  it("never yields one at any point while streamed in 4-character deltas", function () {
    this.timeout(20_000);
    for (const payload of xss) {
      const renderer = stream("k");
      let replica: Block[] = [];
      for (let i = 0; i < payload.length; i += 4) {
        replica = apply(replica, renderer.append(payload.slice(i, i + 4)));
        assert.equal(active(replica.map((b) => b.html).join("")), undefined, `${payload} at ${i}`);
      }
      replica = apply(replica, renderer.end());
      assert.deepEqual(replica, keyed(payload, "k"));
    }
  });

  it("keeps the payloads' text visible instead of dropping it", () => {
    const host = page.createElement("div");
    host.innerHTML = html(xss[0]);
    assert.equal(host.textContent?.trim(), xss[0]);
  });
});
