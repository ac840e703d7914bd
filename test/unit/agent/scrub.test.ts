import assert from "node:assert/strict";
import { agent, endpoint, run, type Piece } from "../../../src/agent";
import { HIDDEN, scrub } from "../../../src/agent/scrub";
import { httpError, openaiServer, type FixtureServer, type Received } from "../../fixtures/openai-server";
import { fast } from "./helpers";

const KEY = "sk-live-0123456789abcdefGHIJ/+=";

describe("agent: the API key is cut out of what a server says", () => {
  it("cuts the key as it is, after Bearer, escaped in JSON, URL-encoded, and cut off", () => {
    const said = [
      `Authorization: Bearer ${KEY}`,
      JSON.stringify({ headers: { authorization: `Bearer ${KEY}` } }),
      `https://log.example/?auth=${encodeURIComponent(`Bearer ${KEY}`)}`,
      `key starts ${KEY.slice(0, 14)}`,
    ].join("\n");
    const out = scrub(said, KEY);
    assert.ok(!out.includes(KEY.slice(0, 10)), out);
    assert.ok(!out.includes(encodeURIComponent(KEY).slice(0, 10)), out);
    assert.equal(out.split(HIDDEN).length - 1, 4, out);
    assert.match(out, /^Authorization: Bearer \[key hidden\]$/m);
  });

  it("escapes a key with quotes and backslashes the way JSON writes it", () => {
    const key = 'abc"def\\ghi-012345';
    assert.equal(scrub(JSON.stringify({ key }), key), `{"key":"${HIDDEN}"}`);
  });

  it("leaves text alone when there is no key to hide, or the SDK's stand-in", () => {
    assert.equal(scrub("no key none here", "none"), "no key none here");
    assert.equal(scrub("abc", undefined), "abc");
    assert.equal(scrub("the key abc", "abc"), "the key abc");
  });

  describe("through the openai SDK, against a server that echoes the Authorization header", () => {
    let server: FixtureServer;
    beforeEach(async () => {
      server = await openaiServer();
    });
    afterEach(() => server.close());

    it("the turn's error says the key was refused, without the key", async () => {
      const echo = (r: Received) =>
        httpError(401, `Invalid key ${String(r.headers.authorization)} (${JSON.stringify(r.headers)})`);
      server.script(echo);
      const model = endpoint({ baseURL: server.baseURL, apiKey: KEY, model: "m", ...fast });
      const pieces: Piece[] = [];
      await assert.rejects(run(agent(model), "hi", { each: (p) => pieces.push(p) }), (e: Error) => {
        assert.ok(!e.message.includes(KEY.slice(0, 10)), e.message);
        return true;
      });
      assert.equal(server.requests[0].headers.authorization, `Bearer ${KEY}`, "the key was sent");
      const error = pieces.find((p) => p.kind === "error");
      assert.ok(error && error.kind === "error");
      assert.match(error.text, /refused the API key \(401\)/);
      assert.match(error.text, /Invalid key Bearer \[key hidden\]/);
      assert.ok(!error.text.includes(KEY.slice(0, 10)), error.text);
    });
  });
});
