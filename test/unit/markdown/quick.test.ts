import assert from "node:assert/strict";
import { Lexer, Parser, getDefaults, type Token } from "marked";
import { quickInline } from "../../../src/markdown/quick";
import { Markdown } from "../../../src/markdown/render";
import { random } from "../../fixtures/markdown-corpus";

const options = { ...getDefaults(), gfm: true, breaks: false, async: false };
const marked = (src: string): Token[] => new Lexer(options).inlineTokens(src);
const html = (tokens: Token[]): string => new Parser(options).parseInline(tokens);

/** Random inline texts made of PIECES, up to MAX of them. */
function texts(seed: number, pieces: string[], count: number, max: number): string[] {
  const next = random(seed);
  return Array.from({ length: count }, () => {
    let s = "";
    const n = 1 + Math.floor(next() * max);
    for (let i = 0; i < n; i++) s += pieces[Math.floor(next() * pieces.length)];
    return s;
  });
}

const PIECES = ["a", "b", "word", "1", " ", " ", "*", "**", "`", ",", ".", "(", ")", "'", "-", "/", "!", "?"];
// Pieces the quick path leaves to marked, to check that it does (bar brackets: it takes links).
const OTHERS = ["_", "~", "[", "]", "<", ">", "&", "\\", ":", "@", "www.", "\n", "|", "#", "é", "\t", "``"];
const DECLINED = OTHERS.filter((o) => o !== "[" && o !== "]");
// Pieces of links, finished or not, and of what is close to one.
const LINKS = ["[", "]", "](", "https://", "http://", "example.com", "/path", "x.y", "ht", "..", "![", ": "];

/** Whether marked makes a link (finished or an autolink) of SRC. */
const hasLink = (tokens: Token[]): boolean => tokens.some((t) => t.type === "link");

/** Texts with a link in them among words, code and emphasis, cut at random as a stream cuts them. */
function withLinks(seed: number, count: number): string[] {
  const next = random(seed);
  // Up to MAX of PIECES, from a seed of their own.
  const some = (pieces: string[], max: number) => texts(Math.floor(next() * 2 ** 32), pieces, 1, max)[0];
  const pick = (list: string[]) => list[Math.floor(next() * list.length)];
  const around = ["a", "word", " ", " ", ",", ".", "(", ")", "`x`", " *em*", " **b**", " [b] c"];
  return Array.from({ length: count }, () => {
    const label = some(["change", "a", "1", " ", ".", "-"], 3);
    const dest = pick(["https://", "http://"]) + some(["example.com", "/path", "x.y", "a", "-", "."], 3);
    const s = `${some(around, 4)} [${label}](${dest})${some(around, 4)}`;
    return s.slice(0, 1 + Math.floor(next() * s.length));
  });
}

describe("quickInline", () => {
  it("makes exactly marked's tokens for every text it takes", () => {
    let taken = 0;
    for (const [seed, max] of [
      [1, 6],
      [2, 12],
      [3, 24],
    ]) {
      for (const src of texts(seed, PIECES, 8000, max)) {
        const quick = quickInline(src);
        if (!quick) continue;
        taken++;
        assert.deepEqual(quick, marked(src), JSON.stringify(src));
      }
    }
    // The shapes a stream lexes all the time must be taken, or the path is pointless.
    assert.ok(taken > 8000, `only ${taken} texts taken`);
  });

  it("makes exactly marked's tokens for texts with links or their starts, and takes most", () => {
    const check = (src: string, expected: Token[]): boolean => {
      const quick = quickInline(src);
      if (quick) assert.deepEqual(quick, expected, JSON.stringify(src));
      return quick !== undefined;
    };
    for (const src of texts(5, [...PIECES, ...LINKS], 20000, 14)) check(src, marked(src));
    let linked = 0;
    let taken = 0;
    for (const src of withLinks(6, 20000)) {
      const expected = marked(src);
      if (!hasLink(expected)) check(src, expected);
      else {
        linked++;
        if (check(src, expected)) taken++;
      }
    }
    // Links as a stream writes them must be taken, or the path is dead.
    assert.ok(linked > 5000 && taken > linked * 0.75, `${taken} of ${linked} texts with links taken`);
  });

  it("takes the texts a streamed answer lexes, and renders them as marked does", () => {
    for (const src of [
      "",
      "Window workspace token",
      " **token** value",
      " `blocks()` window",
      " *editor*.",
      " **by",
      " `co",
      "a `x` *y* **z**, then (more) / 'quotes' \"too\" - done!",
      " [ch",
      " [change]",
      " [change](",
      " [change](ht",
      " [change](https://example.com/c",
      " [change](https://example.com/changes)",
      " [change](https://example.com/changes) while",
      "[response](ht",
      "Key function while [file](https://example.com/file) block.",
      " [value](https://ex",
      " [end](https://example.com/end.",
      "[a] `b` *c*",
    ]) {
      const quick = quickInline(src);
      assert.ok(quick, JSON.stringify(src));
      assert.equal(html(quick), html(marked(src)), JSON.stringify(src));
    }
  });

  it("leaves to marked what it does not know", () => {
    for (const src of texts(4, [...PIECES, ...OTHERS], 4000, 10)) {
      const quick = quickInline(src);
      if (quick) assert.deepEqual(quick, marked(src), JSON.stringify(src));
      if (DECLINED.some((o) => src.includes(o))) assert.equal(quick, undefined, JSON.stringify(src));
    }
    for (const src of ["**a*", "*a**", "***a***", "a*b*", "*a *", "* a*", "**a**b", "` a `", "www.example"])
      assert.equal(quickInline(src), undefined, src);
    // Links of other shapes: an image, a title, a reference, an empty label, no scheme, other
    // characters in the label or the URL, or more after an unfinished URL.
    for (const src of [
      "![a](https://x.com)",
      "[a](https://x.com 't')",
      "[a][b]",
      "[](https://x.com)",
      "[a](/path)",
      "[a](HTTP://x.com)",
      "[a](https://x.com/a_b)",
      "[a](https://www.x.com)",
      "[`a`](https://x.com)",
      "[*a*](https://x.com)",
      "[a [b](https://x.com)",
      "[a](https://x.com b",
      "a] b",
    ])
      assert.equal(quickInline(src), undefined, src);
  });
});

describe("Markdown.renderInline", () => {
  it("writes words, code spans and emphasis as marked's renderer does", () => {
    const markdown = new Markdown();
    let written = 0;
    for (const src of texts(
      5,
      [...PIECES, "&", "&amp;", "&#39;", "<b>", '"', "\\*", "_a_", "~~d~~", "  \n"],
      6000,
      10,
    )) {
      const tokens = marked(src);
      // Links and raw HTML go through Tandem's own renderer (its allow-list): tested elsewhere.
      if (hasLink(tokens) || src.includes("<")) continue;
      assert.equal(markdown.renderInline(tokens), html(tokens), JSON.stringify(src));
      written++;
    }
    assert.ok(written > 3000, `only ${written} texts written`);
  });
});
