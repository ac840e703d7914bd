/** What makes a translation complete: the English keys exactly, no empty text, the same placeholders. */
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";

/** The languages Tandem is to ship in, as VS Code names them (`vscode.env.language`). */
export const TARGET_LANGUAGES = ["de", "fr", "es", "ja", "zh-cn", "pt-br"] as const;

/** The English files, relative to the extension's root, and where each language's copy lives. */
export const BUNDLES = [
  { english: "package.nls.json", translated: (lang: string) => `package.nls.${lang}.json` },
  { english: "l10n/bundle.l10n.json", translated: (lang: string) => `l10n/bundle.l10n.${lang}.json` },
] as const;

/** Reads a bundle file into key -> text, or says why it cannot be used. */
export function readBundle(path: string): Map<string, string> | string {
  if (!existsSync(path)) return "is missing";
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    return `is not JSON (${error instanceof Error ? error.message : String(error)})`;
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) return "is not a JSON object";
  const out = new Map<string, string>();
  for (const [key, value] of Object.entries(parsed)) {
    // Only a plain string is a text: the panel and t() read no `{ message, comment }` form.
    out.set(key, typeof value === "string" ? value : "");
  }
  return out;
}

/**
 * The parts of a text a translation must keep as they are, kind by kind, sorted (their order may
 * change with the sentence): `{0}` / `{name}` placeholders, Markdown link targets, `code` spans and
 * `$(codicon)` references.
 */
export function placeholders(message: string): Record<string, string[]> {
  const all = (re: RegExp) => [...message.matchAll(re)].map((m) => m[1]).sort();
  return {
    placeholder: all(/(\{(?:\d+|[A-Za-z_]\w*)\})/g),
    link: all(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g),
    code: all(/`([^`]+)`/g),
    icon: all(/(\$\([\w~-]+\))/g),
  };
}

/** Every way `translated` falls short of `english`, one sentence each (empty: complete). */
export function compare(
  english: Map<string, string>,
  translated: Map<string, string>,
  file: string,
): string[] {
  const problems: string[] = [];
  for (const key of english.keys()) if (!translated.has(key)) problems.push(`${file}: "${key}" is missing`);
  for (const [key, value] of translated) {
    const source = english.get(key);
    if (source === undefined) {
      problems.push(`${file}: "${key}" is not an English key`);
      continue;
    }
    if (value.trim() === "") {
      problems.push(`${file}: "${key}" is empty or not a plain string`);
      continue;
    }
    // A text joined to others ("Done: " before a step) keeps the spaces at its ends.
    const ends = (s: string) => [/^\s*/.exec(s)?.[0], /\s*$/.exec(s)?.[0]].join("|");
    if (ends(value) !== ends(source)) problems.push(`${file}: "${key}" does not keep the spaces at its ends`);
    const want = placeholders(source);
    const got = placeholders(value);
    for (const kind of Object.keys(want)) {
      if (want[kind].join("\u0000") !== got[kind].join("\u0000")) {
        problems.push(
          `${file}: "${key}" has ${kind}s [${got[kind].join(", ")}], English [${want[kind].join(", ")}]`,
        );
      }
    }
  }
  return problems;
}

/** Every problem of one language's files under `root` (the extension's folder or a fixture). */
export function checkLanguage(root: string, lang: string): string[] {
  const problems: string[] = [];
  for (const bundle of BUNDLES) {
    const english = readBundle(join(root, bundle.english));
    const file = bundle.translated(lang);
    const translated = readBundle(join(root, file));
    if (typeof english === "string") problems.push(`${bundle.english} ${english}`);
    else if (typeof translated === "string") problems.push(`${file} ${translated}`);
    else problems.push(...compare(english, translated, file));
  }
  return problems;
}
