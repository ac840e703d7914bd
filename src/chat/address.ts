/**
 * Public and private network addresses. A plugin at an address runs with the person's network
 * position, so only public Internet addresses are reached unless a setting allows private ones:
 * the host name is resolved first and every address it has must be public.
 */

import { lookup as dnsLookup } from "node:dns";
import { isIP } from "node:net";

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

/**
 * Reads an IPv4 address the way URL parsers and inet_aton do: one to four parts, each decimal,
 * octal (leading 0) or hex (0x), the last part filling the remaining bytes. Null if it is not one.
 */
export function parseIPv4(text: string): number | null {
  const parts = text.split(".");
  if (parts.length > 0 && parts[parts.length - 1] === "" && parts.length > 1) parts.pop();
  if (parts.length < 1 || parts.length > 4) return null;
  const values: number[] = [];
  for (const part of parts) {
    let value: number;
    if (/^0x[0-9a-f]*$/i.test(part)) value = part.length === 2 ? 0 : parseInt(part.slice(2), 16);
    else if (/^0[0-7]+$/.test(part)) value = parseInt(part.slice(1), 8);
    else if (/^(0|[1-9][0-9]*)$/.test(part)) value = Number(part);
    else return null;
    if (!Number.isFinite(value)) return null;
    values.push(value);
  }
  const last = values.pop() as number;
  if (values.some((v) => v > 255)) return null;
  if (last >= 256 ** (4 - values.length)) return null;
  let result = last;
  values.forEach((v, i) => (result += v * 256 ** (3 - i)));
  return result;
}

/** Reads an IPv6 address (brackets, zone and an embedded IPv4 tail allowed) into 8 groups. */
export function parseIPv6(text: string): number[] | null {
  let body = text.startsWith("[") && text.endsWith("]") ? text.slice(1, -1) : text;
  const zone = body.indexOf("%");
  if (zone >= 0) body = body.slice(0, zone);
  if (!body.includes(":")) return null;
  const lastColon = body.lastIndexOf(":");
  const v4 = body.slice(lastColon + 1);
  if (v4.includes(".")) {
    // An embedded IPv4 tail becomes its two last groups.
    const n = /^\d{1,3}(\.\d{1,3}){3}$/.test(v4) ? parseIPv4(v4) : null;
    if (n === null) return null;
    body = `${body.slice(0, lastColon + 1)}${Math.floor(n / 65536).toString(16)}:${(n % 65536).toString(16)}`;
  }
  const halves = body.split("::");
  if (halves.length > 2) return null;
  const groupsOf = (half: string): number[] | null => {
    if (half === "") return [];
    const out: number[] = [];
    for (const g of half.split(":")) {
      if (!/^[0-9a-f]{1,4}$/i.test(g)) return null;
      out.push(parseInt(g, 16));
    }
    return out;
  };
  const head = groupsOf(halves[0]);
  const rest = halves.length === 2 ? groupsOf(halves[1]) : [];
  if (head === null || rest === null) return null;
  const known = head.length + rest.length;
  if (halves.length === 1) return known === 8 ? head : null;
  if (known > 7) return null;
  return [...head, ...new Array<number>(8 - known).fill(0), ...rest];
}

/** An IPv4 range: its first address, prefix length, and what it is. */
const V4_RANGES: [string, number, string][] = [
  ["0.0.0.0", 8, "unspecified"],
  ["10.0.0.0", 8, "private"],
  ["100.64.0.0", 10, "shared (CGNAT)"],
  ["127.0.0.0", 8, "loopback"],
  ["169.254.0.0", 16, "link-local"],
  ["172.16.0.0", 12, "private"],
  ["192.0.0.0", 24, "reserved"],
  ["192.0.2.0", 24, "documentation"],
  ["192.88.99.0", 24, "reserved"],
  ["192.168.0.0", 16, "private"],
  ["198.18.0.0", 15, "benchmarking"],
  ["198.51.100.0", 24, "documentation"],
  ["203.0.113.0", 24, "documentation"],
  ["224.0.0.0", 4, "multicast"],
  ["255.255.255.255", 32, "broadcast"],
  ["240.0.0.0", 4, "reserved"],
];

