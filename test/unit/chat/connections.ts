/**
 * Every TCP connection this process opens, watched where they all pass: `net.Socket.prototype.connect`
 * (Node's http, https and tls, undici's fetch, and the sockets Tandem pins itself all go through it).
 * A connection the test does not let out is ended before it leaves, so a test that catches code
 * reaching out never depends on the machine's network.
 */
import net from "node:net";

/** One connection asked for: the host (a name or an address, as the caller gave it) and the port. */
export interface Attempt {
  host: string;
  port: number;
}

/** Watches connections until `stop()`; `allowed` ones go out, the rest are refused at once. */
export function watchConnections(allowed: (to: Attempt) => boolean): { attempts: Attempt[]; stop(): void } {
  const attempts: Attempt[] = [];
  const original = net.Socket.prototype.connect;
  // Necessary cast: connect is overloaded (options, port and host, a path), which one function cannot declare.
  const watched = function (this: net.Socket, ...args: unknown[]): net.Socket {
    const to = attemptOf(args);
    if (to) {
      attempts.push(to);
      if (!allowed(to)) {
        const refused = Object.assign(new Error(`the test let no connection out to ${to.host}:${to.port}`), {
          code: "ECONNREFUSED",
        });
        process.nextTick(() => this.destroy(refused));
        return this;
      }
    }
    return (original as (...a: unknown[]) => net.Socket).apply(this, args);
  } as typeof original;
  net.Socket.prototype.connect = watched;
  return {
    attempts,
    stop: () => {
      net.Socket.prototype.connect = original;
    },
  };
}

/** The host and port a `connect` call names, or undefined for a local (IPC) socket. */
function attemptOf(args: unknown[]): Attempt | undefined {
  let first = args[0];
  // Node's own net.connect passes [options, callback] as one array (its normalized arguments).
  if (Array.isArray(first)) first = first[0];
  if (typeof first === "object" && first !== null) {
    const o = first as { host?: string; port?: number | string; path?: string };
    if (o.path !== undefined) return undefined;
    return { host: o.host ?? "localhost", port: Number(o.port) };
  }
  if (typeof first === "number" || (typeof first === "string" && /^\d+$/.test(first))) {
    return { host: typeof args[1] === "string" ? args[1] : "localhost", port: Number(first) };
  }
  return undefined;
}
