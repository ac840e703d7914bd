// The pages a tool read and the chips that show them: one rule for the host and the panel. A chip is
// a link the person may click, so only a public web page becomes one (never javascript:, data:,
// file:, or a machine of the person's own network, whatever a tool's output says).
import { kindOf } from "./address-kind";
import { isRecord } from "./args";
import type { Chip, Source } from "./rows";

/** Chips a step shows at most. */
const MOST = 6;

/** Names that only mean something inside the person's own network (RFC 6761, RFC 8375, common usage). */
const LOCAL_NAMES = /(^|\.)(localhost|local|internal|intranet|lan|home|corp|home\.arpa)$/;

/**
 * Whether `host` (a URL's hostname) is a machine of the person's own network rather than a public
 * site: a non-public IP address, a one-label name (an intranet host), or a name only local networks use.
 */
export function privateHost(host: string): boolean {
  const name = host
    .toLowerCase()
    .replace(/^\[|\]$/g, "")
    .replace(/\.$/, "");
  const kind = kindOf(name);
  if (kind !== "not an address") return kind !== undefined;
  return !name.includes(".") || LOCAL_NAMES.test(name);
}

/**
 * The sources a tool's output names, by convention: a tool that read pages answers a JSON object
 * whose `sources` is a list of `{title, url}`. Anything else names none (a URL in plain text is not
 * a source: a page or a file the agent read could write one there).
 */
export function sourcesIn(output: string): Source[] {
  const text = output.trim();
  if (!text.startsWith("{")) return [];
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return [];
  }
  if (!isRecord(value) || !Array.isArray(value.sources)) return [];
  const list: unknown[] = value.sources;
  const out: Source[] = [];
  for (const entry of list) {
    if (isRecord(entry) && typeof entry.title === "string" && typeof entry.url === "string")
      out.push({ title: entry.title, url: entry.url });
  }
  return out;
}

/** `address` read as an http(s) page of a public host without user info; undefined for anything else. */
export function publicPage(address: string): URL | undefined {
  let url: URL;
  try {
    url = new URL(address);
  } catch {
    return undefined;
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") return undefined;
  if (url.username || url.password || privateHost(url.hostname)) return undefined;
  return url;
}

/**
 * The chips of `sources`: one for each site (its first page), six at most. Only http(s) pages of
 * public hosts without user info are shown; the site is the host in lower case without "www.", the
 * title is the page's or else the site.
 */
export function chips(sources: readonly Source[]): Chip[] {
  const out: Chip[] = [];
  const seen = new Set<string>();
  for (const source of sources) {
    if (out.length === MOST) break;
    const url = publicPage(source.url);
    if (!url) continue;
    const site = url.hostname.toLowerCase().replace(/^www\./, "");
    if (!site || seen.has(site)) continue;
    seen.add(site);
    out.push({ letter: site[0].toUpperCase(), site, title: source.title.trim() || site, url: url.href });
  }
  return out;
}

/** The chips of the pages a tool's output names (see `sourcesIn`). */
export function chipsOfOutput(output: string): Chip[] {
  return chips(sourcesIn(output));
}
