// Constructs that span deltas, each streamed cut where it is decided: every prefix shows as
// rendering it at once does, and the patches add up to rendering the whole text.
import assert from "node:assert/strict";
import { apply, keyed, stream } from "../../../src/markdown";
import type { Block } from "../../../src/protocol/blocks";

/** Streams PIECES: after each, the blocks are those of the prefix rendered at once; at the end, the whole text's. */
function streamsAsRendered(pieces: string[]): void {
  const renderer = stream("k");
  let replica: Block[] = [];
  let prefix = "";
  for (const piece of pieces) {
    replica = apply(replica, renderer.append(piece));
    prefix += piece;
    const once = stream("k");
    once.append(prefix);
    assert.deepEqual(renderer.blocks(), once.blocks(), `after ${JSON.stringify(prefix)}`);
    assert.deepEqual(replica, renderer.blocks(), `the patches after ${JSON.stringify(prefix)}`);
  }
  replica = apply(replica, renderer.end());
  assert.deepEqual(replica, keyed(pieces.join(""), "k"));
}

/** TEXT cut into pieces of SIZE characters. */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}

describe("stream, constructs across deltas", () => {
  it("a fence opened in one delta and closed in another, its marks split too", () => {
    streamsAsRendered(["Before.\n\n``", "`ts\nconst a = 1;\n", "const b = `x`;\n`", "``", "\n\nAfter."]);
    streamsAsRendered(["~~~\ncode\n~~", "~\nAfter the fence."]);
    const text = "Words.\n\n```js\nlet a = 1;\n\n\nlet b = '```';\n```\n\nAfter **code**.\n";
    for (const size of [1, 2, 3, 5, 7]) streamsAsRendered(cut(text, size));
  });

  it("a list continued across deltas: items, a nested item, a loose item, then a paragraph", () => {
    streamsAsRendered(["- one\n", "- tw", "o\n  - nested", "\n- three", "\n\nAfter the list."]);
    const text = "1. first **bold** item\n2. second `code()`\n\n3. third, loose\n\nParagraph after.\n";
    for (const size of [1, 2, 4, 6]) streamsAsRendered(cut(text, size));
  });

  it("a table whose rows come across deltas, cut inside cells and rows", () => {
    const text = "Intro\n\n| a | b |\n| --- | :-: |\n| 1 | `2` |\n| **x** | y |\n\nAfter the table.\n";
    for (const size of [1, 3, 4, 9]) streamsAsRendered(cut(text, size));
  });

  it("CRLF line ends, a CR and its LF in different deltas, in paragraphs, a list and a fence", () => {
    streamsAsRendered([
      "Line one\r",
      "\nline two\r\n\r",
      "\n- a\r",
      "\n- b\r\n\r\n```\r",
      "\ncode\r\n```\r\n",
    ]);
    const text = "Para\r\nmore\r\n\r\n| h | i |\r\n| - | - |\r\n| 1 | 2 |\r\n\r\nEnd.\r\n";
    for (const size of [1, 2, 5]) streamsAsRendered(cut(text, size));
  });
});
