/**
 * Prompt files: a piece of work the person starts by name, as `/name` in the panel and in `@tandem`.
 * They are read from VS Code's `.github/prompts/*.prompt.md` and Claude's `.claude/commands/*.md` in
 * every workspace folder, and from the person's own folders. A file is text for the model; what its
 * front matter may change is decided in prompt-use.ts.
 */

import { readdir, realpath } from "node:fs/promises";
import path from "node:path";
import { reason as thrown } from "../../agent/perform";
import { named, type Folder } from "../workspace";
import { reviewedText, type PendingList } from "../pending";
import { readTextIn, splitFrontMatter, type Skipped } from "./skills";

/** Where prompt files are read from in a folder, and the ending that makes a file one. */
export const PROMPT_FOLDERS = [
  { folder: ".github/prompts", ending: ".prompt.md" },
  { folder: ".claude/commands", ending: ".md" },
] as const;

/** The panel's and `@tandem`'s own commands: a prompt file cannot take their names. */
export const OWN_COMMANDS = ["new", "explain", "plan", "model", "compact", "restore"];

/** How large things may be. */
export const PROMPT_LIMITS = {
  /** A prompt file, in bytes. */
  fileBytes: 128 * 1024,
  /** Prompt files read from one folder. */
  count: 200,
  /** A description, in characters. */
  description: 300,
};

/** A prompt file's name: what follows the `/`. */
const NAME = /^[A-Za-z0-9][\w.-]{0,63}$/;

/** One prompt file, read. */
export interface PromptFile {
  /** What follows the `/`, as the file names it. */
  name: string;
  /** What it is for: its front matter's `description`, else its first line. */
  description: string;
  /** What to give after its name (`argument-hint`), "" none. */
  hint: string;
  /** Where it is, as the person reads it (a workspace path, or `~/…` for the person's own). */
  shown: string;
  /** Its absolute path. */
  file: string;
  /** "workspace": the repository's (hostile input); "person": the person's own. */
  source: "workspace" | "person";
  /** Its text after the front matter. */
  body: string;
  /** Its front matter's keys, lower case, as written (prompt-use.ts reads what it asks for). */
  keys: ReadonlyMap<string, string>;
}

/** The prompt files found, and those left out with the reason. */
export interface PromptFiles {
  prompts: PromptFile[];
  skipped: Skipped[];
}

/** A place prompt files are read from: a folder, how its files are named, and whose it is. */
export interface PromptPlace {
  /** The folder itself (files are read only inside it). */
  folder: string;
  ending: string;
  /** The folder as the person reads it. */
  shown: string;
  source: PromptFile["source"];
}

/** The first line of BODY that says something, without Markdown's heading marks. */
function firstLine(body: string): string {
  const line = body
    .split("\n")
    .map((l) => l.replace(/^#+\s*/, "").trim())
    .find(Boolean);
  return line ?? "";
}

/** TEXT on one line, cut to LIMIT characters. */
function oneLine(text: string, limit: number): string {
  const line = text.replace(/\s+/g, " ").trim();
  return line.length <= limit ? line : `${line.slice(0, limit - 1)}…`;
}

/** The prompt file in TEXT named NAME. Throws the reason it cannot be one. */
export function parsePromptFile(
  text: string,
  name: string,
  where: Pick<PromptFile, "shown" | "source" | "file">,
): PromptFile {
  const { keys, body: rest } = splitFrontMatter(text);
  const body = rest.trim();
  if (!body) throw new Error("it has no text after its front matter");
  const description = oneLine(keys.get("description") || firstLine(body), PROMPT_LIMITS.description);
  const hint = oneLine(keys.get("argument-hint") ?? "", 120);
  return { name, description, hint, body, keys, ...where };
}

/** The prompt files of PLACES, in order; a name read earlier wins, and the later file is skipped. */
export async function readPromptPlaces(
  places: readonly PromptPlace[],
  pending: PendingList = [],
): Promise<PromptFiles> {
  const out: PromptFiles = { prompts: [], skipped: [] };
  const byName = new Map<string, string>();
  for (const place of places) {
    let entries: string[];
    let folder: string;
    try {
      folder = await realpath(place.folder);
      entries = (await readdir(folder)).filter((e) => e.endsWith(place.ending)).sort();
    } catch {
      continue;
    }
    for (const [i, entry] of entries.entries()) {
      const shown = `${place.shown}/${entry}`;
      if (i >= PROMPT_LIMITS.count) {
        out.skipped.push({
          path: shown,
          reason: `more than ${PROMPT_LIMITS.count} prompt files in the folder`,
        });
        break;
      }
      const name = entry.slice(0, -place.ending.length);
      try {
        if (!NAME.test(name))
          throw new Error("its name is not letters, digits, dots, dashes and underscores");
        if (OWN_COMMANDS.includes(name.toLowerCase())) throw new Error(`/${name} is Tandem's own command`);
        const first = byName.get(name.toLowerCase());
        if (first) throw new Error(`a prompt file named "${name}" was already read from ${first}`);
        const file = path.join(folder, entry);
        const text = await reviewedText(pending, file, () =>
          readTextIn(folder, file, PROMPT_LIMITS.fileBytes),
        );
        out.prompts.push(parsePromptFile(text, name, { shown, source: place.source, file }));
        byName.set(name.toLowerCase(), shown);
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") continue;
        out.skipped.push({ path: shown, reason: code ? `it cannot be read (${code})` : thrown(error) });
      }
    }
  }
  return out;
}

/**
 * Where the prompt files of a workspace's FOLDERS and of the person (PERSON: their own folders,
 * e.g. VS Code's user `prompts` folder and `~/.claude/commands`) are read, the workspace's first.
 */
export function promptPlaces(
  folders: readonly Folder[],
  person: readonly { folder: string; ending: string; shown: string }[] = [],
): PromptPlace[] {
  const places: PromptPlace[] = [];
  for (const folder of folders) {
    for (const { folder: sub, ending } of PROMPT_FOLDERS) {
      places.push({
        folder: path.join(folder.root, sub),
        ending,
        shown: named([...folders], folder, sub),
        source: "workspace",
      });
    }
  }
  for (const place of person) places.push({ ...place, source: "person" });
  return places;
}

/** The prompt file named NAME (any case) among PROMPTS. */
export function promptNamed(prompts: readonly PromptFile[], name: string): PromptFile | undefined {
  const wanted = name.toLowerCase();
  return prompts.find((p) => p.name.toLowerCase() === wanted);
}

/** `/name rest` at the start of TEXT: the name and the rest (its arguments), or undefined. */
export function slashCommand(text: string): { name: string; args: string } | undefined {
  const match = /^\/([A-Za-z0-9][\w.-]{0,63})(?::|(?=\s)|$)\s*([\s\S]*)$/.exec(text.trimStart());
  return match ? { name: match[1], args: match[2].trim() } : undefined;
}
