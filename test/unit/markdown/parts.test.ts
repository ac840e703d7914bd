import assert from "node:assert/strict";
import { apply, keyed, stream } from "../../../src/markdown";
import { heldFrom } from "../../../src/markdown/held";
import type { Block } from "../../../src/protocol/blocks";
import { random, split } from "../../fixtures/markdown-corpus";

// Tables and lists grow row by row and item by item: the stream keeps their finished rows and
// items and re-renders only the last ones, so every way a row or an item can still change what
// came before (a rule, a blank line that loosens the list, another bullet, a lazy line…) must show
// exactly as a one-shot render of the same text does.

const tables = [
  "| Name | Value | Note |\n|:-----|------:|:----:|\n| a | 1 | x |\n| b | 2 |\n| c | 3 | z | extra |\n\nAfter.",
  "| a | b |\n| --- | --- |\n| `x | y` | \\| pipe |\n| e \\| f | g \\\\| h |\n| **b** | [l](https://example.com) |\nlazy row\n| c\n\nEnd.",
  "| h |\n|---|\n| 1 |\n- a list ends it\n\n| h |\n|---|\n| 1 |\n# heading ends it\n\n| h |\n|---|\n| 1 |\n> quote",
  "| h | i |\n|---|:-:|\n| 1 | 2 |\n    indented\n| 3 |\n```\nfence ends it\n```\n\n| x |\n| - |\n\nNo rows.",
  "| h | i |\n|---|---|\n| 1 | 2 |\n1. ordered ends it\n\n| h |\n|---|\n|1|\n2. row\n---\n<div>html</div>",
  "Text before\n| h1 | h2 |\n| -- | -- |\n| c1 | c2 |\n\n| A |\n|:-|\n| [ref] |\n\n[ref]: https://example.com/r",
];

const lists = [
  "- one\n- two\n- three\n\n- loose now\n\nAfter.",
  "- a\n* other bullet\n+ third\n1. ordered\n2) other delimiter\n3) more",
  "1. The value answer.\n  - *storage* workspace.\n2. Last **one**.\n  - `x()` y\n3. **the** end\n\nText.",
  "- a\n  - nested\n    - deeper\n  - back\n- b\n\n  paragraph in b\n- c",
  "- [ ] task\n- [x] done\n- [y] not a task\n- plain\n- [ ]\n- [x]",
  "- a\n- - -\n- b\n* * *\n- c\n---\nd\n- e\n  ---\n- f\n===",
  "- a\nlazy line\n- b\n\n  indented after blank\n- c\n\n\n- d",
  "10. ten\n11. eleven\n\n1) paren\n2) paren two\n\n3. three\n   continued\n4. four",
  "- item with code:\n\n  ```js\n  console.log(1);\n  ```\n- next\n  ```\n  open fence in item",
  "- see [docs]\n- [docs]: https://example.com/d\n- and [docs] again\n\n[docs2]: https://example.com/e\n\n- [docs2] item",
  "- a\n# heading\n- b\n> quote\n- c\n<div>\n- d\n    code\n- e\n\tf",
  "1. a\n1. b\n1. c\n  1. d\n 2. e\n   3. f\n- x  \n- y\\\n- z",
  "  - indented list\n    - nested under it\n    - and more\n  - back\n  - [a link](https://example.com) item\n\nEnd.",
  "- a word\n2. joins the item\n- b\n 3. lazy too\n1. a new list\n- and back\n* other bullet",
  "1. one\n   1. nested from one\n   2. two\n   - other kind\n2. two\n   3. nested from three\n\n- x\n  - y\n   - z",
];

/** A random document of tables and lists, with blank lines or none between them. */
function document(next: () => number): string {
  const parts: string[] = [];
  const n = 3 + Math.floor(next() * 5);
  const pick = <T>(xs: T[]): T => xs[Math.floor(next() * xs.length)];
  for (let i = 0; i < n; i++) {
    if (next() < 0.5) {
      const cols = 1 + Math.floor(next() * 3);
      const cells = () =>
        Array.from({ length: Math.max(1, cols + pick([-1, 0, 0, 0, 1])) }, () =>
          pick(["a", "`c|d`", "**b**", "", "x y"]),
        );
      const rows = Array.from({ length: Math.floor(next() * 5) }, () => `| ${cells().join(" | ")} |`);
      parts.push(
        [
          `| ${cells().join(" | ")} |`,
          `|${Array(cols)
            .fill(pick(["---", ":-:", "--:"]))
            .join("|")}|`,
          ...rows,
        ].join("\n"),
      );
    } else {
      const marker = pick(["-", "*", "1.", "2)"]);
      const items = Array.from({ length: 1 + Math.floor(next() * 5) }, (_, k) => {
        const bullet = marker.length > 1 ? `${k + 1}${marker.slice(-1)}` : next() < 0.1 ? "+" : marker;
        const body = pick([
          "word",
          "**b** c",
          "[ ] task",
          "`code`",
          "- - -",
          "a\n  - nested",
          "a\n\n  more",
          "a\nlazy",
        ]);
        return `${bullet} ${body}`;
      });
      parts.push(items.join(pick(["\n", "\n", "\n", "\n\n"])));
    }
    parts.push(pick(["\n\n", "\n", "\n\nText.\n\n"]));
  }
  return parts.join("");
}

