import assert from "node:assert/strict";
import { apply, keyed, stream } from "../../../src/markdown";
import type { Block } from "../../../src/protocol/blocks";
import { heldFrom } from "../../../src/markdown/held";
import { answer, corpus, random, split } from "../../fixtures/markdown-corpus";

const documents = [...corpus, answer(1, 6000, 2), answer(2, 6000, 2), answer(3, 2500, 1)];

/** Streams PIECES, checking after each that the blocks are those of rendering the prefix at once. */
function showsEachPrefix(pieces: string[], label: string): ReturnType<typeof stream> {
  const renderer = stream("k");
  let prefix = "";
  for (const piece of pieces) {
    renderer.append(piece);
    prefix += piece;
    const once = stream("k");
    once.append(prefix);
    assert.deepEqual(
      renderer.blocks(),
      once.blocks(),
      `${label} at ${prefix.length}: ${JSON.stringify(prefix.slice(-40))}`,
    );
  }
  return renderer;
}

describe("stream", () => {
  it("applied patches of any split of a text equal rendering the whole text", function () {
    this.timeout(30_000);
    for (let seed = 1; seed <= 6; seed++) {
      const next = random(seed);
      for (const [n, text] of documents.entries()) {
        const renderer = stream("k");
        let replica: Block[] = [];
        for (const piece of split(text, next, seed % 3 === 0 ? 3 : 16))
          replica = apply(replica, renderer.append(piece));
        replica = apply(replica, renderer.end());
        assert.deepEqual(replica, keyed(text, "k"), `seed ${seed}, document ${n}`);
      }
    }
  });

  it("after every delta shows what rendering that prefix at once shows", function () {
    this.timeout(30_000);
    const next = random(99);
    for (const [n, text] of documents.entries()) {
      if (text.length > 3000) continue;
      showsEachPrefix(split(text, next, 6), `document ${n}`);
    }
  });

  it("never changes a block once it is closed", () => {
    const next = random(7);
    for (const [n, text] of documents.entries()) {
      if (/^\[[^\]]+\]:/m.test(text)) continue; // a late definition may re-render (tested below)
      const renderer = stream("k");
      const final: string[] = [];
      for (const piece of split(text, next, 8)) {
        renderer.append(piece);
        const blocks = renderer.blocks();
        for (let i = 0; i < renderer.closed; i++) {
          if (final[i] === undefined) final[i] = blocks[i].html;
          assert.equal(blocks[i].html, final[i], `document ${n}, block ${i}`);
        }
      }
      renderer.end();
      renderer.blocks().forEach((b, i) => final[i] !== undefined && assert.equal(b.html, final[i]));
    }
  });

  it("turns an earlier reference into a link when its definition comes later", () => {
    const renderer = stream("k");
    const text = [
      "See [the docs].\n\nMore text here.\n\n",
      "[The  Docs]: https://example.com/docs\n\n",
      "End.\n",
    ];
    let replica = apply([], renderer.append(text[0]));
    replica = apply(replica, renderer.append(text[1]));
    assert.equal(renderer.closed, 2);
    assert.equal(replica[0].html, "<p>See [the docs].</p>\n");
    replica = apply(replica, renderer.append(text[2]));
    assert.equal(
      replica[0].html,
      '<p>See <a href="https://example.com/docs" rel="noopener noreferrer">the docs</a>.</p>\n',
    );
    assert.deepEqual(apply(replica, renderer.end()), keyed(text.join(""), "k"));
  });

  it("sends words typed into a paragraph as appends of just their HTML", () => {
    const renderer = stream("k");
    renderer.append("First paragraph.\n\nSecond **bold** one");
    const had = renderer.blocks()[1].html.length;
    const patch = renderer.append(" grows & more");
    assert.deepEqual(patch, {
      key: "k",
      count: 2,
      blocks: [{ index: 1, html: " grows &amp; more", at: had }],
    });
  });

  it("sends a code block streaming line by line as appends", () => {
    const renderer = stream("k");
    renderer.append("```python\n");
    const had = renderer.blocks()[0].html.length;
    const patches = ["def f():\n", "    return '<1>'\n"].map((p) => renderer.append(p));
    assert.deepEqual(
      patches.map((p) => p.blocks),
      [
        [{ index: 0, html: "def f():\n", at: had }],
        [{ index: 0, html: "    return &#39;&lt;1&gt;&#39;\n", at: had + "def f():\n".length }],
      ],
    );
  });

  it("joins a CR and an LF that arrive in different deltas", () => {
    const renderer = stream("k");
    let replica = apply([], renderer.append("a\r"));
    replica = apply(replica, renderer.append("\n\r"));
    replica = apply(replica, renderer.append("\nb\r"));
    replica = apply(replica, renderer.end());
    assert.deepEqual(replica, keyed("a\n\nb\n", "k"));
  });

  it("starts over when the text is replaced rather than extended", () => {
    const renderer = stream("k");
    let replica = apply([], renderer.update("# One\n\nTwo three four\n\n- five\n"));
    replica = apply(replica, renderer.update("Something else"));
    assert.deepEqual(
      replica,
      keyed("Something else", "k").map((b) => ({ ...b, html: b.html.replace("</p>\n", "") })),
    );
    replica = apply(replica, renderer.end());
    assert.deepEqual(replica, keyed("Something else", "k"));
  });

  it("shows a new list item with its first word, never as an empty item or a heading", () => {
    const one = keyed("- first", "k")[0].html;
    for (const typed of [
      ["-", " "],
      [" ", " ", "-", " "],
    ]) {
      const renderer = stream("k");
      let replica = apply([], renderer.append("- first\n"));
      for (const piece of typed) {
        replica = apply(replica, renderer.append(piece));
        // Not "<li></li>", nor "first" turned into a heading by a "-" under it.
        assert.ok(one.startsWith(replica[0].html), `after ${JSON.stringify(typed)}: ${replica[0].html}`);
      }
      replica = apply(replica, renderer.append("sec"));
      assert.match(
        replica[0].html,
        typed.length === 2 ? /<li>first<\/li>\n<li>sec$/ : /<li>first<ul>\n<li>sec$/,
      );
    }
    // What is held back comes at the end.
    const ending = stream("k");
    const replica = apply(apply(apply([], ending.append("1. a\n")), ending.append("2.")), ending.end());
    assert.deepEqual(replica, keyed("1. a\n2.", "k"));
  });

  it("shows a link once it is written, never its Markdown half-typed", () => {
    const text = "See [the docs](https://example.com/docs) now, [not a link] and [a](b c).";
    const renderer = stream("k");
    let replica: Block[] = [];
    for (const char of text) {
      replica = apply(replica, renderer.append(char));
      const shown = replica[0]?.html ?? "";
      assert.ok(!/\[the|docs\]|\]\(h/.test(shown), shown);
    }
    assert.match(
      replica[0].html,
      /<a href="https:\/\/example.com\/docs" [^>]*>the docs<\/a> now, \[not a link\] and \[a\]\(b c\)\.$/,
    );
    assert.deepEqual(apply(replica, renderer.end()), keyed(text, "k"));
  });

  it("refuses text after the end", () => {
    const renderer = stream("k");
    renderer.append("done");
    renderer.end();
    assert.throws(() => renderer.append("more"), /ended/);
  });
});

