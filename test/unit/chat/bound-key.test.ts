/** A stored key is bound to the origin it was set for: another origin gets it only when the person says yes. */
import assert from "node:assert/strict";
import {
  KeyChooser,
  keyName,
  originOf,
  readStoredKey,
  storeKey,
  storedKey,
  ENV_ENDPOINT,
  type KeyOptions,
} from "../../../src/chat/models/bound-key";
import type { Secrets } from "../../../src/chat/row-schemas";

const KEY = "sk-person-0123456789";

/** A secret storage in memory, as VS Code's SecretStorage behaves. */
function memory(entries: Record<string, string> = {}): Secrets & { values: Map<string, string> } {
  const values = new Map(Object.entries(entries));
  return {
    values,
    get: async (k) => values.get(k),
    store: async (k, v) => void values.set(k, v),
    delete: async (k) => void values.delete(k),
  };
}

/** A chooser over `secrets` whose person answers `yes`, recording each question. */
function chooser(secrets: Secrets, yes: boolean, extra: Partial<KeyOptions> = {}) {
  const questions: string[] = [];
  const keys = new KeyChooser({
    secrets,
    ask: async (endpoint, origin, bound) => (questions.push(`${endpoint}: ${bound} -> ${origin}`), yes),
    ...extra,
  });
  return { keys, questions };
}

describe("chat: keys bound to the origin they were set for", () => {
  it("names an origin by scheme, host and port", () => {
    assert.equal(originOf("https://api.openai.com/v1"), "https://api.openai.com");
    assert.equal(originOf("https://api.openai.com:443/v1"), "https://api.openai.com");
    assert.equal(originOf("http://127.0.0.1:11434/v1"), "http://127.0.0.1:11434");
    assert.equal(originOf("not a url"), undefined);
  });

  it("keeps the key with the origin the person set it for (Set API Key)", async () => {
    const secrets = memory();
    await storeKey(secrets, "openai", KEY, "https://api.openai.com/v1");
    assert.deepEqual(readStoredKey(secrets.values.get(keyName("openai"))), {
      key: KEY,
      origin: "https://api.openai.com",
    });
  });

  it("sends the key to its own origin without asking", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    const { keys, questions } = chooser(secrets, false);
    assert.deepEqual(await keys.keyFor("openai", "https://api.openai.com/v1/"), { key: KEY });
    assert.deepEqual(questions, []);
  });

  it("asks before another origin gets it; no keeps it home and says why, once per session", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    const { keys, questions } = chooser(secrets, false);
    const sent = await keys.keyFor("openai", "https://x.example/v1");
    assert.equal(sent.key, undefined);
    assert.match(
      sent.withheld ?? "",
      /not sent to https:\/\/x\.example: it was set for https:\/\/api\.openai\.com/,
    );
    assert.deepEqual(questions, ["openai: https://api.openai.com -> https://x.example"]);
    // The model listing asks again and again: the person's no holds without a second question.
    assert.equal((await keys.keyFor("openai", "https://x.example/v1")).key, undefined);
    assert.equal(questions.length, 1);
    assert.equal(readStoredKey(secrets.values.get(keyName("openai")))?.origin, "https://api.openai.com");
  });

  it("yes sends it and binds it to the new origin", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    const { keys, questions } = chooser(secrets, true);
    assert.deepEqual(await keys.keyFor("openai", "https://proxy.example/v1"), { key: KEY });
    assert.equal(readStoredKey(secrets.values.get(keyName("openai")))?.origin, "https://proxy.example");
    assert.deepEqual(await keys.keyFor("openai", "https://proxy.example/v1"), { key: KEY });
    assert.equal(questions.length, 1);
  });

  it("asks once when the listing and a turn want the key at the same time", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    let answer: (yes: boolean) => void = () => undefined;
    let asked = 0;
    const keys = new KeyChooser({
      secrets,
      ask: () => (asked++, new Promise<boolean>((resolve) => (answer = resolve))),
    });
    const both = Promise.all([
      keys.keyFor("openai", "https://x.example"),
      keys.keyFor("openai", "https://x.example"),
    ]);
    await new Promise((r) => setImmediate(r));
    answer(false);
    assert.deepEqual(
      (await both).map((s) => s.key),
      [undefined, undefined],
    );
    assert.equal(asked, 1);
  });

  it("binds a key stored before keys were bound to the origin of the person's settings, on first use", async () => {
    const secrets = memory({ [keyName("openai")]: KEY });
    const { keys, questions } = chooser(secrets, false);
    assert.deepEqual(await keys.keyFor("openai", "https://api.openai.com/v1"), { key: KEY });
    assert.deepEqual(readStoredKey(secrets.values.get(keyName("openai"))), {
      key: KEY,
      origin: "https://api.openai.com",
    });
    assert.equal((await keys.keyFor("openai", "https://elsewhere.example/v1")).key, undefined);
    assert.equal(questions.length, 1);
  });

  it("gives AI_API_KEY to AI_URL's origin only, unless the person says yes", async () => {
    const env = { key: KEY, origin: "https://openrouter.ai" };
    const no = chooser(memory(), false, { env });
    assert.deepEqual(await no.keys.keyFor(ENV_ENDPOINT, "https://openrouter.ai/api/v1"), { key: KEY });
    assert.equal((await no.keys.keyFor(ENV_ENDPOINT, "https://x.example/v1")).key, undefined);
    assert.deepEqual(no.questions, ["env: https://openrouter.ai -> https://x.example"]);
    // Another endpoint never gets the environment's key.
    assert.deepEqual(await no.keys.keyFor("openai", "https://openrouter.ai/api/v1"), {});
    const yes = chooser(memory(), true, { env });
    assert.deepEqual(await yes.keys.keyFor(ENV_ENDPOINT, "https://x.example/v1"), { key: KEY });
  });

  it("sends nothing to a base URL that is not a URL, and nothing when there is no key", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    const { keys } = chooser(secrets, true);
    assert.match((await keys.keyFor("openai", "api.openai.com")).withheld ?? "", /not a URL/);
    assert.deepEqual(await keys.keyFor("ollama", "http://127.0.0.1:11434/v1"), {});
  });

  it("forgets a no once the person sets the key again", async () => {
    const secrets = memory({
      [keyName("openai")]: storedKey({ key: KEY, origin: "https://api.openai.com" }),
    });
    const { keys, questions } = chooser(secrets, false);
    await keys.keyFor("openai", "https://x.example");
    keys.forget("openai");
    await keys.keyFor("openai", "https://x.example");
    assert.equal(questions.length, 2);
  });
});