/** Closing tags, blanks and the empty cells a short row is padded with: what an open block leaves off. */
const LEFT_OFF = /^(?:<\/[a-z0-9]+>|<t[dh](?: align="[a-z]+")?><\/t[dh]>|\s)*$/;

/** Streams TEXT in PIECES and checks every state against rendering the prefix at once. */
function check(text: string, pieces: string[], label: string): void {
  const renderer = stream("k");
  let replica: Block[] = [];
  let prefix = "";
  for (const piece of pieces) {
    replica = apply(replica, renderer.append(piece));
    prefix += piece;
    const at = `${label} at ${prefix.length}`;
    const shown = renderer.blocks();
    assert.deepEqual(replica, shown, at);
    // Closed blocks are as rendered at once (unless a definition is being typed: they take it
    // once it is complete); open ones lack only what closes them.
    // The start of a line still undecided is held back (see `heldFrom`).
    const whole = keyed(prefix.slice(0, heldFrom(prefix, true)), "k");
    const typing = /^ {0,3}\[[^\]]+\]:/m.test(prefix);
    assert.equal(shown.length, whole.length, at);
    shown.forEach((block, i) => {
      const full = whole[i].html;
      if (i < renderer.closed) {
        if (!typing) assert.equal(block.html, full, `${at}, closed block ${i}`);
      } else if (!block.html.includes('class="code-block streaming"'))
        assert.ok(
          full.startsWith(block.html) && LEFT_OFF.test(full.slice(block.html.length)),
          `${at}, block ${i}: ${JSON.stringify(block.html)} is not the start of ${JSON.stringify(full)}`,
        );
    });
  }
  replica = apply(replica, renderer.end());
  assert.deepEqual(replica, keyed(text, "k"), label);
}

describe("stream, tables and lists growing row by row and item by item", () => {
  it("shows every prefix of a table as a one-shot render does, wherever the deltas fall", function () {
    this.timeout(30_000);
    for (let seed = 1; seed <= 6; seed++) {
      const next = random(200 + seed);
      for (const [n, text] of tables.entries())
        check(text, split(text, next, seed % 2 ? 3 : 9), `seed ${seed}, table ${n}`);
    }
  });

  it("shows every prefix of a list as a one-shot render does, wherever the deltas fall", function () {
    this.timeout(30_000);
    for (let seed = 1; seed <= 6; seed++) {
      const next = random(300 + seed);
      for (const [n, text] of lists.entries())
        check(text, split(text, next, seed % 2 ? 3 : 9), `seed ${seed}, list ${n}`);
    }
  });

  it("shows every prefix of random documents of tables and lists as a one-shot render does", function () {
    this.timeout(30_000);
    for (let seed = 1; seed <= 40; seed++) {
      const next = random(400 + seed);
      const text = document(next);
      check(text, split(text, next, 1 + (seed % 6)), `seed ${seed}: ${JSON.stringify(text)}`);
    }
  });

  it("sends a new table row and a new list item as appends of their own HTML", () => {
    const table = stream("k");
    table.append("| a | b |\n|---|---|\n| 1 | 2 |\n");
    const rows = table.blocks()[0].html.length;
    // A row comes whole, once its line ends.
    assert.deepEqual(table.append("| 3 | 4 |").blocks, []);
    assert.deepEqual(table.append("\n").blocks, [
      { index: 0, html: "</td>\n</tr>\n<tr>\n<td>3</td>\n<td>4", at: rows },
    ]);
    const list = stream("k");
    list.append("- one\n- two");
    const items = list.blocks()[0].html.length;
    assert.deepEqual(list.append("\n- three").blocks, [{ index: 0, html: "</li>\n<li>three", at: items }]);
  });
});
