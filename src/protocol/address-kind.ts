/**
 * What kind of address an IP is: public, or loopback, private, link-local, cloud metadata… IPv6
 * text is parsed and ranges are matched by ipaddr.js; IPv4 text is read as URL parsers and
 * inet_aton read it (`0x7f.1`, `2130706433`, `0177.0.0.1`), since that is how a request would
 * reach it. The IPv4 inside an IPv6 address (mapped, translated, compatible, NAT64, 6to4) is
 * judged too: a public service is never given that way.
 */
import ipaddr from "ipaddr.js";

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

type Range<T> = [T, number];

/** The non-public IPv4 ranges and what each is (the first that matches names it). */
const V4: [Range<ipaddr.IPv4>, string][] = (
  [
    ["169.254.169.254/32", "cloud metadata"],
    ["0.0.0.0/8", "unspecified"],
    ["10.0.0.0/8", "private"],
    ["100.64.0.0/10", "shared (CGNAT)"],
    ["127.0.0.0/8", "loopback"],
    ["169.254.0.0/16", "link-local"],
    ["172.16.0.0/12", "private"],
    ["192.0.0.0/24", "reserved"],
    ["192.0.2.0/24", "documentation"],
    ["192.88.99.0/24", "reserved"],
    ["192.168.0.0/16", "private"],
    ["198.18.0.0/15", "benchmarking"],
    ["198.51.100.0/24", "documentation"],
    ["203.0.113.0/24", "documentation"],
    ["224.0.0.0/4", "multicast"],
    ["255.255.255.255/32", "broadcast"],
    ["240.0.0.0/4", "reserved"],
  ] as const
).map(([cidr, kind]) => [ipaddr.IPv4.parseCIDR(cidr), kind]);

/** The non-public IPv6 ranges that hold no IPv4 address, and what each is. */
const V6: [Range<ipaddr.IPv6>, string][] = (
  [
    ["::/128", "unspecified"],
    ["::1/128", "loopback"],
    ["64:ff9b:1::/48", "local NAT64"],
    ["2001::/32", "Teredo"],
    ["2001:db8::/32", "documentation"],
    ["2001:10::/28", "reserved"],
    ["2001:20::/28", "reserved"],
    ["fc00::/7", "unique-local"],
    ["fe80::/10", "link-local"],
    ["fec0::/10", "site-local"],
    ["ff00::/8", "multicast"],
  ] as const
).map(([cidr, kind]) => [ipaddr.IPv6.parseCIDR(cidr), kind]);

/** IPv6 forms that carry an IPv4 address: the range, how it is named, and where the IPv4 is. */
const CARRIERS: [Range<ipaddr.IPv6>, string, (bytes: number[]) => number[], boolean][] = (
  [
    // Mapped, translated and compatible forms reach the IPv4 host behind them whatever it is.
    ["::ffff:0:0/96", "IPv4-mapped", (b: number[]) => b.slice(12), true],
    ["::ffff:0:0:0/96", "IPv4-translated", (b: number[]) => b.slice(12), true],
    ["::/96", "IPv4-compatible", (b: number[]) => b.slice(12), true],
    // NAT64 and 6to4 are public ways to a public IPv4 host, not to a private one.
    ["64:ff9b::/96", "NAT64 of a", (b: number[]) => b.slice(12), false],
    ["2002::/16", "6to4 of a", (b: number[]) => b.slice(2, 6), false],
  ] as const
).map(([cidr, form, inner, always]) => [ipaddr.IPv6.parseCIDR(cidr), form, inner, always]);

function kindOfV4(address: ipaddr.IPv4): string | undefined {
  return V4.find(([range]) => address.match(range))?.[1];
}

function kindOfV6(address: ipaddr.IPv6): string | undefined {
  // :: and ::1 sit inside the compatible form's range: they are named first.
  const special = V6.slice(0, 2).find(([range]) => address.match(range))?.[1];
  if (special) return special;
  const bytes = address.toByteArray();
  for (const [range, form, inner, always] of CARRIERS) {
    if (!address.match(range)) continue;
    const kind = kindOfV4(new ipaddr.IPv4(inner(bytes)));
    if (always) return kind ? `${form} ${kind}` : form;
    return kind ? `${form} ${kind} address` : undefined;
  }
  const named = V6.find(([range]) => address.match(range))?.[1];
  if (named) return named;
  // Only 2000::/3 is given out as global unicast.
  return address.match(ipaddr.IPv6.parseCIDR("2000::/3")) ? undefined : "reserved";
}

/**
 * What kind of non-public address IP is ("loopback", "private", "link-local"…), or undefined
 * when it is public. Text that is no address at all is "not an address" (refused, never let by).
 */
export function kindOf(ip: string): string | undefined {
  let text = ip.trim().toLowerCase();
  if (text.includes(":")) {
    if (text.startsWith("[") && text.endsWith("]")) text = text.slice(1, -1);
    // The zone says which interface, not which address.
    const zone = text.indexOf("%");
    if (zone >= 0) text = text.slice(0, zone);
    // An IPv4 tail is written as its two groups first: ipaddr.js reads `::a.b.c.d` as `::ffff:a.b.c.d`.
    const tail = /^(.*:)(\d{1,3}(?:\.\d{1,3}){3})$/.exec(text);
    if (tail) {
      const n = parseIPv4(tail[2]);
      if (n === null) return "not an address";
      text = `${tail[1]}${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
    }
    if (!ipaddr.IPv6.isValid(text)) return "not an address";
    return kindOfV6(ipaddr.IPv6.parse(text));
  }
  const n = parseIPv4(text);
  if (n === null) return "not an address";
  return kindOfV4(new ipaddr.IPv4([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]));
}

/** True when IP is not a public Internet address (loopback, private, link-local, reserved…). */
export function isPrivate(ip: string): boolean {
  return kindOf(ip) !== undefined;
}
