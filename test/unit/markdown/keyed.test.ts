import assert from "node:assert/strict";
import { JSDOM } from "jsdom";
import { CODE_ACTIONS, CommandLinks, html, keyed, stream } from "../../../src/markdown";

function dom(markup: string): Document {
  return new JSDOM(`<body>${markup}</body>`).window.document;
}

describe("keyed", () => {
  it("keys one block per top-level Markdown block", () => {
    const blocks = keyed("# Title\n\nSome *text*.\n\n- a\n- b\n\n[ref]: https://example.com", "item7");
    assert.deepEqual(
      blocks.map((b) => b.key),
      ["item7.0", "item7.1", "item7.2"],
    );
    assert.equal(blocks[0].html, "<h1>Title</h1>\n");
    assert.equal(blocks[1].html, "<p>Some <em>text</em>.</p>\n");
    assert.equal(dom(blocks[2].html).querySelectorAll("li").length, 2);
  });

  it("renders GFM tables, task lists, strikethrough and autolinks", () => {
    const doc = dom(
      html(
        "| a | b |\n|:--|--:|\n| 1 | 2 |\n\n- [x] done\n- [ ] open\n\n~~gone~~ see www.example.com and https://example.org/x",
      ),
    );
    assert.deepEqual(
      [...doc.querySelectorAll("td")].map((td) => [td.textContent, td.getAttribute("align")]),
      [
        ["1", "left"],
        ["2", "right"],
      ],
    );
    const boxes = [...doc.querySelectorAll("input[type=checkbox]")] as HTMLInputElement[];
    assert.deepEqual(
      boxes.map((b) => [b.checked, b.disabled]),
      [
        [true, true],
        [false, true],
      ],
    );
    assert.equal(doc.querySelector("del")?.textContent, "gone");
    assert.deepEqual(
      [...doc.querySelectorAll("a")].map((a) => a.getAttribute("href")),
      ["http://www.example.com/", "https://example.org/x"],
    );
  });

  it("shows raw HTML as text, never as markup", () => {
    const doc = dom(
      html('Hi <b onclick="x()">there</b>\n\n<div class="x">\n<script>alert(1)</script>\n</div>'),
    );
    assert.equal(doc.querySelector("b, div.x, script"), null);
    assert.match(doc.body.textContent ?? "", /Hi <b onclick="x\(\)">there<\/b>/);
    assert.match(doc.body.textContent ?? "", /<script>alert\(1\)<\/script>/);
  });

  it("links only http, https and mailto, with rel noopener noreferrer", () => {
    const doc = dom(
      html(
        "[w](https://example.com/a) [m](mailto:me@example.com) [j](javascript:alert(1)) [f](file:///etc) [r](/rel)",
      ),
    );
    const anchors = [...doc.querySelectorAll("a")];
    assert.deepEqual(
      anchors.map((a) => [a.getAttribute("href"), a.getAttribute("rel")]),
      [
        ["https://example.com/a", "noopener noreferrer"],
        ["mailto:me@example.com", "noopener noreferrer"],
      ],
    );
    // A refused link is shown as the Markdown the model wrote.
    assert.match(
      doc.body.textContent ?? "",
      /\[j\]\(javascript:alert\(1\)\) \[f\]\(file:\/\/\/etc\) \[r\]\(\/rel\)/,
    );
  });

  it("shows raster data URLs as images and https images as placeholders to load, nothing else", () => {
    const png = "data:image/png;base64,iVBORw0KGgo=";
    const doc = dom(
      html(
        `![a](https://example.com/a.png) ![b](${png}) ![c](http://example.com/c.png) ![d](data:image/svg+xml;base64,PHN2Zz4=)`,
      ),
    );
    assert.deepEqual(
      [...doc.querySelectorAll("img")].map((i) => [i.getAttribute("src"), i.getAttribute("alt")]),
      [[png, "b"]],
    );
    const placeholder = doc.querySelector("button.remote-image");
    assert.equal(placeholder?.getAttribute("data-image"), "https://example.com/a.png");
    assert.equal(placeholder?.textContent, "Image a from example.com — click to load");
    assert.match(doc.body.textContent ?? "", /!\[c\]\(http:\/\/example\.com\/c\.png\)/);
  });

  it("makes command links only for hrefs Tandem made itself", () => {
    const commands = new CommandLinks();
    const href = commands.add("tandem.openFile", ["src/a.ts", 3]);
    const text = `[open](${href}) [model](command:tandem.openFile) [guess](tandem-command:0/0)`;
    const doc = dom(html(text, { commands }));
    const anchors = [...doc.querySelectorAll("a")];
    assert.equal(anchors.length, 1);
    assert.equal(anchors[0].getAttribute("data-command"), "tandem.openFile");
    const uri = anchors[0].getAttribute("href") ?? "";
    assert.equal(uri.split("?")[0], "command:tandem.openFile");
    assert.deepEqual(JSON.parse(decodeURIComponent(uri.split("?")[1])), ["src/a.ts", 3]);
    // The same href means nothing to a render without the object that made it.
    assert.equal(dom(html(text)).querySelector("a"), null);
    assert.equal(new CommandLinks().resolve(href), undefined);
    assert.throws(() => commands.add("workbench.action.quit" as `tandem.${string}`));
  });

  it("colours closed code blocks and gives them their actions", () => {
    const doc = dom(html("```ts\nconst answer: number = 42;\n```\n\n```nosuchlang\n<b>x</b>\n```"));
    const [ts, other] = [...doc.querySelectorAll(".code-block")];
    assert.equal(ts.getAttribute("data-lang"), "ts");
    assert.equal(ts.querySelector("code")?.textContent, "const answer: number = 42;\n");
    assert.equal(ts.querySelector(".hljs-keyword")?.textContent, "const");
    assert.deepEqual(
      [...ts.querySelectorAll("button")].map((b) => b.getAttribute("data-action")),
      CODE_ACTIONS.map((a) => a.action),
    );
    assert.equal(
      [...doc.querySelectorAll("*")].some((e) => [...e.attributes].some((a) => a.name.startsWith("on"))),
      false,
    );
    assert.equal(other.querySelector("code")?.textContent, "<b>x</b>\n");
    assert.equal(other.querySelector("[class^=hljs-], b"), null);
  });

  it("shows a code block still streaming as plain text, without colour or actions", () => {
    const renderer = stream("k");
    renderer.append("Intro\n\n```ts\nconst a = 1;\nlet b = '<x>'");
    const last = renderer.blocks().at(-1)?.html ?? "";
    const doc = dom(last);
    assert.equal(doc.querySelector(".code-block.streaming code")?.textContent, "const a = 1;\nlet b = '<x>'");
    assert.equal(doc.querySelector("[class^=hljs-], button"), null);
    renderer.append("\n```\n");
    renderer.end();
    const closed = dom(renderer.blocks().at(-1)?.html ?? "");
    assert.equal(closed.querySelector(".hljs-keyword")?.textContent, "const");
    assert.equal(closed.querySelectorAll("button[data-action]").length, CODE_ACTIONS.length);
  });

  it("reads CRLF line ends as LF", () => {
    assert.deepEqual(keyed("a\r\n\r\n- b\r\n- c\r\n", "k"), keyed("a\n\n- b\n- c\n", "k"));
  });
});