/** What kind of non-public IPv4 address N is, or undefined when it is public. */
function kindOfV4(n: number): string | undefined {
  if (n === 0xa9fea9fe) return "cloud metadata";
  for (const [start, prefix, kind] of V4_RANGES) {
    const base = parseIPv4(start) as number;
    const size = 2 ** (32 - prefix);
    if (n >= base && n < base + size) return kind;
  }
  return undefined;
}

/** What kind of non-public IPv6 address G (8 groups) is, or undefined when it is public. */
function kindOfV6(g: number[]): string | undefined {
  const v4Of = (hi: number, lo: number) => hi * 65536 + lo;
  const zeros = (from: number, to: number) => g.slice(from, to).every((x) => x === 0);
  if (zeros(0, 8)) return "unspecified";
  if (zeros(0, 7) && g[7] === 1) return "loopback";
  // Mapped (::ffff:a.b.c.d), translated (::ffff:0:a.b.c.d) and compatible (::a.b.c.d) forms
  // reach the IPv4 host behind them; a public service is never given this way.
  const embedded = (form: string) => {
    const inner = kindOfV4(v4Of(g[6], g[7]));
    return inner ? `${form} ${inner}` : form;
  };
  if (zeros(0, 5) && g[5] === 0xffff) return embedded("IPv4-mapped");
  if (zeros(0, 4) && g[4] === 0xffff && g[5] === 0) return embedded("IPv4-translated");
  if (zeros(0, 6)) return embedded("IPv4-compatible");
  if (g[0] === 0x64 && g[1] === 0xff9b && zeros(2, 6)) {
    const inner = kindOfV4(v4Of(g[6], g[7]));
    return inner ? `NAT64 of a ${inner} address` : undefined;
  }
  if (g[0] === 0x64 && g[1] === 0xff9b && g[2] === 1) return "local NAT64";
  if (g[0] === 0x2002) {
    const inner = kindOfV4(v4Of(g[1], g[2]));
    return inner ? `6to4 of a ${inner} address` : undefined;
  }
  if (g[0] === 0x2001 && g[1] === 0) return "Teredo";
  if (g[0] === 0x2001 && g[1] === 0xdb8) return "documentation";
  if (g[0] === 0x2001 && g[1] >= 0x10 && g[1] <= 0x2f) return "reserved";
  if ((g[0] & 0xfe00) === 0xfc00) return "unique-local";
  if ((g[0] & 0xffc0) === 0xfe80) return "link-local";
  if ((g[0] & 0xffc0) === 0xfec0) return "site-local";
  if ((g[0] & 0xff00) === 0xff00) return "multicast";
  if ((g[0] & 0xe000) !== 0x2000) return "reserved";
  return undefined;
}

/**
 * What kind of non-public address IP is ("loopback", "private", "link-local"…), or undefined
 * when it is public. Text that is no address at all is "not an address" (refused, never let by).
 */
export function kindOf(ip: string): string | undefined {
  const text = ip.trim().toLowerCase();
  if (text.includes(":")) {
    const groups = parseIPv6(text);
    return groups ? kindOfV6(groups) : "not an address";
  }
  const n = parseIPv4(text);
  return n === null ? "not an address" : kindOfV4(n);
}

/** True when IP is not a public Internet address (loopback, private, link-local, reserved…). */
export function isPrivate(ip: string): boolean {
  return kindOf(ip) !== undefined;
}

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
export function hostOf(url: URL): string {
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
  const host = hostOf(url);
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
    throw new AddressError(`could not resolve ${host}: ${code ?? (error as Error).message}`);
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
