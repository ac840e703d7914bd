/** What an item shows beside its text: the files of a message and the sources a tool read. */
import type { Chip, Source } from "../src/protocol/rows";
import { readArgs } from "../src/protocol/args";

/** The pages a tool's output names: {title, url} records when it is JSON, else the URLs in its text. */
export function sourcesOf(output: string): Source[] {
  const found: Source[] = [];
  try {
    collect(JSON.parse(output), found, 0);
  } catch {
    // Plain text: its URLs are the sources.
  }
  if (found.length === 0) {
    for (const match of output.matchAll(/https?:\/\/[^\s"'<>)\]]+/g))
      found.push({ title: "", url: match[0] });
  }
  return found;
}

function collect(value: unknown, found: Source[], depth: number): void {
  if (depth > 6 || found.length > 50 || !value || typeof value !== "object") return;
  if (Array.isArray(value)) {
    for (const entry of value) collect(entry, found, depth + 1);
    return;
  }
  const record = value as Record<string, unknown>;
  const url = record.url ?? record.link ?? record.href;
  if (typeof url === "string" && /^https?:\/\//.test(url)) {
    const title = record.title ?? record.name;
    found.push({ title: typeof title === "string" ? title : "", url });
  }
  for (const entry of Object.values(record))
    if (entry && typeof entry === "object") collect(entry, found, depth + 1);
}

/** The chips of sources: one for each site (its first page), six at most. */
export function chipsOf(sources: Source[]): Chip[] {
  const chips: Chip[] = [];
  const sites = new Set<string>();
  for (const source of sources) {
    let site: string;
    try {
      site = new URL(source.url).hostname.replace(/^www\./, "");
    } catch {
      continue;
    }
    if (!site || sites.has(site)) continue;
    sites.add(site);
    chips.push({ letter: site[0].toUpperCase(), site, title: source.title || source.url, url: source.url });
    if (chips.length === 6) break;
  }
  return chips;
}

/** A short line for a call's input: its values, not its JSON punctuation. */
export function inputSummary(input: string, max = 80): string {
  // Arguments that cannot be read are shown as they are.
  const read = readArgs(input);
  let line = read.ok
    ? Object.entries(read.args)
        .map(([key, entry]) => `${key}: ${typeof entry === "string" ? entry : JSON.stringify(entry)}`)
        .join(", ")
    : input;
  line = line.replace(/\s+/g, " ").trim();
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
}
