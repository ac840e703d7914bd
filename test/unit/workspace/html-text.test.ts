import assert from "node:assert/strict";
import { decode, htmlText } from "../../../src/chat/workspace/html-text";

describe("HTML to text", () => {
  it("keeps the title, headings, paragraphs, list items and link text", () => {
    const page =
      htmlText(`<!doctype html><html><head><meta charset="utf-8"><title> The   Page &amp; Co </title>
      <link rel="stylesheet" href="x.css"></head><body>
      <h1>Welcome</h1><p>Read <a href="/docs">the   docs</a>, then
      <b>start</b>.</p><ul><li>one</li><li>two</li></ul><p>Line<br>break</p></body></html>`);
    assert.equal(page.title, "The Page & Co");
    assert.equal(page.text, "# Welcome\n\nRead the docs, then start.\n\n- one\n- two\n\nLine\nbreak");
  });

  it("drops scripts, styles, comments and other non-content elements", () => {
    const page =
      htmlText(`<p>before</p><script>var secret = "SCRIPT";</script><style>p { color: red } /* STYLE */</style>
      <!-- COMMENT --><noscript>NOSCRIPT</noscript><template>TEMPLATE</template><svg><title>SVGTITLE</title><text>SVG</text></svg>
      <iframe src="x">IFRAME</iframe><p>after</p>`);
    assert.equal(page.text, "before\n\nafter");
    assert.equal(page.title, "");
  });

  it("keeps whitespace inside pre", () => {
    const page = htmlText("<p>code:</p><pre>  a = 1\n    b = 2\n</pre><p>end</p>");
    assert.equal(page.text, "code:\n\n  a = 1\n    b = 2\n\nend");
  });

  it("decodes named, decimal and hex references, and leaves unknown ones", () => {
    assert.equal(
      decode("&lt;a&gt; &quot;x&quot; &#39;y&#39; &#x1F600; &eacute;t&eacute; &bogus; &#0; &#xD800;"),
      `<a> "x" 'y' 😀 été &bogus; \uFFFD \uFFFD`,
    );
    assert.equal(htmlText("<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>").text, "<script>alert(1)</script>");
  });

  it("survives hostile markup", () => {
    const cases: [string, string][] = [
      // An end tag with spaces and attributes still ends the script.
      ["<script>x</script  foo=1 ><p>ok</p>", "ok"],
      // Upper case, and an end split in two strings, which does not end it.
      ['<SCRIPT>var s = "</scr" + "ipt>"; HIDDEN</SCRIPT><p>ok</p>', "ok"],
      // An end tag inside a string of the script ends it, as in a browser.
      ['<script>var s = "</script>"; shown</script><p>ok</p>', '"; shown\n\nok'],
      // A script that never ends hides everything after it.
      ["<p>seen</p><script>never closed <p>hidden</p>", "seen"],
      // A > inside a quoted attribute does not end the tag.
      ['<a title="a > b" href="x">link</a>', "link"],
      // A tag that never ends is dropped.
      ["<p>text</p><a href='x", "text"],
      // A < that starts no tag is text.
      ["1 < 2 and 3 <4", "1 < 2 and 3 <4"],
      // A comment that never ends hides the rest.
      ["<p>a</p><!-- open <p>b</p>", "a"],
      // As a browser reads it, `<scr<script>` is one unknown tag: what follows is text, not a script.
      ["<scr<script>ipt>alert(1)</script>ok", "ipt>alert(1)ok"],
      // NUL and control characters are dropped.
      ["<p>a\u0000b\u0007c</p>", "abc"],
      // A title with markup inside is text only.
      ["<title>A <b>bold</b> title</title><p>x</p>", "x"],
      // CDATA and processing instructions go.
      ["<![CDATA[ hidden ]]><?xml version='1.0'?><p>shown</p>", "shown"],
    ];
    for (const [html, text] of cases) assert.equal(htmlText(html).text, text, html);
    assert.equal(htmlText("<title>A <b>bold</b> title</title>").title, "A <b>bold</b> title");
  });

  it("keeps image alt text and stays linear on deep or repeated markup", () => {
    assert.equal(htmlText('<p>See <img src="x.png" alt="a chart"> here</p>').text, "See a chart here");
    const deep = "<div>".repeat(50_000) + "deep" + "</div>".repeat(50_000);
    const unclosed = "<a b='".repeat(20_000);
    const scripts = "<script>".repeat(20_000);
    const started = Date.now();
    assert.equal(htmlText(deep).text, "deep");
    assert.equal(htmlText(unclosed).text, "");
    assert.equal(htmlText(scripts).text, "");
    // Quadratic work on these inputs would take minutes; linear work takes well under a second.
    assert.ok(Date.now() - started < 10_000, `took ${Date.now() - started} ms`);
  });
});
