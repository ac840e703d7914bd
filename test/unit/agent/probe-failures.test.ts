import assert from "node:assert/strict";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { learned, markdown, probe } from "../../../src/agent";
import { table } from "./report-table";

describe("agent: probe failures before any answer", () => {
  let other: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (other ? other.close(() => resolve()) : resolve())));

  async function listen(server: Server): Promise<string> {
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  }

  it("401: the key was refused (and the key a server echoes is not shown)", async () => {
    other = createServer((req, res) => {
      const key = (req.headers.authorization ?? "").replace(/^Bearer /, "");
      res.writeHead(401, { "content-type": "application/json" });
      res.end(JSON.stringify({ error: { message: `Incorrect API key provided: ${key}` } }));
    });
    const baseURL = await listen(other);
    const report = await probe({ baseURL, apiKey: "sk-secret-1234", model: "m" });
    assert.equal(report.reachable.ok, false);
    assert.equal(report.reachable.note, "The key was refused (401 Incorrect API key provided: …).");
    assert.equal(report.requests, 2, "the model list, then one answer, both refused");
    assert.equal(
      report.verdict.note,
      `Tandem cannot use m at ${baseURL}: The key was refused (401 Incorrect API key provided: …).`,
    );
    const md = markdown(report);
    assert.ok(!md.includes("sk-secret-1234"));
    assert.ok(!JSON.stringify(report).includes("sk-secret-1234"));
    assert.ok(md.includes("**❌ Tandem cannot use m at"));
  });

  it("connection refused: nothing answers at the address, one request, a readable report", async () => {
    other = createServer();
    const baseURL = await listen(other);
    await new Promise<void>((resolve) => other!.close(() => resolve()));
    other = undefined;
    const report = await probe({ baseURL, model: "m" }, { timeoutMs: 5000 });
    assert.equal(report.requests, 1);
    assert.equal(report.reachable.ok, false);
    assert.match(
      report.reachable.note,
      new RegExp(`^Nothing answers at ${baseURL.replace(/[.]/g, "\\.")} \\(.*ECONNREFUSED.*\\)\\.$`),
    );
    assert.equal(report.verdict.ok, false);
    assert.ok(
      report.verdict.note.startsWith(`Tandem cannot use m at ${baseURL}: Nothing answers at ${baseURL}`),
    );
    const md = markdown(report);
    assert.deepEqual(
      table(md).map((r) => r[1]),
      [
        "❌ no",
        "➖ not known",
        "➖ not known",
        "➖ not known",
        "➖ not known",
        "➖ not known",
        "➖ not known",
      ],
    );
    assert.deepEqual(learned(report), {});
  });
});
