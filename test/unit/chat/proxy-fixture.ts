/**
 * A proxy in the way of the extension's requests, as in VS Code with `http.proxy` or
 * HTTP(S)_PROXY set: a local HTTP proxy (CONNECT) that looks names up itself, and the extension
 * host's routing of `http.request` / `https.request` through the proxy the environment names
 * (VS Code's "http.proxySupport": "override" replaces the request's agent with a proxy agent).
 */

import http from "node:http";
import https from "node:https";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import type { Lookup } from "../../../src/chat/net/address";

/** A running proxy: its address for HTTP(S)_PROXY, the tunnels it was asked for, and `close`. */
export interface Proxy {
  url: string;
  /** `host:port` of every CONNECT, in order. */
  tunnels: string[];
  close(): Promise<void>;
}

/** A local HTTP proxy that resolves each CONNECT's name with `lookup` (as a real proxy asks its DNS) and connects there. */
export async function startProxy(lookup: Lookup): Promise<Proxy> {
  const tunnels: string[] = [];
  const sockets = new Set<Duplex>();
  const server = http.createServer((_request, response) => response.writeHead(405).end());
  server.on("connect", (request: http.IncomingMessage, client: Duplex, head: Buffer) => {
    const target = request.url ?? "";
    tunnels.push(target);
    sockets.add(client);
    const at = target.lastIndexOf(":");
    const host = target.slice(0, at).replace(/^\[|\]$/g, "");
    const port = Number(target.slice(at + 1));
    const resolved = net.isIP(host) ? Promise.resolve([{ address: host, family: 4 }]) : lookup(host);
    resolved.then(
      ([first]) => {
        const upstream = net.connect(port, first.address, () => {
          client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
          upstream.write(head);
          upstream.pipe(client);
          client.pipe(upstream);
        });
        sockets.add(upstream);
        upstream.on("error", () => client.destroy());
        client.on("error", () => upstream.destroy());
      },
      () => client.end("HTTP/1.1 502 Bad Gateway\r\n\r\n"),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    tunnels,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** An agent that reaches every host through a CONNECT tunnel of the proxy at `proxy` (what a proxy agent does). */
class TunnelAgent extends http.Agent {
  constructor(
    private readonly proxy: URL,
    private readonly secure: boolean,
  ) {
    super({ keepAlive: false });
  }

  override createConnection(
    options: http.ClientRequestArgs & { servername?: string },
    done: (error: Error | null, socket?: Duplex) => void,
  ): Duplex | undefined {
    const socket = net.connect(Number(this.proxy.port), this.proxy.hostname);
    const target = `${options.host ?? options.hostname}:${options.port}`;
    socket.once("connect", () => socket.write(`CONNECT ${target} HTTP/1.1\r\nhost: ${target}\r\n\r\n`));
    let said = "";
    const onData = (chunk: Buffer) => {
      said += chunk.toString("latin1");
      if (!said.includes("\r\n\r\n")) return;
      socket.off("data", onData);
      if (!/^HTTP\/1\.[01] 200/.test(said)) {
        socket.destroy();
        done(new Error(`the proxy refused the tunnel: ${said.split("\r\n")[0]}`));
        return;
      }
      const host = String(options.host ?? options.hostname);
      done(null, this.secure ? tls.connect({ socket, servername: options.servername ?? host }) : socket);
    };
    socket.on("data", onData);
    socket.on("error", (error) => done(error));
    return undefined;
  }
}

type Request = typeof http.request;

/**
 * Routes `http.request`, `http.get`, `https.request` and `https.get` through the proxy that
 * HTTP_PROXY / HTTPS_PROXY name (read at each request), as the extension host does. Returns the undo.
 */
export function routeThroughProxy(): () => void {
  const saved: [typeof http | typeof https, "request" | "get", Request][] = [];
  for (const [module, secure] of [
    [http, false],
    [https, true],
  ] as const) {
    for (const name of ["request", "get"] as const) {
      const original = module[name] as Request;
      saved.push([module, name, original]);
      const patched = (...args: unknown[]) => {
        const proxy = process.env[secure ? "HTTPS_PROXY" : "HTTP_PROXY"];
        if (!proxy) return (original as (...a: unknown[]) => http.ClientRequest)(...args);
        let [url, options, callback] = args;
        if (typeof url !== "string" && !(url instanceof URL))
          [url, options, callback] = [undefined, url, options];
        if (typeof options === "function") [options, callback] = [{}, options];
        const agent = new TunnelAgent(new URL(proxy), secure);
        const withAgent = { ...(options as http.RequestOptions), agent };
        const call = original as (...a: unknown[]) => http.ClientRequest;
        return url === undefined ? call(withAgent, callback) : call(url, withAgent, callback);
      };
      Object.defineProperty(module, name, { value: patched, configurable: true, writable: true });
    }
  }
  return () => {
    for (const [module, name, original] of saved) {
      Object.defineProperty(module, name, { value: original, configurable: true, writable: true });
    }
  };
}

/** A lookup that answers `first` once, then 127.0.0.1 to everyone after (DNS rebinding); counts its calls. */
export function rebinding(first = "93.184.216.34"): Lookup & { calls: number } {
  const lookup = Object.assign(
    async () => {
      lookup.calls++;
      return [{ address: lookup.calls === 1 ? first : "127.0.0.1", family: 4 }];
    },
    { calls: 0 },
  );
  return lookup;
}

/** A loopback server that counts the requests it receives and answers `text`. */
export async function countingServer(
  text: string,
): Promise<{ port: number; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const server = http.createServer((request, response) => {
    requests.push(`${request.method} ${request.url} host=${request.headers.host}`);
    response.writeHead(200, { "content-type": "text/plain" }).end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    port: (server.address() as net.AddressInfo).port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
