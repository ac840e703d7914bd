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

  it("still finds what a normal search finds, with the same pattern rules", async () => {
    const answer = await searchText({ root }, {}, { query: "pla.n", regex: true }, { deadlineMs: 10_000 });
    assert.equal(answer, "1 match for /pla.n/ in 1 file:\nb.txt:1: plain text");
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
