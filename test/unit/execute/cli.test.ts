/** The server as its own Node process: its key from the environment, its model from AI_*, SIGTERM. */
import assert from "node:assert/strict";
import { spawn, type ChildProcess } from "node:child_process";
import { createServer } from "node:net";
import { EXECUTE_PATH } from "../../../src/execute";
import { answer, openaiServer, type FixtureServer } from "../../fixtures/openai-server";

const MAIN = new URL("../../../src/execute/cli.ts", import.meta.url).pathname;

function start(env: Record<string, string | undefined>, args: string[] = []): ChildProcess {
  const clean = { ...process.env };
  for (const name of ["AI_URL", "AI_API_KEY", "AI_MODEL", "TANDEM_EXECUTE_KEY"]) delete clean[name];
  return spawn(process.execPath, ["--import", "tsx", MAIN, ...args], {
    env: { ...clean, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function exited(child: ChildProcess): Promise<number | null> {
  return new Promise((resolve) => {
    if (child.exitCode !== null) resolve(child.exitCode);
    else child.once("exit", (code) => resolve(code));
  });
}

function output(child: ChildProcess, stream: "stdout" | "stderr"): () => string {
  let text = "";
  child[stream]?.on("data", (chunk: Buffer) => (text += chunk.toString()));
  return () => text;
}

function listening(child: ChildProcess): Promise<string> {
  return new Promise((resolve, reject) => {
    let text = "";
    child.stdout?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const found = /listening on (http:\/\/127\.0\.0\.1:\d+)\n/.exec(text);
      if (found) resolve(found[1]);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code} before listening: ${text}`)));
  });
}

async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as { port: number }).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  return port;
}

describe("execute: the server's Node entry", function () {
  this.timeout(20_000);
  let fixture: FixtureServer;
  const children: ChildProcess[] = [];

  beforeEach(async () => {
    fixture = await openaiServer();
  });

  afterEach(async () => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill("SIGKILL");
    await fixture.close();
  });

  it("refuses to start without TANDEM_EXECUTE_KEY, saying why, with exit code 2", async () => {
    const child = start({ AI_URL: fixture.baseURL, AI_MODEL: "m" }, ["--port", "0"]);
    children.push(child);
    const stderr = output(child, "stderr");
    assert.equal(await exited(child), 2);
    assert.match(stderr(), /TANDEM_EXECUTE_KEY is not set/);
  });

  it("refuses a port that is not a number, with exit code 2", async () => {
    const child = start({ TANDEM_EXECUTE_KEY: "k", AI_MODEL: "m" }, ["--port", "eighty"]);
    children.push(child);
    const stderr = output(child, "stderr");
    assert.equal(await exited(child), 2);
    assert.match(stderr(), /--port/);
  });

  it("listens on the chosen port, answers through AI_URL's model, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const child = start(
      {
        TANDEM_EXECUTE_KEY: "secret",
        AI_URL: fixture.baseURL,
        AI_API_KEY: "upstream",
        AI_MODEL: "served-model",
      },
      ["--port", String(port)],
    );
    children.push(child);
    const url = await listening(child);
    assert.equal(url, `http://127.0.0.1:${port}`);
    fixture.script(answer("Hello from the fixture."));
    const res = await fetch(`${url}${EXECUTE_PATH}`, {
      method: "POST",
      headers: { "content-type": "application/json", "x-api-key": "secret" },
      body: JSON.stringify({ model: "claude-2", tools: [], messages: [{ role: "user", content: "Hi" }] }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual(await res.json(), {
      action: "content",
      context: { content: "Hello from the fixture.", tool_request: null },
    });
    assert.equal(fixture.requests[0].body.model, "served-model");
    assert.equal(fixture.requests[0].headers.authorization, "Bearer upstream");
    const refused = await fetch(`${url}${EXECUTE_PATH}`, { method: "POST", body: "{}" });
    assert.equal(refused.status, 401);
    child.kill("SIGTERM");
    assert.equal(await exited(child), 0);
  });
});
