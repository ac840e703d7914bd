/**
 * The `fetch` a plugin's HTTP transport uses: node:http with a lookup that refuses private
 * addresses when the connection is made, so the address checked is the address reached.
 */

import http from "node:http";
import https from "node:https";
import { Readable } from "node:stream";
import { checkPublic, guardedLookup, type AddressOptions } from "./address";

/** A fetch bound to one plugin's sockets; `close` ends them. */
export interface PluginFetch {
  fetch: typeof fetch;
  close(): void;
}

/** The body of a request as text or bytes (the MCP transports send JSON text). */
async function bodyOf(init: RequestInit | undefined): Promise<string | Buffer | undefined> {
  const body = init?.body;
  if (body == null) return undefined;
  if (typeof body === "string") return body;
  return Buffer.from(await new Response(body).arrayBuffer());
}

/**
 * A fetch that reaches only what `options` allows: each request's address is checked
 * (`checkPublic`), then connected through `guardedLookup`. Redirects are returned, not followed.
 */
export function pluginFetch(options: AddressOptions): PluginFetch {
  const agents = {
    "http:": new http.Agent({ keepAlive: true }),
    "https:": new https.Agent({ keepAlive: true }),
  };
  const lookup = guardedLookup(options);
  const request = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const { url } = await checkPublic(input instanceof Request ? input.url : input, options);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
    const body = await bodyOf(init);
    // A known length, not chunked encoding, which some servers refuse on a POST.
    if (body !== undefined) headers.set("content-length", String(Buffer.byteLength(body)));
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    const secure = url.protocol === "https:";
    const module = secure ? https : http;
    return new Promise<Response>((resolve, reject) => {
      const outgoing = module.request(
        url,
        {
          method: init?.method ?? "GET",
          headers: Object.fromEntries(headers),
          agent: agents[secure ? "https:" : "http:"],
          lookup: lookup as unknown as http.RequestOptions["lookup"],
          signal,
        },
        (incoming) => {
          const responseHeaders = new Headers();
          const raw = incoming.rawHeaders;
          for (let i = 0; i + 1 < raw.length; i += 2) responseHeaders.append(raw[i], raw[i + 1]);
          const status = incoming.statusCode ?? 502;
          const empty = status === 204 || status === 304 || init?.method === "HEAD";
          if (empty) incoming.resume();
          const stream = empty ? null : (Readable.toWeb(incoming) as ReadableStream<Uint8Array>);
          resolve(
            new Response(stream, { status, statusText: incoming.statusMessage, headers: responseHeaders }),
          );
        },
      );
      outgoing.on("error", reject);
      outgoing.end(body);
    });
  };
  return {
    fetch: request as typeof fetch,
    close() {
      agents["http:"].destroy();
      agents["https:"].destroy();
    },
  };
}
