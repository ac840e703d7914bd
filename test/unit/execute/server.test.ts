/** The loopback server: its key, its one path and method, size limit, JSON errors, and no CORS. */
import assert from "node:assert/strict";
import { connect } from "node:net";
import { says, scripted, type Model } from "../../../src/agent";
import { EXECUTE_PATH, serveExecute, type ExecuteServer } from "../../../src/execute";

const KEY = "test-key-0123456789";

/** The part of an answer these tests read. */
type Answer = { context: { content: string } };

const request = {
  model: "gpt-4",
  tools: [],
  messages: [{ role: "user", content: "Hello?" }],
};

describe("execute: the HTTP server", () => {
  let server: ExecuteServer;
  let model: Model;

  beforeEach(async () => {
    model = scripted(Array.from({ length: 10 }, () => says("Hi.")));
    server = await serveExecute({ key: KEY, limit: 64 * 1024, config: { resolve: () => model } });
  });

  afterEach(async () => {
    await server.close();
  });

  const post = (body: string, headers: Record<string, string> = {}) =>
    fetch(`${server.url}${EXECUTE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY, ...headers },
      body,
    });

  it("listens on 127.0.0.1 only, at a free port", async () => {
    assert.match(server.url, /^http:\/\/127\.0\.0\.1:\d+$/);
    assert.ok(server.port > 0);
    /** Whether a TCP connection to `host` at the server's port is taken. */
    const reaches = (host: string) =>
      new Promise<boolean>((resolve) => {
        const socket = connect({ host, port: server.port }, () => {
          socket.destroy();
          resolve(true);
        });
        socket.on("error", () => resolve(false));
      });
    assert.equal(await reaches("127.0.0.1"), true);
    // A server bound to every address (0.0.0.0 or ::) would take this one too.
    assert.equal(await reaches("127.0.0.2"), false, "it answers on another address than 127.0.0.1");
  });

  it("answers a valid request with the agent's content", async () => {
    const res = await post(JSON.stringify(request));
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("content-type"), "application/json");
    assert.deepEqual(await res.json(), {
      action: "content",
      context: { content: "Hi.", tool_request: null },
    });
  });

  it("takes the key as x-api-key or as a bearer token, and refuses a missing or wrong key", async () => {
    const bearer = await post(JSON.stringify(request), { "x-api-key": "", authorization: `Bearer ${KEY}` });
    assert.equal(bearer.status, 200);
    for (const headers of [
      { "x-api-key": "" },
      { "x-api-key": "wrong" },
      { "x-api-key": KEY.slice(0, -1) },
    ]) {
      const res = await post(JSON.stringify(request), headers);
      assert.equal(res.status, 401);
      assert.deepEqual(await res.json(), { detail: "Missing or invalid API key" });
    }
    const none = await fetch(`${server.url}${EXECUTE_PATH}`, {
      method: "POST",
      body: JSON.stringify(request),
    });
    assert.equal(none.status, 401);
  });

  it("answers 404 for another path and 405 for another method, as JSON", async () => {
    const other = await fetch(`${server.url}/v4/agents/other`, {
      method: "POST",
      headers: { "x-api-key": KEY },
    });
    assert.equal(other.status, 404);
    assert.deepEqual(await other.json(), { detail: "Not Found" });
    const get = await fetch(`${server.url}${EXECUTE_PATH}`, { headers: { "x-api-key": KEY } });
    assert.equal(get.status, 405);
    assert.equal(get.headers.get("allow"), "POST");
    assert.deepEqual(await get.json(), { detail: "Method Not Allowed" });
  });

  it("sends no CORS headers and refuses a preflight", async () => {
    const preflight = await fetch(`${server.url}${EXECUTE_PATH}`, {
      method: "OPTIONS",
      headers: {
        origin: "https://example.com",
        "access-control-request-method": "POST",
        "access-control-request-headers": "x-api-key, content-type",
      },
    });
    assert.equal(preflight.status, 405);
    const answered = await post(JSON.stringify(request), { origin: "https://example.com" });
    for (const res of [preflight, answered])
      for (const name of res.headers.keys()) assert.ok(!name.startsWith("access-control-"), name);
  });

  it("answers 413 with JSON for a body over the limit, and still answers afterwards", async () => {
    const huge = JSON.stringify({ ...request, instructions: "x".repeat(100 * 1024) });
    const res = await post(huge);
    assert.equal(res.status, 413);
    assert.match(((await res.json()) as { detail: string }).detail, /too large/);
    const far = await post("x".repeat(1024 * 1024));
    assert.equal(far.status, 413);
    await far.json();
    assert.equal((await post(JSON.stringify(request))).status, 200);
  });

  it("answers a body that is not JSON with 422 json_invalid at the character Python's json names", async () => {
    const res = await post('{"model": "gpt-4", "tools": [}');
    assert.equal(res.status, 422);
    assert.deepEqual(await res.json(), {
      detail: [
        {
          type: "json_invalid",
          loc: ["body", 29],
          msg: "JSON decode error",
          input: {},
          ctx: { error: "Expecting value" },
        },
      ],
    });
  });

  it("answers an empty body with 422 missing, and a non-JSON content type as FastAPI does", async () => {
    const empty = await post("");
    assert.equal(empty.status, 422);
    assert.deepEqual(await empty.json(), {
      detail: [{ type: "missing", loc: ["body"], msg: "Field required", input: null }],
    });
    const text = await post(JSON.stringify(request), { "content-type": "text/plain" });
    assert.equal(text.status, 422);
    const [problem] = ((await text.json()) as { detail: { loc: unknown[]; type: string; input: unknown }[] })
      .detail;
    assert.deepEqual(
      [problem.loc, problem.type, problem.input],
      [["body"], "model_attributes_type", JSON.stringify(request)],
    );
    const vendor = await post(JSON.stringify(request), {
      "content-type": "application/vnd.api+json; charset=utf-8",
    });
    assert.equal(vendor.status, 200);
  });

  it("answers a body that is not UTF-8 with 400 and a JSON detail", async () => {
    const res = await fetch(`${server.url}${EXECUTE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": KEY },
      body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]),
    });
    assert.equal(res.status, 400);
    assert.deepEqual(await res.json(), { detail: "There was an error parsing the body" });
  });

  it("answers a model's failure with 502 and a readable message, never a stack", async () => {
    model = {
      name: "broken",
      turn: async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:9\n    at TCPConnectWrap.afterConnect");
      },
    };
    const res = await post(JSON.stringify(request));
    assert.equal(res.status, 502);
    const body = (await res.json()) as { detail: string };
    assert.equal(body.detail, "The model failed: connect ECONNREFUSED 127.0.0.1:9");
  });

  it("answers concurrent requests each with its own answer", async () => {
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        post(JSON.stringify({ ...request, messages: [{ role: "user", content: `n${i}` }] })).then(
          (r) => r.status,
        ),
      ),
    );
    assert.deepEqual(answers, Array(8).fill(200));
  });

  it("reads a configuration given as a function at each request: a mapping changed after the start is used", async () => {
    await server.close();
    const mapped: Record<string, string> = { "gpt-4": "first" };
    const models: Record<string, Model> = {
      first: scripted([says("From the first.")]),
      second: scripted([says("From the second.")]),
    };
    server = await serveExecute({
      key: KEY,
      config: () => ({ models: { ...mapped }, resolve: (id) => models[id] }),
    });
    const content = async () =>
      ((await (await post(JSON.stringify(request))).json()) as Answer).context.content;
    assert.equal(await content(), "From the first.");
    // The person maps the name to another model while the server runs.
    mapped["gpt-4"] = "second";
    assert.equal(await content(), "From the second.");
  });

  it("refuses to start without a key", async () => {
    await assert.rejects(serveExecute({ key: "", config: { resolve: () => model } }), /API key/);
  });
});
