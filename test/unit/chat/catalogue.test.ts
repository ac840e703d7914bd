import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import {
  catalogue,
  editorChoices,
  endpointChoices,
  endpointOf,
  localBaseURL,
  localChoices,
  localOnlyModel,
  placeOf,
  type EndpointSetting,
  type LocalServer,
} from "../../../src/chat/models/catalogue";
import { choiceOf, EDITOR_GROUP, ENDPOINT_GROUP, LOCAL_GROUP } from "../../../src/chat/make";

/** A route's answer: a status and a body (JSON unless a string), or "hang" to never answer. */
type Answer = { status?: number; body: unknown } | "hang";

interface Site {
  port: number;
  base: string;
  seen: { path: string; authorization?: string }[];
  close(): Promise<void>;
}

/** A real HTTP server on 127.0.0.1 that answers ROUTES by path (404 for others). */
async function site(routes: Record<string, Answer>): Promise<Site> {
  const seen: Site["seen"] = [];
  const server = http.createServer((req, res) => {
    seen.push({ path: req.url ?? "", authorization: req.headers.authorization });
    const answer = routes[req.url ?? ""];
    if (answer === "hang") return;
    if (!answer)
      return void res.writeHead(404, { "content-type": "application/json" }).end('{"error":"not found"}');
    const text = typeof answer.body === "string" ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { "content-type": "application/json" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    port,
    base: `http://127.0.0.1:${port}/v1`,
    seen,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** A port nothing listens on. */
async function deadPort(): Promise<number> {
  const s = await site({});
  await s.close();
  return s.port;
}

const openaiList = (...ids: string[]) => ({
  body: { object: "list", data: ids.map((id) => ({ id, object: "model" })) },
});

describe("endpoint models", function () {
  this.timeout(10_000);
  const sites: Site[] = [];
  after(async () => {
    await Promise.all(sites.map((s) => s.close()));
  });
  async function started(routes: Record<string, Answer>): Promise<Site> {
    const s = await site(routes);
    sites.push(s);
    return s;
  }

  it("lists the default endpoint's models by their bare ids, sorted, with what it says of them", async () => {
    const s = await started({
      "/v1/models": {
        body: {
          data: [
            { id: "zeta", owned_by: "acme" },
            { id: "alpha", context_length: 131072 },
            { id: "alpha" },
            { id: "" },
            { nothing: true },
          ],
        },
      },
    });
    const rows = await endpointChoices({ name: "", baseURL: s.base, apiKey: "sk-test" });
    assert.deepEqual(rows, [
      { id: "alpha", name: "alpha", group: ENDPOINT_GROUP, note: "128k context" },
      { id: "zeta", name: "zeta", group: ENDPOINT_GROUP, note: "acme" },
    ]);
    assert.equal(s.seen[0].authorization, "Bearer sk-test");
  });

  it("gives another endpoint's models ids with its name, under its name", async () => {
    const s = await started({ "/v1/models": openaiList("openai/gpt-4o", "qwen3:8b") });
    const rows = await endpointChoices({ name: "Open/Router", baseURL: s.base }, 1);
    assert.deepEqual(
      rows.map((r) => [r.id, r.group]),
      [
        ["endpoint:Open_Router/openai/gpt-4o", "Open/Router"],
        ["endpoint:Open_Router/qwen3:8b", "Open/Router"],
      ],
    );
    const place = endpointOf(rows[0].id, [
      { name: "Default", baseURL: "http://x/v1" },
      { name: "Open/Router", baseURL: s.base },
    ]);
    assert.equal(place?.endpoint.baseURL, s.base);
    assert.equal(place?.model, "openai/gpt-4o");
  });

  it("lists the configured model first when the endpoint does not list it", async () => {
    const s = await started({ "/v1/models": openaiList("a") });
    const rows = await endpointChoices({ name: "", baseURL: s.base, model: "hidden-model" });
    assert.deepEqual(
      rows.map((r) => [r.id, r.note]),
      [
        ["hidden-model", "not in its list"],
        ["a", ""],
      ],
    );
  });

  const failures: [string, Record<string, Answer>, RegExp][] = [
    [
      "refuses the key",
      { "/v1/models": { status: 401, body: { error: { message: "bad key" } } } },
      /HTTP 401: .*bad key/,
    ],
    ["fails inside", { "/v1/models": { status: 500, body: { error: { message: "boom" } } } }, /HTTP 500/],
    ["has no list", {}, /HTTP 404/],
    ["answers what is not JSON", { "/v1/models": { body: "<html>" } }, /is not JSON/],
    [
      "answers JSON that is no list",
      { "/v1/models": { body: { models: "none" } } },
      /is not a list of models/,
    ],
    ["does not answer in time", { "/v1/models": "hang" }, /could not list models: it did not answer in time/],
  ];
  for (const [what, routes, note] of failures) {
    it(`gives a note, not an error, when the endpoint ${what}`, async () => {
      const s = await started(routes);
      const started_ = Date.now();
      const rows = await endpointChoices({ name: "Work", baseURL: s.base, model: "m1" }, 0, 500);
      assert.ok(Date.now() - started_ < 2500);
      assert.equal(rows.length, 1);
      assert.equal(rows[0].id, "m1");
      assert.equal(rows[0].group, "Work");
      assert.match(rows[0].note, /^could not list models: /);
      assert.match(rows[0].note, note);
    });
  }

  it("names an endpoint that cannot be reached and has no model set", async () => {
    const port = await deadPort();
    const rows = await endpointChoices({ name: "Lab", baseURL: `http://127.0.0.1:${port}/v1` }, 2, 500);
    assert.deepEqual(rows, [
      { id: "endpoint:Lab", name: "Lab", group: "Lab", note: "could not list models: connection refused" },
    ]);
  });
});

describe("local model servers", function () {
  this.timeout(10_000);

  it("are found by a quick probe of their ports, all at once, and listed in their order", async () => {
    const ollama = await site({
      "/api/tags": {
        body: {
          models: [
            { name: "qwen3:8b", details: { parameter_size: "8.2B", quantization_level: "Q4_K_M" } },
            { name: "llama3.2:1b", details: {} },
          ],
        },
      },
    });
    const lmstudio = await site({ "/v1/models": openaiList("google/gemma-3-4b") });
    const vllm = await site({ "/v1/models": "hang" });
    const nothing = await deadPort();
    const servers: LocalServer[] = [
      { name: "ollama", label: "Ollama", port: ollama.port },
      { name: "lmstudio", label: "LM Studio", port: lmstudio.port },
      { name: "llamacpp", label: "llama.cpp", port: nothing },
      { name: "vllm", label: "vLLM", port: vllm.port },
    ];
    try {
      const started = Date.now();
      const rows = await localChoices(servers, "127.0.0.1", 300);
      assert.ok(Date.now() - started < 1200, "the probes run side by side, each within its time");
      assert.deepEqual(rows, [
        { id: "local:ollama/llama3.2:1b", name: "llama3.2:1b", group: LOCAL_GROUP, note: "Ollama" },
        { id: "local:ollama/qwen3:8b", name: "qwen3:8b", group: LOCAL_GROUP, note: "Ollama · 8.2B Q4_K_M" },
        {
          id: "local:lmstudio/google/gemma-3-4b",
          name: "google/gemma-3-4b",
          group: LOCAL_GROUP,
          note: "LM Studio",
        },
      ]);
      assert.deepEqual(choiceOf(rows[0].id).group, LOCAL_GROUP);
      assert.deepEqual(placeOf(rows[2].id), {
        where: "local",
        server: "lmstudio",
        model: "google/gemma-3-4b",
      });
      assert.equal(localBaseURL(servers[1]), `http://127.0.0.1:${lmstudio.port}/v1`);
    } finally {
      await Promise.all([ollama.close(), lmstudio.close(), vllm.close()]);
    }
  });

  it("find an Ollama that answers only the OpenAI-compatible list", async () => {
    const ollama = await site({ "/v1/models": openaiList("phi4") });
    try {
      const rows = await localChoices([{ name: "ollama", label: "Ollama", port: ollama.port }]);
      assert.deepEqual(
        rows.map((r) => r.id),
        ["local:ollama/phi4"],
      );
    } finally {
      await ollama.close();
    }
  });

  it("ignore a port that answers something else", async () => {
    const web = await site({ "/v1/models": { body: { hello: "world" } }, "/api/tags": { body: "not json" } });
    try {
      assert.deepEqual(await localChoices([{ name: "ollama", label: "Ollama", port: web.port }]), []);
    } finally {
      await web.close();
    }
  });
});

describe("the catalogue", function () {
  this.timeout(10_000);

  it("groups endpoints, this computer and the editor, in a stable order", async () => {
    const main = await site({ "/v1/models": openaiList("gpt-b", "gpt-a") });
    const second = await site({ "/v1/models": { status: 403, body: { error: { message: "no" } } } });
    const ollama = await site({ "/api/tags": { body: { models: [{ name: "qwen3:8b" }] } } });
    const endpoints: EndpointSetting[] = [
      { name: "", baseURL: main.base },
      { name: "Team", baseURL: second.base, model: "team-model" },
    ];
    const options = {
      endpoints,
      local: [{ name: "ollama", label: "Ollama", port: ollama.port }],
      editor: [
        { vendor: "copilot", id: "gpt-4o", name: "GPT-4o", maxInputTokens: 64000 },
        { vendor: "copilot", id: "gpt-4o", name: "again" },
        { vendor: "other", id: "m", name: "" },
      ],
      endpointMs: 1000,
    };
    try {
      const rows = await catalogue(options);
      assert.deepEqual(
        rows.map((r) => [r.id, r.name, r.group]),
        [
          ["gpt-a", "gpt-a", ENDPOINT_GROUP],
          ["gpt-b", "gpt-b", ENDPOINT_GROUP],
          ["endpoint:Team/team-model", "team-model", "Team"],
          ["local:ollama/qwen3:8b", "qwen3:8b", LOCAL_GROUP],
          ["vscode:copilot/gpt-4o", "GPT-4o", EDITOR_GROUP],
          ["vscode:other/m", "m", EDITOR_GROUP],
        ],
      );
      assert.match(rows[2].note, /HTTP 403/);
      assert.equal(rows[4].note, "copilot · 63k context");
      assert.deepEqual(await catalogue(options), rows);
      for (const row of rows)
        assert.equal(choiceOf(row.id).group === row.group || row.group === "Team", true);
    } finally {
      await Promise.all([main.close(), second.close(), ollama.close()]);
    }
  });

  it("leaves the editor's models out while the person works locally only, and says why one is not used", async () => {
    const ollama = await site({ "/api/tags": { body: { models: [{ name: "qwen3:8b" }] } } });
    const options = {
      local: [{ name: "ollama", label: "Ollama", port: ollama.port }],
      editor: [{ vendor: "copilot", id: "gpt-4o", name: "GPT-4o" }],
    };
    try {
      assert.deepEqual(
        (await catalogue(options)).map((r) => r.id),
        ["local:ollama/qwen3:8b", "vscode:copilot/gpt-4o"],
      );
      assert.deepEqual(
        (await catalogue({ ...options, localOnly: true })).map((r) => r.id),
        ["local:ollama/qwen3:8b"],
      );
      assert.equal(
        localOnlyModel("GPT-4o"),
        "Tandem works locally only (tandem.localOnly): the editor's model GPT-4o is not used, because VS Code may send its requests off this computer. Choose one of your endpoints' models or a model server on this computer.",
      );
    } finally {
      await ollama.close();
    }
  });

  it("is empty, not an error, when nothing is configured or found", async () => {
    const port = await deadPort();
    assert.deepEqual(await catalogue({ local: [{ name: "vllm", label: "vLLM", port }] }), []);
  });

  it("reads ids back to where their models run", () => {
    assert.deepEqual(placeOf("gpt-4o"), { where: "endpoint", endpoint: "", model: "gpt-4o" });
    assert.deepEqual(placeOf("qwen3:8b"), { where: "endpoint", endpoint: "", model: "qwen3:8b" });
    assert.deepEqual(placeOf("vscode:copilot/gpt-4o"), {
      where: "vscode",
      vendor: "copilot",
      model: "gpt-4o",
    });
    assert.deepEqual(placeOf("local:"), { where: "endpoint", endpoint: "", model: "local:" });
    assert.equal(endpointOf("vscode:copilot/x", []), undefined);
    assert.equal(endpointOf("gpt", []), undefined);
    assert.deepEqual(editorChoices([]), []);
  });
});
