/** What the plugin tests share: the everything server's entry, a tool by name, and a plain HTTP server. */
import assert from "node:assert/strict";
import http from "node:http";
import type { AddressInfo } from "node:net";
import path from "node:path";
import type { Tool } from "../../../src/agent/types";

/** The everything MCP server's entry point in node_modules. */
export const everything = path.join(
  __dirname,
  "../../../node_modules/@modelcontextprotocol/server-everything/dist/index.js",
);

/** True while the process PID runs. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The tool NAME among TOOLS; fails the test when it is not offered. */
export function named(tools: Tool[], name: string): Tool {
  const found = tools.find((t) => t.name === name);
  assert.ok(found, `the tool ${name} is offered`);
  return found;
}

/** A signal no one aborts. */
export const signal = () => new AbortController().signal;

/** A plain HTTP server at `/mcp` on 127.0.0.1 that is no MCP server. */
export interface PlainServer {
  url: string;
  /** The headers of each request it received. */
  requests: http.IncomingHttpHeaders[];
  close(): Promise<void>;
}

/** A plain HTTP server that records each request's headers and answers every one STATUS with BODY of TYPE. */
export async function plainServer(status: number, type: string, body: string): Promise<PlainServer> {
  const requests: http.IncomingHttpHeaders[] = [];
  const server = http.createServer((req, res) => {
    requests.push(req.headers);
    req.resume();
    res.writeHead(status, { "content-type": type }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
