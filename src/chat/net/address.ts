/**
 * Public and private network addresses. A plugin at an address runs with the person's network
 * position, so only public Internet addresses are reached unless a setting allows private ones:
 * the host name is resolved first and every address it has must be public.
 */

import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";
import { isPrivate, kindOf } from "../../protocol/address-kind";
import { reason } from "../../agent/perform";

export { isPrivate, kindOf, parseIPv4 } from "../../protocol/address-kind";

/** The setting that lets plugins reach private addresses (named in every refusal). */
export const PRIVATE_SETTING = "tandem.plugins.allowPrivateAddresses";

/** One address a name resolves to. */
export interface Resolved {
  address: string;
  family: number;
}

/** Resolves a host name to all its addresses (dns.lookup with `all: true` by default). */
export type Lookup = (host: string) => Promise<Resolved[]>;

/** How `checkPublic` decides. */
export interface AddressOptions {
  /** Private addresses are allowed (the setting is on). */
  allowPrivate?: boolean;
  /** Resolves names; tests give their own. */
  lookup?: Lookup;
  /** The setting named in refusals. */
  setting?: string;
}

/** Why an address was refused or could not be checked; `message` is for the person. */
export class AddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "AddressError";
  }
}

/** The system resolver, every address of the name. */
export const systemLookup: Lookup = (host) =>
  new Promise((resolve, reject) => {
    dnsLookup(host, { all: true, verbatim: true }, (error, addresses) => {
      if (error) reject(error);
      else resolve(addresses.map(({ address, family }) => ({ address, family })));
    });
  });

/** Host names that lead inside the computer or its network whatever they resolve to. */
function kindOfName(host: string): string | undefined {
  if (host === "localhost" || host.endsWith(".localhost")) return "loopback";
  if (["metadata", "metadata.google.internal", "instance-data", "metadata.azure.internal"].includes(host)) {
    return "cloud metadata";
  }
  for (const suffix of [".internal", ".local", ".localdomain", ".lan", ".home.arpa", ".intranet", ".corp"]) {
    if (host.endsWith(suffix)) return "local";
  }
  if (!host.includes(".")) return "local";
  return undefined;
}

/** The sentence a refusal ends with: how to allow it. */
function allowHint(options: AddressOptions): string {
  return `turn on the setting ${options.setting ?? PRIVATE_SETTING} to allow private addresses`;
}

/** A refusal of a private address, naming it and the setting. */
function refusal(what: string, kind: string, options: AddressOptions): AddressError {
  return new AddressError(`refused: private address ${what} (${kind}); ${allowHint(options)}`);
}

/** The host of URL without brackets or a final dot, lower case. */
export function bareHost(url: URL): string {
  let host = url.hostname.toLowerCase();
  if (host.startsWith("[") && host.endsWith("]")) host = host.slice(1, -1);
  if (host.endsWith(".")) host = host.slice(0, -1);
  return host;
}

/** What `checkPublic` found: the parsed address and the addresses its host resolved to. */
export interface Checked {
  url: URL;
  addresses: string[];
}

/**
 * Checks that ADDRESS is an http(s) URL without user info whose host resolves only to public
 * addresses (any address when `allowPrivate`). Throws an AddressError saying why not.
 */
export async function checkPublic(address: string | URL, options: AddressOptions = {}): Promise<Checked> {
  let url: URL;
  try {
    url = new URL(String(address).trim());
  } catch {
    throw new AddressError(`refused: ${JSON.stringify(String(address))} is not a valid address`);
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") {
    throw new AddressError(
      `refused: ${url.protocol.slice(0, -1)} addresses are not allowed (only http and https)`,
    );
  }
  if (url.username !== "" || url.password !== "") {
    throw new AddressError(
      `refused: the address ${url.host} carries a user name or password before "@"; give the key in the plugin's key instead`,
    );
  }
  const host = bareHost(url);
  if (host === "") throw new AddressError(`refused: ${url.href} has no host`);
  if (options.allowPrivate) return { url, addresses: isIP(host) ? [host] : [] };
  if (isIP(host)) {
    const kind = kindOf(host);
    if (kind) throw refusal(host, kind, options);
    return { url, addresses: [host] };
  }
  const nameKind = kindOfName(host);
  if (nameKind) throw refusal(host, nameKind, options);
  let resolved: Resolved[];
  try {
    resolved = await (options.lookup ?? systemLookup)(host);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    throw new AddressError(`could not resolve ${host}: ${code ?? reason(error)}`);
  }
  if (resolved.length === 0) throw new AddressError(`could not resolve ${host}: no address`);
  for (const { address } of resolved) {
    const kind = kindOf(address);
    if (kind) throw refusal(`${address} for ${host}`, kind, options);
  }
  return { url, addresses: resolved.map((r) => r.address) };
}

/** The callback shape of `net.connect`'s `lookup` option. */
type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | { address: string; family: number }[],
  family?: number,
) => void;

/**
 * A `lookup` for `net.connect` that refuses private addresses at connection time, so a name that
 * changes its answer after `checkPublic` (DNS rebinding) still cannot reach inside.
 */
export function guardedLookup(options: AddressOptions = {}) {
  return (
    host: string,
    opts: { all?: boolean; family?: number | string },
    callback: LookupCallback,
  ): void => {
    const bare = host.startsWith("[") ? host.slice(1, -1) : host;
    const found: Promise<Resolved[]> = isIP(bare)
      ? Promise.resolve([{ address: bare, family: isIP(bare) }])
      : (options.lookup ?? systemLookup)(bare);
    found.then(
      (resolved) => {
        if (!options.allowPrivate) {
          const bad = resolved.find((r) => isPrivate(r.address));
          if (bad) {
            const error: NodeJS.ErrnoException = refusal(
              `${bad.address} for ${bare}`,
              kindOf(bad.address) ?? "",
              options,
            );
            error.code = "EPRIVATE";
            callback(error, "");
            return;
          }
        }
        if (resolved.length === 0) {
          callback(Object.assign(new Error(`could not resolve ${bare}`), { code: "ENOTFOUND" }), "");
        } else if (opts.all) callback(null, resolved);
        else callback(null, resolved[0].address, resolved[0].family);
      },
      (error: NodeJS.ErrnoException) => callback(error, ""),
    );
  };
}
