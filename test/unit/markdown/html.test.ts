import assert from "node:assert/strict";
import { opening } from "../../../src/markdown/html";
import { random } from "../../fixtures/markdown-corpus";

/** What `opening` means, written plainly: strip blanks, closing tags and padding cells off the end. */
function reference(html: string): string {
  let rest = html;
  for (;;) {
    const trimmed = rest.replace(/\s+$/, "");
    const tag = /<[^<]*>$/.exec(trimmed);
    const closing = tag && /^<\/[a-z][a-z0-9]*>$/.test(tag[0]);
    const cell =
      tag && /^<t[dh](?: align="[a-z]+")?>$/.test(tag[0]) && html.startsWith("</t", trimmed.length);
    if (!tag || !(closing || cell) || trimmed.length < 4) return trimmed;
    rest = trimmed.slice(0, tag.index);
  }
}

describe("opening", () => {
  it("leaves off the closing tags, blanks and padding cells that end the HTML, and nothing else", () => {
    const next = random(7);
    const pieces = [
      "</td>",
      "<td>",
      '<td align="left">',
      "</tr>\n",
      "</p>",
      "<p>",
      "</h2>",
      "</code>",
      "</a>",
      "</1>",
      "<br>",
      "</ A>",
      "text",
      " ",
      "\n",
      "\u00a0",
      "\t",
      "</tbody></table>\n",
      "<th>",
      "</th>",
      ">",
      "<",
    ];
    for (let n = 0; n < 20000; n++) {
      let html = "";
      const count = 1 + Math.floor(next() * 8);
      for (let i = 0; i < count; i++) html += pieces[Math.floor(next() * pieces.length)];
      assert.equal(opening(html), reference(html), JSON.stringify(html));
    }
    assert.equal(opening("<p>a <em>b</em></p>\n"), "<p>a <em>b");
    assert.equal(opening("<tr>\n<td>x</td>\n<td></td>\n</tr>\n"), "<tr>\n<td>x");
  });
});
