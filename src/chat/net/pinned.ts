/**
 * HTTP requests that reach the address that was checked, and nothing else.
 *
 * Why not `http.request`: in VS Code the extension host routes `http.request` / `https.request`
 * through the proxy of the `http.proxy` setting or the HTTP(S)_PROXY variables, and a proxy looks
 * the host name up again itself. A name that answered a public address when `checkPublic` looked
 * could answer 127.0.0.1 to the proxy (DNS rebinding), and the guard would be bypassed. So these
 * requests open their own socket to the checked address (TLS with the name as servername, so the
 * certificate is still checked against the name) and speak HTTP over it; they never go through a
 * proxy. Tunnelling to the checked address through the proxy (CONNECT ip:port) would keep the pin
 * too, but the proxy VS Code chooses (settings, PAC scripts, authentication) is not visible here;
 * where only a proxy reaches the Internet, the request fails and its message says why.
 */

import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import tls from "node:tls";
import { guardedLookup, bareHost, type AddressOptions, type Checked } from "./address";

/** Opens the TCP connection to a checked address (tests route a public address to a local server). */
export type Connect = (to: { host: string; port: number }) => Duplex;

/** How a pinned request is made. */
export interface PinnedOptions extends AddressOptions {
  method?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  connect?: Connect;
  /** Certificate authorities trusted instead of the system's (tests with their own certificate). */
  ca?: string | Buffer;
}

/** A `lookup` for `net.connect` that answers the addresses already checked, without asking DNS again. */
function pinnedLookup(addresses: string[]) {
  const all = addresses.map((address) => ({ address, family: net.isIP(address) }));
  return (
    _host: string,
    options: { all?: boolean },
    callback: (error: Error | null, address: string | typeof all, family?: number) => void,
  ): void => {
    if (options.all) callback(null, all);
    else callback(null, all[0].address, all[0].family);
  };
}

/** The socket to `checked.url`'s port on one of `checked.addresses`, TLS for https. */
function socketTo(checked: Checked, options: PinnedOptions): Duplex {
  const { url, addresses } = checked;
  const secure = url.protocol === "https:";
  const port = Number(url.port) || (secure ? 443 : 80);
  const host = bareHost(url);
  let raw: Duplex;
  if (options.connect) raw = options.connect({ host: addresses[0] ?? host, port });
  else {
    // No address was checked only when private addresses are allowed: then the name is resolved here.
    const lookup = addresses.length ? pinnedLookup(addresses) : guardedLookup(options);
    raw = net.connect({
      host,
      port,
      // Necessary cast: net.LookupFunction is dns.lookup's overloaded type, which one function's
      // signature cannot be declared as.
      lookup: lookup as unknown as net.LookupFunction,
      autoSelectFamily: true,
    });
  }
  if (!secure) return raw;
  return tls.connect({
    socket: raw,
    servername: net.isIP(host) ? undefined : host,
    host,
    ALPNProtocols: ["http/1.1"],
    ...(options.ca ? { ca: options.ca } : {}),
  });
}

/** A request to the checked address (see the file's comment): `end()` it, read the answer in `answer`. */
export function pinnedRequest(
  checked: Checked,
  options: PinnedOptions,
  answer: (incoming: http.IncomingMessage) => void,
): http.ClientRequest {
  const { url } = checked;
  return new http.ClientRequest(
    {
      method: options.method ?? "GET",
      path: `${url.pathname}${url.search}`,
      headers: { ...options.headers, host: url.host },
      // With createConnection and no agent, Node uses this socket as it is: no pool, no proxy.
      createConnection: () => socketTo(checked, options) as net.Socket,
      signal: options.signal,
    },
    answer,
  );
}

/** Codes of a connection that could not be made (where a proxy might have been the way out). */
const UNREACHED = new Set(["ECONNREFUSED", "ETIMEDOUT", "ENETUNREACH", "EHOSTUNREACH", "ECONNRESET"]);

/** For a connection that failed while a proxy is set in the environment: a sentence saying these requests do not use it. */
export function proxyNote(error: unknown): string {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const proxy = ["HTTPS_PROXY", "https_proxy", "HTTP_PROXY", "http_proxy"].find((name) => process.env[name]);
  if (!proxy || !code || !UNREACHED.has(code)) return "";
  return ` (Tandem connects directly, not through the proxy in ${proxy}: a proxy would look the name up again, past the check that refuses private addresses.)`;
}
