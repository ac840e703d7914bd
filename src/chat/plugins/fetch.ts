/**
 * The `fetch` a plugin's HTTP transport uses: each request's address is checked, then the request
 * connects to that very address (src/chat/net/pinned.ts), never through a proxy that would look the
 * name up again: the address checked is the address reached.
 */

import type http from "node:http";
import { Readable } from "node:stream";
import { checkPublic, type AddressOptions, pinnedRequest, proxyNote, type Connect } from "../net";

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
 * (`checkPublic`), then connected to that address itself. Redirects are returned, not followed.
 */
export function pluginFetch(options: AddressOptions & { connect?: Connect }): PluginFetch {
  // Each request has its own connection (no pool: a pooled socket would skip the check); close() ends them.
  const open = new Set<http.ClientRequest>();
  const request = async (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    const checked = await checkPublic(input instanceof Request ? input.url : input, options);
    const headers = new Headers(input instanceof Request ? input.headers : undefined);
    new Headers(init?.headers).forEach((value, key) => headers.set(key, value));
    const body = await bodyOf(init);
    // A known length, not chunked encoding, which some servers refuse on a POST.
    if (body !== undefined) headers.set("content-length", String(Buffer.byteLength(body)));
    const signal = init?.signal ?? undefined;
    signal?.throwIfAborted();
    return new Promise<Response>((resolve, reject) => {
      const outgoing = pinnedRequest(
        checked,
        { ...options, method: init?.method ?? "GET", headers: Object.fromEntries(headers), signal },
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
      open.add(outgoing);
      outgoing.on("close", () => open.delete(outgoing));
      outgoing.on("error", (error: NodeJS.ErrnoException) => {
        error.message += proxyNote(error);
        reject(error);
      });
      outgoing.end(body);
    });
  };
  return {
    fetch: request as typeof fetch,
    close() {
      for (const outgoing of open) outgoing.destroy();
      open.clear();
    },
  };
}
