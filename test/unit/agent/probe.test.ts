import assert from "node:assert/strict";
import { marked } from "marked";
import { learned, markdown, probe, type Report } from "../../../src/agent";
import {
  answer,
  calling,
  finish,
  httpError,
  openaiServer,
  reasoning,
  stall,
  text,
  toolCall,
  usage,
  type Dialect,
  type FixtureServer,
  type Reply,
} from "../../fixtures/openai-server";
import { table } from "./report-table";

const WRITTEN = '<tool_call>\n{"name": "echo", "arguments": {"word": "ping"}}\n</tool_call>';

describe("agent: probe (Check Endpoint)", () => {
  let server: FixtureServer;
  beforeEach(async () => {
    server = await openaiServer();
    server.models = [{ id: "m", object: "model", context_length: 32_768 }, { id: "other" }];
  });
  afterEach(() => server.close());

  const check = (options: { timeoutMs?: number; signal?: AbortSignal } = {}): Promise<Report> =>
    probe({ baseURL: server.baseURL, apiKey: "k", model: "m" }, options);

  /** The plain answer, the tool request, the image request (and more when the tools are described). */
  function full(plain: Reply = answer("ready"), ...rest: Reply[]): void {
    server.script(
      plain,
      ...(rest.length ? rest : [calling([["c1", "echo", '{"word":"ping"}']]), answer("Red")]),
    );
  }

  it("a full-featured endpoint: streaming, usage, native calls, reasoning, window and images", async () => {
    full(
      {
        events: [
          ...reasoning("The person wants a word.", "reasoning_content", 5),
          ...text("ready", 2),
          finish(),
          usage(12, 3),
        ],
      },
      calling([["c1", "echo", '{"word":"ping"}']]),
      answer("Red"),
    );
    const report = await check();
    assert.equal(report.requests, 4);
    assert.deepEqual(
      [report.reachable.ok, report.window.tokens, report.streaming.ok, report.usage.ok, report.tools.mode],
      [true, 32_768, true, true, "native"],
    );
    assert.deepEqual(report.reasoning.fields, ["reasoning_content"]);
    assert.equal(report.images.ok, true);
    assert.equal(report.tools.note, 'It calls tools natively: echo({"word":"ping"}).');
    assert.equal(report.usage.note, "A usage chunk came at the end (12 tokens read, 3 written).");
    assert.equal(report.images.note, 'It accepts an image (asked the colour of a red pixel, it said "Red").');
    assert.ok(report.streaming.firstMs! >= 0 && report.streaming.totalMs! >= report.streaming.firstMs!);
    assert.equal(report.streaming.pieces, 8, "5 reasoning and 3 text pieces");
    assert.equal(
      report.verdict.note,
      "Tandem can use m: it streams, with native tool calls, reasoning in reasoning_content, a 32,768-token window and image input.",
    );
    assert.deepEqual(learned(report), {
      window: 32_768,
      textTools: false,
      reasoning: "reasoning_content",
      images: true,
    });

    // Sent as Tandem sends a turn: streamed with usage, small token caps, one tool, one PNG data URL.
    const [plain, tools, image] = server.requests.map((r) => r.body);
    assert.deepEqual(plain.stream_options, { include_usage: true });
    assert.equal(plain.max_tokens, 64);
    assert.equal((tools.tools as { function: { name: string } }[])[0].function.name, "echo");
    const content = (image.messages as { content: { type: string; image_url?: { url: string } }[] }[])[0]
      .content;
    assert.match(content[1].image_url!.url, /^data:image\/png;base64,/);
    assert.equal(server.all[0].path, "/v1/models");
    assert.equal(server.all[0].headers.authorization, "Bearer k");
  });

  it("reads as Markdown: the verdict, a table of every check, and what Tandem will use", async () => {
    full(answer("ready"));
    const md = markdown(await check());
    assert.ok(md.startsWith("# Endpoint check: m\n"));
    assert.ok(md.includes(`\`${server.baseURL}\` · 4 requests in `));
    assert.ok(md.includes("**✅ Tandem can use m: it streams, with native tool calls, no reasoning seen,"));
    const rows = table(md);
    assert.deepEqual(
      rows.map((r) => [r[0], r[1]]),
      [
        ["Reachable", "✅ yes"],
        ["Context window", "✅ 32,768 tokens"],
        ["Streaming", "✅ yes"],
        ["Usage in the stream", "✅ yes"],
        ["Tool calls", "✅ native"],
        ["Reasoning", "❌ no"],
        ["Image input", "✅ yes"],
      ],
    );
    assert.equal(rows[0][2], "It answers and lists m among its 2 models.");
    assert.ok(
      md.includes("## What Tandem will use for m\n\n- Context window: 32,768 tokens.\n- Tool calls: native"),
    );
  });

  it("an endpoint that refuses tools: the tools described in the instructions, calls written as text", async () => {
    server.rejectTools = "tools param requires --jinja flag";
    server.script(answer("ready"), { events: [...text(WRITTEN, 7), finish(), usage(30, 20)] }, answer("red"));
    const report = await check();
    assert.deepEqual([report.tools.ok, report.tools.mode, report.tools.described], [true, "refused", true]);
    assert.equal(
      report.tools.note,
      'It refuses the tools field (400 tools param requires --jinja flag); described in the instructions, it calls by writing echo({"word":"ping"}): Tandem will call tools that way.',
    );
    assert.deepEqual(learned(report), { window: 32_768, textTools: true, images: true });
    // The refused request, then the same one with the tools in the instructions and no tools field
    // (and, last, the check of response_format, which the script left unanswered).
    assert.equal(server.requests.length, 5);
    const retried = server.requests[2].body;
    assert.equal(retried.tools, undefined);
    const system = (retried.messages as { role: string; content: string }[])[0];
    assert.equal(system.role, "system");
    assert.match(system.content, /- echo: Repeats a word back\./);
    assert.ok(report.verdict.note.includes("with tool calls written as text,"));
    assert.equal(table(markdown(report))[4][1], "✅ refused; as text");
    assert.ok(markdown(report).includes("- Tool calls: described in the instructions"));
  });

  it("a model that writes the call as text though tools were sent natively", async () => {
    full(answer("ready"), { events: [...text(WRITTEN, 5), finish(), usage(30, 20)] }, answer("red"));
    const report = await check();
    assert.deepEqual([report.tools.ok, report.tools.mode], [true, "text"]);
    assert.match(
      report.tools.note,
      /^It writes the call as text instead of a native call \(echo\(\{"word":"ping"\}\)\)/,
    );
    assert.equal(learned(report).textTools, true);
    // The fifth checks response_format, as for every model without native calls.
    assert.equal(report.requests, 5);
  });

  it("a model that calls no tool, natively or described: tools will not work", async () => {
    full(answer("ready"), answer("Sure! ping"), answer("I cannot call tools."), answer("red"));
    const report = await check();
    assert.deepEqual([report.tools.ok, report.tools.mode, report.tools.described], [false, "ignored", false]);
    assert.equal(
      report.tools.note,
      'It was offered the tool but did not call it (it wrote "Sure! ping"), and did not call the tool when it was described in the instructions either: tools will not work with this model.',
    );
    assert.equal(learned(report).textTools, undefined);
    assert.ok(report.verdict.note.includes("with no tool calls,"));
  });

  const dialects: [Dialect, string[]][] = [
    ["reasoning_content", ["reasoning_content"]],
    ["reasoning", ["reasoning"]],
    ["details", ["reasoning_details"]],
    ["think", ["think"]],
  ];
  for (const [dialect, fields] of dialects) {
    it(`names the reasoning dialect: ${dialect}`, async () => {
      full({
        events: [...reasoning("Thinking it over.", dialect, 4), ...text("ready"), finish(), usage(5, 5)],
      });
      const report = await check();
      assert.deepEqual(report.reasoning.fields, fields);
      assert.equal(report.reasoning.ok, true);
      const where = dialect === "think" ? "<think> tags in its text" : `the ${fields[0]} field`;
      assert.equal(report.reasoning.note, `It reasons in ${where}: Tandem shows it as reasoning.`);
      // The answer's text is what is left once the reasoning is taken out.
      assert.match(report.streaming.note, /: "ready"\)\.$/);
      const md = markdown(report);
      assert.equal(table(md)[5][1], `✅ ${dialect === "think" ? "<think> tags" : fields[0]}`);
      assert.ok(!md.includes("<think>"), "the tag is escaped, not raw HTML");
    });
  }

  it("an endpoint that sends no usage chunk", async () => {
    full({ events: [...text("ready", 2), finish()] });
    const report = await check();
    assert.equal(report.usage.ok, false);
    assert.equal(
      report.usage.note,
      "No usage chunk came: Tandem cannot count this model's tokens or show how full the context is.",
    );
    assert.equal(report.streaming.ok, true);
  });

  it("an image refused with a 4xx that names images, or any 4xx only on the image request", async () => {
    full(
      answer("ready"),
      calling([["c1", "echo", "{}"]]),
      httpError(400, "This model does not support image input."),
    );
    let report = await check();
    assert.equal(report.images.ok, false);
    assert.equal(report.images.note, "It refuses images (400 This model does not support image input.).");
    assert.equal(learned(report).images, false);
    assert.ok(report.verdict.note.endsWith("and no image input."));
    assert.equal(table(markdown(report))[6][1], "❌ refused");

    full(answer("ready"), calling([["c1", "echo", "{}"]]), httpError(422, "content must be a string"));
    report = await check();
    assert.deepEqual(
      [report.images.ok, report.images.note],
      [false, "It refuses images (422 content must be a string)."],
    );

    // A server failure says nothing about images.
    full(answer("ready"), calling([["c1", "echo", "{}"]]), httpError(503, "overloaded"));
    report = await check();
    assert.equal(report.images.ok, undefined);
    assert.equal(report.images.note, `The endpoint ${server.baseURL} failed (503): overloaded`);
  });

  it("a model not listed that is not served either: says so and stops", async () => {
    server.models = [{ id: "llama3:8b" }, { id: "qwen3:4b" }];
    server.script(httpError(404, "model 'm' not found"));
    const report = await check();
    assert.equal(report.reachable.ok, false);
    assert.equal(
      report.reachable.note,
      "It answers, but m is not among the 2 models it lists: llama3:8b, qwen3:4b.",
    );
    assert.equal(report.requests, 2);
    assert.equal(report.verdict.ok, false);
    assert.equal(
      report.verdict.note,
      `Tandem cannot use m at ${server.baseURL}: The model m is not served at ${server.baseURL} (404 model 'm' not found).`,
    );
    assert.deepEqual(
      [report.tools.ok, report.tools.note, report.images.note],
      [undefined, "Not checked.", "Not checked."],
    );
    assert.deepEqual(learned(report), {});
    assert.ok(markdown(report).includes("Nothing learned: Tandem keeps its defaults for this model."));
  });

  it("a model not listed that answers anyway: a warning on the list, not on the verdict", async () => {
    server.models = [{ id: "m:latest" }];
    full();
    const report = await check();
    assert.equal(report.reachable.ok, false);
    assert.equal(report.window.ok, undefined);
    assert.equal(report.verdict.ok, true);
    assert.ok(report.verdict.note.includes("an unknown window"));
  });

  it("asks for max_completion_tokens when the model refuses max_tokens", async () => {
    const capped = (r: { body: Record<string, unknown> }): Reply =>
      r.body.max_tokens !== undefined
        ? httpError(
            400,
            "Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.",
          )
        : answer("ready");
    server.script(capped, capped, calling([["c1", "echo", "{}"]]), answer("red"));
    const report = await check();
    assert.equal(report.streaming.ok, true);
    assert.deepEqual(
      server.requests.map((r) => [r.body.max_tokens, r.body.max_completion_tokens]),
      [
        [64, undefined],
        [undefined, 64],
        [undefined, 512],
        [undefined, 16],
      ],
    );
    assert.equal(learned(report).limit, "max_completion_tokens");
    assert.match(markdown(report), /Token cap: sent as `max_completion_tokens`/);
  });

  it("finds an answer that starts inside reasoning (a lone </think>) and the field reasoning goes back in", async () => {
    server.script(
      { events: [...text("The person wants one word.</think>\n\nready", 4), finish(), usage(12, 3)] },
      {
        events: [
          ...reasoning("I call echo.", "reasoning_content", 4),
          ...toolCall(0, "c1", "echo", '{"word":"ping"}'),
          finish("tool_calls"),
          usage(12, 3),
        ],
      },
      answer("Red"),
    );
    const report = await check();
    assert.equal(report.reasoning.opens, true);
    assert.deepEqual(learned(report), {
      window: 32_768,
      textTools: false,
      reasoning: "reasoning_content",
      opens: true,
      images: true,
    });
    assert.match(markdown(report), /Reasoning: sent back in `reasoning_content` on tool-call turns/);
  });

  it("a step that times out does not stop the others", async () => {
    full({ events: [stall()] });
    const report = await check({ timeoutMs: 300 });
    assert.deepEqual([report.streaming.ok, report.streaming.note], [false, "No answer within 300 ms."]);
    assert.equal(report.usage.ok, undefined);
    assert.deepEqual([report.tools.mode, report.images.ok], ["native", true]);
    assert.equal(
      report.verdict.note,
      `m at ${server.baseURL} did not stream an answer: No answer within 300 ms.`,
    );
    await server.closes();
  });

  it("stops when asked, without throwing", async () => {
    full({ events: [stall()] });
    const halt = new AbortController();
    // Stopped once the check waits on the stalled stream (after listing the model).
    const stopping = (async () => {
      while (server.requests.length < 1) await new Promise((resolve) => setImmediate(resolve));
      halt.abort();
    })();
    const report = await check({ signal: halt.signal });
    await stopping;
    assert.equal(report.verdict.note, `Tandem cannot use m at ${server.baseURL}: The check was stopped.`);
    assert.equal(report.requests, 2);
    await server.closes();
  });

  it("with no model set, lists the models the endpoint serves and sends nothing else", async () => {
    const saved = process.env.AI_MODEL;
    delete process.env.AI_MODEL;
    try {
      const report = await probe({ baseURL: server.baseURL, apiKey: "k" });
      assert.equal(report.requests, 1);
      assert.deepEqual(report.reachable.models, ["m", "other"]);
      assert.equal(
        report.verdict.note,
        `No model is set for ${server.baseURL}: choose one of the models it lists: m, other.`,
      );
      assert.ok(markdown(report).startsWith("# Endpoint check: no model\n"));
    } finally {
      if (saved !== undefined) process.env.AI_MODEL = saved;
    }
  });

  it("Markdown from outside is escaped: no raw HTML, no broken table", async () => {
    server.models = [{ id: "m", context_length: 8192 }];
    full(
      answer("ready"),
      calling([["c1", "echo", "{}"]]),
      httpError(400, "bad <img src=x onerror=alert(1)> | image_url"),
    );
    const md = markdown(await check());
    const html = await marked.parse(md);
    assert.ok(!/<img|<script/i.test(html), "no tag from the server's message reaches the HTML");
    const rows = table(md);
    assert.equal(rows.length, 7);
    assert.equal(rows[6][2], "It refuses images (400 bad <img src=x onerror=alert(1)> | image_url).");
  });
});
