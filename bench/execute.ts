/**
 * The execute server under load, against a scripted model: 1000 valid requests 32 at a time, their
 * latency and the server's overhead over calling `execute()` directly (same model, same
 * concurrency, measured in this run); then 200 malformed requests, each of which must get a 4xx
 * with a JSON body, and the server must still answer afterwards.
 *
 * The server runs in a child process (this file with --serve), so the load does not share its
 * event loop. Beside it, a bare Node HTTP server that answers a canned JSON body is loaded the
 * same way: the ratio to it says what the API costs above the transport on this machine.
 */
import { spawn } from "node:child_process";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { says, scripted } from "../src/agent";
import { EXECUTE_PATH, execute, serveExecute, type ExecuteConfig } from "../src/execute";

const KEY = "bench-key";
const REQUESTS = 1000;
const CONCURRENCY = 32;
const MALFORMED = 200;
const LIMIT = 1024 * 1024;

const weather = {
  name: "get_weather",
  description: "The weather in a city",
  arguments: { type: "object", properties: { city: { type: "string", description: "The city" } } },
};

const valid = {
  model: "gpt-4",
  tools: [weather],
  messages: [
    { role: "user", content: "What is the weather in Paris?" },
    { role: "agent", tool_request: { name: "get_weather", arguments: '{"city":"Paris"}' } },
    { role: "tool", name: "get_weather", content: "Sunny, 21°C" },
  ],
  model_parameters: { temperature: 0.2, max_tokens: 256 },
};

function config(turns: number): ExecuteConfig {
  const model = scripted(Array.from({ length: turns }, () => says("It is sunny in Paris, 21°C.")));
  return { resolve: () => model };
}

async function child(): Promise<void> {
  const server = await serveExecute({ key: KEY, limit: LIMIT, config: config(REQUESTS * 4 + MALFORMED) });
  const canned = JSON.stringify({
    action: "content",
    context: { content: "It is sunny in Paris, 21°C.", tool_request: null },
  });
  const bare = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(canned) });
      res.end(canned);
    });
  });
  await new Promise<void>((resolve) => bare.listen(0, "127.0.0.1", resolve));
  process.stdout.write(
    `listening on ${server.url} bare http://127.0.0.1:${(bare.address() as AddressInfo).port}\n`,
  );
  process.once("SIGTERM", () => {
    bare.close();
    bare.closeAllConnections();
    void server.close().then(() => process.exit(0));
  });
}

