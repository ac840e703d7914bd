/**
 * The loopback HTTP server of the "execute agent" API: `POST /v4/agents/execute` on 127.0.0.1
 * only, behind an API key, with a body size limit, no CORS, and a JSON body on every answer.
 */
import { createHash, timingSafeEqual } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { readBody } from "./body";
import { execute, type ExecuteConfig } from "./execute";
import { reason } from "../protocol/reason";

/** The one path the server answers. */
export const EXECUTE_PATH = "/v4/agents/execute";

/** The default body size limit: room for a few inline images. */
export const DEFAULT_LIMIT = 16 * 1024 * 1024;

/** How to serve. */
export interface ServeOptions {
  /** The API key a client must give (x-api-key, or Authorization: Bearer). */
  key: string;
  /** The port; 0 or none: a free one. */
  port?: number;
  /** The largest body accepted, in bytes. */
  limit?: number;
  /**
   * Where the models come from: a fixed configuration, or a function read at each request (so a
   * setting changed while the server runs is used by the next request, as `execute` reads it).
   */
  config: ExecuteConfig | (() => ExecuteConfig | Promise<ExecuteConfig>);
  /** Told of a failure inside the server; the client only reads that one happened. */
  log?: (line: string) => void;
}

/** A running server. */
export interface ExecuteServer {
  /** The base URL, e.g. http://127.0.0.1:8123 (the API is at `${url}${EXECUTE_PATH}`). */
  url: string;
  port: number;
  /** Stops listening, ends the turns under way and closes every connection. */
  close(): Promise<void>;
}

/** Starts the server on 127.0.0.1; resolves once it listens. */
export async function serveExecute(options: ServeOptions): Promise<ExecuteServer> {
  if (!options.key) throw new Error("the execute server needs an API key");
  const expected = digest(options.key);
  const limit = options.limit ?? DEFAULT_LIMIT;
  const running = new Set<AbortController>();
  let closing = false;
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      options.log?.(`execute server: ${reason(error)}`);
      if (!res.headersSent) send(res, 500, { detail: "Internal Server Error" });
      else res.destroy();
    });
  });

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    if (pathOf(req.url) !== EXECUTE_PATH) return send(res, 404, { detail: "Not Found" });
    // Preflight included: no CORS, so a web page cannot call this server.
    if (req.method !== "POST") return send(res, 405, { detail: "Method Not Allowed" }, { allow: "POST" });
    if (!authorized(req, expected))
      return send(res, 401, { detail: "Missing or invalid API key" }, { "www-authenticate": "Bearer" });
    const bytes = await bodyBytes(req, limit);
    if (!bytes)
      return send(
        res,
        413,
        { detail: `Request body too large (limit ${limit} bytes)` },
        { connection: "close" },
      );
    const body = readBody(bytes, req.headers["content-type"]);
    if (!body.ok)
      return typeof body.problem === "string"
        ? send(res, body.status, { detail: body.problem })
        : send(res, body.status, { detail: [body.problem] });
    const controller = new AbortController();
    running.add(controller);
    // A client that goes away stops its turn (an abort costs an exception: only then).
    res.on("close", () => {
      if (!res.writableFinished) controller.abort();
    });
    try {
      const config = typeof options.config === "function" ? await options.config() : options.config;
      const outcome = await execute(body.value, config, controller.signal);
      // Once closing, a connection ends with its answer so that the close need not wait for it.
      if (!res.destroyed) send(res, outcome.status, outcome.body, closing ? { connection: "close" } : {});
    } finally {
      running.delete(controller);
    }
  }

  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        closing = true;
        server.close(() => resolve());
        for (const controller of running) controller.abort();
        server.closeIdleConnections();
        // Turns that were ended answer at once; whatever is left is cut.
        setTimeout(() => server.closeAllConnections(), 1000).unref();
      }),
  };
}

// The path of a request target, without its query; undefined when it cannot be read.
function pathOf(target: string | undefined): string | undefined {
  try {
    return new URL(target ?? "/", "http://127.0.0.1").pathname;
  } catch {
    return undefined;
  }
}

function digest(text: string): Buffer {
  return createHash("sha256").update(text).digest();
}

// Compares digests, so the time taken says nothing about the key, not even its length.
function authorized(req: IncomingMessage, expected: Buffer): boolean {
  const header = req.headers["x-api-key"];
  const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? "")?.[1];
  const given = typeof header === "string" && header ? header : bearer;
  return given !== undefined && timingSafeEqual(digest(given.trim()), expected);
}

/**
 * The body, or undefined when it passes `limit`. A body somewhat too large is still read and
 * dropped, so the client, still sending, reads the 413 rather than a broken connection; one far
 * too large (as its Content-Length says, or past four limits) is answered at once.
 */
function bodyBytes(req: IncomingMessage, limit: number): Promise<Buffer | undefined> {
  const cap = limit * 4;
  if (Number(req.headers["content-length"] ?? 0) > cap) return Promise.resolve(undefined);
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const data = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) chunks.push(chunk);
      else chunks.length = 0;
      if (size > cap) {
        req.off("data", data);
        resolve(undefined);
      }
    };
    req.on("data", data);
    req.on("end", () => resolve(size <= limit ? Buffer.concat(chunks, size) : undefined));
    req.on("error", reject);
  });
}

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    "content-type": "application/json",
    "content-length": Buffer.byteLength(text),
    "cache-control": "no-store",
    "x-content-type-options": "nosniff",
    ...headers,
  });
  res.end(text);
}
