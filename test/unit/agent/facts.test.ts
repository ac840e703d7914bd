import assert from "node:assert/strict";
import type { Memento } from "vscode";
import { factsKey, learn, learnedWords, memoryFacts } from "../../../src/agent";
import { editorFacts } from "../../../src/vscode/editor-facts";

/** The editor's global state as a plain map of JSON values (what survives a restart). */
function memento(): Memento & { raw: Map<string, string> } {
  const raw = new Map<string, string>();
  return {
    raw,
    keys: () => [...raw.keys()],
    get: <T>(key: string, fallback?: T) => (raw.has(key) ? (JSON.parse(raw.get(key)!) as T) : fallback),
    update: (key: string, value: unknown) => {
      raw.set(key, JSON.stringify(value));
      return Promise.resolve();
    },
  } as Memento & { raw: Map<string, string> };
}

describe("agent: learned facts", () => {
  it("are kept in the editor's global state and read back by a new store over it (a restart)", () => {
    const state = memento();
    const key = factsKey("http://127.0.0.1:8080/v1/", "qwen");
    assert.equal(key, "http://127.0.0.1:8080/v1 qwen");
    assert.ok(learn(editorFacts(state), key, { textTools: true, window: 8192 }));
    assert.ok(learn(editorFacts(state), key, { reasoning: "reasoning_content" }));
    assert.ok(!learn(editorFacts(state), key, { textTools: true }), "nothing new");
    const again = editorFacts(state);
    assert.deepEqual(again.get(key), { textTools: true, window: 8192, reasoning: "reasoning_content" });
    assert.equal(learnedWords(again.get(key)), "text tools · 8k window · reasoning_content");
  });

  it("ignore what does not read as facts (written by another version, or by hand)", () => {
    const state = memento();
    void state.update("tandem.learnedModels", {
      a: { window: "big" },
      b: { textTools: true, extra: 1 },
      c: [],
    });
    const facts = editorFacts(state);
    assert.equal(facts.get("a"), undefined);
    assert.deepEqual(facts.get("b"), { textTools: true, extra: 1 });
    assert.equal(facts.get("c"), undefined);
  });

  it("keep at most 200 models, forgetting the oldest learned", () => {
    const facts = editorFacts(memento());
    for (let i = 0; i < 205; i++) facts.set(`m${i}`, { window: 1000 + i });
    assert.equal(facts.get("m4"), undefined);
    assert.deepEqual(facts.get("m5"), { window: 1005 });
    assert.deepEqual(facts.get("m204"), { window: 1204 });
  });

  it("learn adds refused fields once", () => {
    const facts = memoryFacts();
    assert.ok(learn(facts, "k", { refused: ["top_k"] }));
    assert.ok(!learn(facts, "k", { refused: ["top_k"] }));
    assert.ok(learn(facts, "k", { refused: ["stop"] }));
    assert.deepEqual(facts.get("k"), { refused: ["top_k", "stop"] });
  });
});