async function pool<T>(count: number, width: number, job: (index: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(count);
  let next = 0;
  const lane = async () => {
    while (next < count) {
      const index = next++;
      out[index] = await job(index);
    }
  };
  await Promise.all(Array.from({ length: width }, lane));
  return out;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
}

const round = (ms: number) => Math.round(ms * 100) / 100;

// A malformed request of each kind in turn: truncated JSON, wrong types, huge bodies, unknown
// roles, and bodies that are not objects, not JSON or not UTF-8.
function malformed(index: number): { body: Uint8Array<ArrayBuffer> | string; type?: string } {
  const text = JSON.stringify(valid);
  const kinds: (() => { body: Uint8Array<ArrayBuffer> | string; type?: string })[] = [
    () => ({ body: text.slice(0, 1 + ((index * 7919) % (text.length - 1))) }),
    () => ({ body: JSON.stringify({ ...valid, model: index }) }),
    () => ({ body: JSON.stringify({ ...valid, messages: "hello", tools: {} }) }),
    () => ({
      body: JSON.stringify({ ...valid, model_parameters: { temperature: "hot", stop_sequences: "x" } }),
    }),
    () => ({ body: JSON.stringify({ ...valid, messages: [{ role: `robot${index}`, content: "hi" }] }) }),
    () => ({ body: JSON.stringify({ ...valid, messages: [{ content: "no role" }, 42, null] }) }),
    () => ({ body: JSON.stringify({ ...valid, instructions: "x".repeat(LIMIT + 1000 * (index % 5)) }) }),
    () => ({ body: `[${"[".repeat(index * 50)}` }),
    () => ({ body: JSON.stringify([valid]) }),
    () => ({ body: new Uint8Array([0x7b, 0xff, 0xfe, 0x7d]) }),
    () => ({ body: "", type: "application/json" }),
    () => ({ body: text, type: "text/plain" }),
  ];
  return kinds[index % kinds.length]();
}

async function main(): Promise<void> {
  const server = spawn(process.execPath, ["--import", "tsx", new URL(import.meta.url).pathname, "--serve"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const [url, bareUrl] = await new Promise<[string, string]>((resolve, reject) => {
    let text = "";
    server.stdout.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const found = /listening on (\S+) bare (\S+)\n/.exec(text);
      if (found) resolve([found[1], found[2]]);
    });
    server.once("exit", (code) => reject(new Error(`the server exited with ${code}`)));
  });
  try {
    const endpoint = `${url}${EXECUTE_PATH}`;
    const body = JSON.stringify(valid);
    const post = (payload: Uint8Array<ArrayBuffer> | string, type = "application/json") =>
      fetch(endpoint, { method: "POST", headers: { "content-type": type, "x-api-key": KEY }, body: payload });

    // Warm every path up before timing it.
    const bare = () =>
      fetch(bareUrl, { method: "POST", headers: { "content-type": "application/json" }, body });
    await pool(64, CONCURRENCY, async () => (await bare()).arrayBuffer());
    await pool(64, CONCURRENCY, async () => (await post(body)).arrayBuffer());
    const direct = config(REQUESTS + 64);
    await pool(64, CONCURRENCY, () => execute(JSON.parse(body), direct));

    let errors = 0;
    const served = await pool(REQUESTS, CONCURRENCY, async () => {
      const start = performance.now();
      const res = await post(body);
      const answer = (await res.json()) as { action?: string };
      if (res.status !== 200 || answer.action !== "content") errors++;
      return performance.now() - start;
    });
    const transport = await pool(REQUESTS, CONCURRENCY, async () => {
      const start = performance.now();
      await (await bare()).json();
      return performance.now() - start;
    });
    const called = await pool(REQUESTS, CONCURRENCY, async () => {
      const start = performance.now();
      const out = await execute(JSON.parse(body), direct);
      if (out.status !== 200) errors++;
      return performance.now() - start;
    });
    const p50 = percentile(served, 50);
    const directP50 = percentile(called, 50);
    const bareP50 = percentile(transport, 50);
    console.log(
      `BENCH execute-server requests=${REQUESTS} concurrency=${CONCURRENCY} errors=${errors} ` +
        `p50_ms=${round(p50)} p99_ms=${round(percentile(served, 99))} overhead_ms=${round(p50 - directP50)} ` +
        `direct_p50_ms=${round(directP50)} bare_http_p50_ms=${round(bareP50)} ratio_to_bare_http=${round(p50 / bareP50)}`,
    );

    const counts = { "4xx": 0, "5xx": 0, other: 0 };
    await pool(MALFORMED, 8, async (index) => {
      const { body: payload, type } = malformed(index);
      try {
        const res = await post(payload, type);
        const json: unknown = await res.json();
        const ok = typeof json === "object" && json !== null && "detail" in json;
        if (res.status >= 400 && res.status < 500 && ok) counts["4xx"]++;
        else if (res.status >= 500) counts["5xx"]++;
        else counts.other++;
      } catch {
        counts.other++;
      }
    });
    const alive = (await post(body)).status === 200 ? 1 : 0;
    console.log(
      `BENCH execute-malformed requests=${MALFORMED} status_4xx=${counts["4xx"]} status_5xx=${counts["5xx"]} ` +
        `other=${counts.other} alive=${alive}`,
    );
    if (errors || counts["5xx"] || counts.other || !alive) process.exitCode = 1;
  } finally {
    server.kill("SIGTERM");
  }
}

if (process.argv.includes("--serve")) void child();
else void main();
