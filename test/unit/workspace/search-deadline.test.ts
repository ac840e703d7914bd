import assert from "node:assert/strict";
import { searchText } from "../../../src/chat/workspace/search";
import { folder, write } from "./fixtures";

describe("search_text keeps the extension host running", () => {
  let root: string;
  let remove: () => void;

  beforeEach(() => {
    ({ path: root, remove } = folder());
    // ^(a|a)*$ backtracks through 2^28 ways on this 29-character line before it fails (12 s measured).
    write(root, { "a.txt": "a".repeat(28) + "!\n", "b.txt": "plain text\n" });
  });

  afterEach(() => remove());

  it("stops a catastrophic pattern at its deadline, answers what it searched, and timers run meanwhile", async () => {
    const deadlineMs = 1000;
    const started = performance.now();
    let timerLate: number | undefined;
    let answered = false;
    let firedBeforeAnswer = false;
    // A timer due 100 ms into the search: it must fire near its time, not after the pattern gives up.
    const due = started + 100;
    setTimeout(() => {
      timerLate = performance.now() - due;
      firedBeforeAnswer = !answered;
    }, 100);
    const answer = await searchText({ root }, {}, { query: "^(a|a)*$", regex: true }, { deadlineMs });
    answered = true;
    assert.match(answer, /^No match for \/\^\(a\|a\)\*\$\/ in \*\*\/\*\./);
    assert.match(
      answer,
      /\[The search stopped at its 1 s deadline; 0 files searched; narrow the pattern or the folder\.\]/,
    );
    assert.ok(firedBeforeAnswer, "the timer fired only after the search answered");
    assert.ok(
      timerLate !== undefined && timerLate < deadlineMs / 2,
      `the timer fired ${Math.round(timerLate ?? -1)} ms after its time: the thread was held`,
    );
  });

  it("keeps what it found in the files searched before the deadline", async () => {
    write(root, { "mix/1.txt": "aaa\n", "mix/2.txt": "a".repeat(28) + "!\n", "mix/3.txt": "aa\n" });
    const answer = await searchText(
      { root },
      {},
      { query: "^(a|a)*$", regex: true, glob: "mix" },
      { deadlineMs: 1000 },
    );
    assert.equal(
      answer,
      [
        "1 match for /^(a|a)*$/ in 1 file:",
        "mix/1.txt:1: aaa",
        "[The search stopped at its 1 s deadline; 1 file searched; narrow the pattern or the folder.]",
      ].join("\n"),
    );
  });

  it("still finds what a normal search finds, with the same pattern rules", async () => {
    const answer = await searchText({ root }, {}, { query: "pla.n", regex: true }, { deadlineMs: 10_000 });
    assert.equal(answer, "1 match for /pla.n/ in 1 file:\nb.txt:1: plain text");
  });

  it("keeps file order and the cap across the batches the matcher is given", async () => {
    const files: Record<string, string> = {};
    for (let i = 0; i < 150; i++)
      files[`many/f${String(i).padStart(3, "0")}.txt`] = "hit one\nmiss\nhit two\n";
    write(root, files);
    const all = await searchText({ root }, {}, { query: "hit", glob: "many", maxResults: 300 }, {});
    const lines = all.split("\n");
    assert.equal(lines[0], '300 matches for "hit" in 150 files:');
    assert.deepEqual(lines.slice(1, 5), [
      "many/f000.txt:1: hit one",
      "many/f000.txt:3: hit two",
      "many/f001.txt:1: hit one",
      "many/f001.txt:3: hit two",
    ]);
    assert.equal(lines[300], "many/f149.txt:3: hit two");
    assert.equal(lines.length, 301, "no note when nothing was left out");
    const capped = await searchText({ root }, {}, { query: "hit", glob: "many", maxResults: 251 }, {});
    const cut = capped.split("\n");
    assert.equal(cut[0], '251 matches for "hit" in 126 files:');
    assert.equal(cut[251], "many/f125.txt:1: hit one");
    assert.equal(cut[252], "[Stopped at 251 matches; narrow the query or the glob to see others.]");
  });

  it("stops the pattern when the caller stops the search", async () => {
    const stop = new AbortController();
    const search = searchText({ root }, {}, { query: "^(a|a)*$", regex: true }, { signal: stop.signal });
    let later = false;
    setTimeout(() => stop.abort(), 50);
    const check = setTimeout(() => (later = true), 1050);
    await assert.rejects(search, { name: "AbortError" });
    clearTimeout(check);
    assert.equal(later, false, "the search went on for a second after it was stopped");
  });
});
