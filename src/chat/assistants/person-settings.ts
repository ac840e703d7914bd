/**
 * The settings that only the person may set: where requests go, which key is sent, what runs without
 * asking. A repository's `.vscode/settings.json` (or a `.code-workspace` file) is hostile input, so a
 * value it gives for one of these is never read, only reported.
 */

/** Every setting that can send a secret, choose where requests go, or lower approval. */
export const PERSON_ONLY = [
  "tandem.endpoints",
  "tandem.defaultModel",
  "tandem.approval",
  "tandem.commands",
  // A repository could otherwise hand the person's keys to the commands it defines.
  "tandem.environment.passToCommands",
  "tandem.localServers",
  // A repository could otherwise turn local-only off and reach the network from the person's machine.
  "tandem.localOnly",
  "tandem.execute.autoStart",
  "tandem.execute.port",
  "tandem.execute.models",
  "tandem.plugins.allowPrivateAddresses",
  // A repository could otherwise send every tool VS Code offers (and their schemas) with each request.
  "tandem.tools.alwaysOffered",
  "tandem.edits.mode",
  // A repository could otherwise turn checkpoints off, or shrink them until they keep nothing.
  "tandem.checkpoints.enabled",
  "tandem.checkpoints.maxTotalMB",
  "tandem.checkpoints.maxFileMB",
] as const;

/** One of the settings only the person may set. */
export type PersonSetting = (typeof PERSON_ONLY)[number];

/** A setting's value at each level, as VS Code's `inspect()` gives it (the levels Tandem looks at). */
export interface Levels<T> {
  defaultValue?: T;
  globalValue?: T;
  workspaceValue?: T;
  workspaceFolderValue?: T;
}

/** The person's value of a setting: their user (or machine) value, else the default. A workspace's never counts. */
export function personValue<T>(levels: Levels<T> | undefined): T | undefined {
  return levels?.globalValue ?? levels?.defaultValue;
}

/**
 * A limit a repository may tighten but never loosen (rounds, tokens, seconds, attachment size): the
 * person's value, or the workspace's (its folder's first) when that is stricter. With `zeroIsNone`,
 * 0 means "no limit", so any positive value is stricter than it. Raising a limit from a cloned
 * repository's `.vscode/settings.json` would spend the person's endpoint budget without them.
 */
export function stricterLimit(levels: Levels<number> | undefined, zeroIsNone = false): number | undefined {
  const own = personValue(levels);
  const theirs = levels?.workspaceFolderValue ?? levels?.workspaceValue;
  if (typeof theirs !== "number" || !Number.isFinite(theirs) || theirs < 0) return own;
  if (own === undefined) return theirs;
  if (zeroIsNone && own === 0) return theirs;
  if (zeroIsNone && theirs === 0) return own;
  return Math.min(own, theirs);
}

/** Whether a workspace or one of its folders gives the setting a value (which `personValue` ignores). */
export function setByWorkspace(levels: Levels<unknown> | undefined): boolean {
  return levels?.workspaceValue !== undefined || levels?.workspaceFolderValue !== undefined;
}

/**
 * The person-only settings that a settings file's text sets, in PERSON_ONLY's order: dotted keys
 * (`"tandem.endpoints"`), nested objects (`"tandem": {"endpoints": …}`), and, with `under`, those
 * inside one key (`"settings"` of a `.code-workspace` file). Comments and trailing commas are allowed,
 * as VS Code allows them; a text that cannot be read sets nothing.
 */
export function personSettingsIn(text: string, under?: string): PersonSetting[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(withoutComments(text));
  } catch {
    return [];
  }
  const root = under && isObject(parsed) ? parsed[under] : parsed;
  const found = new Set<string>();
  const walk = (value: unknown, path: string): void => {
    if (path) found.add(path);
    if (!isObject(value)) return;
    for (const [key, inner] of Object.entries(value)) walk(inner, path ? `${path}.${key}` : key);
  };
  walk(root, "");
  return PERSON_ONLY.filter((name) => found.has(name));
}

/** A file that sets person-only settings, and which. */
export interface Ignored {
  /** The file as the person would find it, e.g. `.vscode/settings.json` or `project.code-workspace`. */
  file: string;
  settings: PersonSetting[];
}

/** Remembers what was reported, so each ignored setting of each file is reported once. */
export class IgnoredReports {
  private readonly told = new Set<string>();

  /** Of `found`, what has not been reported yet (now counted as reported); files with nothing new are left out. */
  fresh(found: readonly Ignored[]): Ignored[] {
    const out: Ignored[] = [];
    for (const { file, settings } of found) {
      const news = settings.filter((s) => !this.told.has(`${file}\n${s}`));
      for (const s of news) this.told.add(`${file}\n${s}`);
      if (news.length) out.push({ file, settings: news });
    }
    return out;
  }
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** JSON with comments (// and /* *\/) and trailing commas, as plain JSON; strings are left as they are. */
export function withoutComments(text: string): string {
  let out = "";
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      const start = i;
      for (i++; i < text.length && text[i] !== '"'; i++) if (text[i] === "\\") i++;
      out += text.slice(start, i + 1);
    } else if (c === "/" && text[i + 1] === "/") {
      while (i < text.length && text[i] !== "\n") i++;
      out += "\n";
    } else if (c === "/" && text[i + 1] === "*") {
      const end = text.indexOf("*/", i + 2);
      i = end < 0 ? text.length : end + 1;
      out += " ";
    } else out += c;
  }
  // A comma before a closing bracket: VS Code accepts it, JSON.parse does not.
  return out.replace(/,(\s*[}\]])/g, "$1");
}