describe("stream, inline text typed into the open block", () => {
  // Paragraphs, headings, list items and quotes whose words keep opening and closing constructs:
  // the open block is re-rendered from a cut in its text, so every kind of construct must come
  // out as rendering the whole text does, wherever the deltas fall.
  const inline = [
    "Plain words then **bold words** and *em* and `code()` and ~~gone~~ and [a link](https://example.com/a_(b)) end.",
    "An unmatched ** star keeps going for a while and **then closes** here, and _under_score_ words.",
    "Snake_case_names and 2 * 3 * 4 math, a `code with | pipe` and a ``double ` tick`` span.",
    "Autolinks www.example.com/path and https://example.org/x?y=1 and mail@example.com done.",
    "Entities &amp; &copy; & plain, escapes \\*not em\\* and \\`not code\\` and a \\\\ slash.",
    "Raw <b>tags</b> and <span title='a b'>spans</span> and <!-- comment --> text after.",
    "Nested **bold *and em* inside** and ***both*** and **unclosed *em** mix.",
    "Reference [docs] and [docs][] and ![image](https://example.com/i.png) and [bad](javascript:x).",
    "# Heading with **bold** and `code` ##\n\n## Another *heading* here",
    "- item with **bold** and `code`\n- [value](https://example.com/v) item\n  - nested *em* item `x`\n- [ ] task **b**\n- [x] done",
    "1. first `one()` item\n2. **second** item here\n10. tenth item",
    "> quoted **bold** words and `code` in a quote\n> more quoted text",
    "Text\n\n1.5 times faster, 2024 was a year, `` ` `` and *a*b*c* and __init__ and a_b_c.",
    "[docs]: https://example.com/docs\n\nSee [docs] **now** and [Docs] `later`.",
    "Closing `backticks``` and **bold**text and foo**bar**baz and *foo*bar.",
    "Raw <a href='x'> inside www.example.com words </a> and then www.example.org words.",
    "Strong **a [b** c](https://example.com/c) d and **e `f** g` h and **i <b title='**'> j** k.",
    "Delimiters that close only until a word follows: *a**b and *a***b, __a_b and _a__b, ~a~~b end.",
  ];

  it("applied patches equal rendering the whole text, and every prefix shows as rendered at once", function () {
    this.timeout(30_000);
    for (let seed = 1; seed <= 8; seed++) {
      const next = random(100 + seed);
      for (const [n, text] of inline.entries()) {
        const renderer = stream("k");
        let replica: Block[] = [];
        let prefix = "";
        for (const piece of split(text, next, seed % 2 ? 3 : 7)) {
          replica = apply(replica, renderer.append(piece));
          prefix += piece;
          const once = stream("k");
          once.append(prefix);
          assert.deepEqual(renderer.blocks(), once.blocks(), `seed ${seed}, text ${n} at ${prefix.length}`);
          assert.deepEqual(replica, renderer.blocks(), `seed ${seed}, text ${n} at ${prefix.length}`);
        }
        replica = apply(replica, renderer.end());
        assert.deepEqual(replica, keyed(text, "k"), `seed ${seed}, text ${n}`);
      }
    }
  });

  it("shows what rendering at once shows for random words mixed with every inline delimiter", function () {
    this.timeout(30_000);
    // Words and the characters that open, close or escape inline constructs, typed in small
    // deltas: wherever the run's cut lands, the open block must equal a one-shot render.
    const pieces = [
      "word",
      "more",
      " ",
      " ",
      " ",
      "*",
      "**",
      "_",
      "`",
      "~~",
      "[",
      "]",
      "(",
      ")",
      "<",
      ">",
      "\\",
      "&",
      "!",
      "x.com",
      "www.",
      ":",
    ];
    for (let seed = 1; seed <= 60; seed++) {
      const next = random(500 + seed);
      let text = "Start";
      while (text.length < 160) text += pieces[Math.floor(next() * pieces.length)];
      const renderer = showsEachPrefix(split(text, next, 4), `seed ${seed}`);
      renderer.end();
      assert.deepEqual(renderer.blocks(), keyed(text, "k"), `seed ${seed}`);
    }
  });

  it("shows each prefix of a paragraph as the whole-text render of that prefix shows it", () => {
    const text = inline[0] + " " + inline[1] + " " + inline[6];
    const renderer = stream("k");
    for (let i = 0; i < text.length; i++) {
      renderer.append(text[i]);
      // A one-shot render of the prefix, closing tags aside, is what the stream shows (without
      // a link being written: see `heldFrom`).
      const prefix = text.slice(0, i + 1);
      const whole = keyed(prefix.slice(0, heldFrom(prefix, true)), "k")[0].html;
      const shown = renderer.blocks()[0].html;
      assert.ok(
        whole.startsWith(shown) && /^(<\/[a-z]+>|\s)*$/.test(whole.slice(shown.length)),
        `at ${i}: ${shown}`,
      );
    }
  });
});
