import assert from "node:assert/strict";
import { Lexer, Parser, getDefaults, type Token } from "marked";
import { quickInline } from "../../../src/markdown/quick";
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
// Pieces the quick path leaves to marked, to check that it does.
const OTHERS = ["_", "~", "[", "]", "<", ">", "&", "\\", ":", "@", "www.", "\n", "|", "#", "é", "\t", "``"];

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
      if (OTHERS.some((o) => src.includes(o))) assert.equal(quick, undefined, JSON.stringify(src));
    }
    for (const src of ["**a*", "*a**", "***a***", "a*b*", "*a *", "* a*", "**a**b", "` a `", "www.example"])
      assert.equal(quickInline(src), undefined, src);
  });
});
