/**
 * Skills: how to do one kind of work, from the Skill table and from `SKILL.md` files in the
 * workspace's `.github/skills/<name>/` and `.claude/skills/<name>/` folders. Every agent sees each
 * skill's name and when to use it in the `load_skill` tool, and reads a body only when it needs it.
 */

import { readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { z } from "zod";
import { tool } from "../../agent/tool";
import type { Skill } from "../row-schemas";
import type { Grouped } from "../approval";
import { reason as thrown } from "../../agent/perform";
import { named, type Folder } from "../workspace";
import { reviewedText, type PendingList } from "../pending";

/** The folders of the workspace skills are read from, in this order. */
export const SKILL_FOLDERS = [".github/skills", ".claude/skills"];

/** The file of a skill in its folder. */
export const SKILL_FILE = "SKILL.md";

/** The name of the tool that reads a skill. */
export const LOAD_SKILL = "load_skill";

/** How large things may be. */
export const SKILL_LIMITS = {
  /** A SKILL.md file, in bytes. */
  fileBytes: 256 * 1024,
  /** A skill's name, in characters. */
  name: 64,
  /** A skill's description, in characters (longer ones are cut). */
  description: 1024,
  /** Skill folders read from one workspace. */
  count: 200,
};

/** A SKILL.md that was not read, and why. */
export interface Skipped {
  path: string;
  reason: string;
}

/** The skills read from a workspace's files, and the files left out. */
export interface SkillFiles {
  skills: Skill[];
  skipped: Skipped[];
}

/** A value of the front matter: quotes removed. */
function unquoted(value: string): string {
  const v = value.trim();
  if (v.length >= 2 && v.startsWith('"') && v.endsWith('"')) {
    try {
      return JSON.parse(v) as string;
    } catch {
      return v.slice(1, -1);
    }
  }
  if (v.length >= 2 && v.startsWith("'") && v.endsWith("'")) return v.slice(1, -1).replace(/''/g, "'");
  return v;
}

/**
 * The keys of YAML-ish front matter LINES: `key: value`, quoted values, and `|` / `>` blocks or
 * indented lines that continue a value. Other YAML is read as text.
 */
export function frontMatter(lines: string[]): Map<string, string> {
  const keys = new Map<string, string>();
  let key = "";
  let block: "" | "|" | ">" = "";
  let parts: string[] = [];
  const end = () => {
    if (!key) return;
    const text = block === "|" ? parts.join("\n") : parts.join(" ");
    keys.set(key, block ? text.trim() : unquoted(text));
  };
  for (const line of lines) {
    const match = /^([A-Za-z_][\w-]*)\s*:(.*)$/.exec(line);
    if (match && !/^\s/.test(line)) {
      end();
      key = match[1].toLowerCase();
      const value = match[2].trim();
      block = /^[|>][+-]?$/.test(value) ? (value[0] as "|" | ">") : "";
      parts = block ? [] : [value];
    } else if (key && (/^\s/.test(line) || line.trim() === "")) {
      parts.push(line.trim());
    }
  }
  end();
  return keys;
}

/**
 * TEXT's front matter (between a first `---` line and the next `---` or `...`) as keys, and the text
 * after it (all of TEXT when it has none); line ends made `\n`. Throws when the front matter is not closed.
 */
export function splitFrontMatter(text: string): { keys: Map<string, string>; body: string } {
  const clean = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(clean)) return { keys: new Map(), body: clean };
  const lines = clean.split("\n");
  const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(line));
  if (close < 0) throw new Error("its front matter (after the first ---) is not closed by a --- line");
  return { keys: frontMatter(lines.slice(1, close)), body: lines.slice(close + 1).join("\n") };
}

/** The first paragraph of Markdown BODY that is not a heading, on one line (else the first heading). */
function firstParagraph(body: string): string {
  const paragraphs = body
    .split(/\n\s*\n/)
    .map((p) => p.trim())
    .filter(Boolean);
  const text = paragraphs.find((p) => !p.startsWith("#")) ?? paragraphs[0]?.replace(/^#+\s*/, "") ?? "";
  return text.replace(/\s+/g, " ").trim();
}

/** TEXT cut to LIMIT characters with an ellipsis. */
function cut(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit - 1)}…`;
}

/**
 * The skill in TEXT (a SKILL.md) of the folder FOLDER: the front matter's `name` and
 * `description` and the Markdown after it; without front matter, the folder's name and the
 * first paragraph. Throws the reason when it cannot be read as a skill.
 */
export function parseSkill(text: string, folder: string): Omit<Skill, "id"> {
  const { keys, body: rest } = splitFrontMatter(text);
  const name = keys.get("name")?.trim() || folder;
  let description = keys.get("description")?.replace(/\s+/g, " ").trim() ?? "";
  const body = rest.trim();
  if (!body) throw new Error("it has no instructions after its front matter");
  if (/[\r\n]/.test(name) || name.length > SKILL_LIMITS.name) {
    throw new Error(`its name is longer than ${SKILL_LIMITS.name} characters or not one line`);
  }
  description = cut(description || firstParagraph(body), SKILL_LIMITS.description);
  return { name, description, body };
}

/** True when CHILD is inside the folder PARENT. */
function inside(parent: string, child: string): boolean {
  const relative = path.relative(parent, child);
  return relative !== "" && !relative.startsWith("..") && !path.isAbsolute(relative);
}

/**
 * The text of FILE if it may be read as the person's or the repository's instructions: inside ROOT
 * (a link out of it is refused), at most LIMIT bytes, UTF-8 text. Throws the reason otherwise.
 */
export async function readTextIn(
  root: string,
  file: string,
  limit = SKILL_LIMITS.fileBytes,
): Promise<string> {
  const real = await realpath(file);
  if (!inside(root, real)) throw new Error("it leads outside the workspace");
  const info = await stat(real);
  if (!info.isFile()) throw new Error("it is not a file");
  if (info.size > limit) {
    throw new Error(`it is too large (${Math.ceil(info.size / 1024)} KB; the limit is ${limit / 1024} KB)`);
  }
  const bytes = await readFile(real);
  if (bytes.includes(0)) throw new Error("it is not text");
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw new Error("it is not UTF-8 text");
  }
}

/**
 * The skills of the workspace WORKSPACE: each `<folder>/<name>/SKILL.md` of SKILL_FOLDERS, in
 * folder then name order. A file that cannot be read, or whose name an earlier skill has, is
 * skipped with the reason. Skill ids are `file:<path in the workspace>`. A file with the agent's
 * change `pending` is read as the person reviewed it.
 */
export async function readSkills(workspace: string, pending: PendingList = []): Promise<SkillFiles> {
  const skills: Skill[] = [];
  const skipped: Skipped[] = [];
  let root: string;
  try {
    root = await realpath(workspace);
  } catch {
    return { skills, skipped };
  }
  const byName = new Map<string, string>();
  for (const folder of SKILL_FOLDERS) {
    let entries: string[];
    try {
      entries = (await readdir(path.join(root, folder))).sort();
    } catch {
      continue;
    }
    for (const entry of entries) {
      const relative = path.posix.join(folder, entry, SKILL_FILE);
      const file = path.join(root, folder, entry, SKILL_FILE);
      try {
        if (!(await stat(path.join(root, folder, entry))).isDirectory()) continue;
      } catch {
        continue;
      }
      if (skills.length >= SKILL_LIMITS.count) {
        skipped.push({ path: relative, reason: `more than ${SKILL_LIMITS.count} skills` });
        continue;
      }
      try {
        const text = await reviewedText(pending, file, () => readTextIn(root, file));
        const skill = parseSkill(text, entry);
        const key = skill.name.toLowerCase();
        const first = byName.get(key);
        if (first) throw new Error(`a skill named "${skill.name}" was already read from ${first}`);
        byName.set(key, relative);
        skills.push({ id: `file:${relative}`, ...skill });
      } catch (error) {
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOENT") continue;
        const reason = code ? `it cannot be read (${code})` : thrown(error);
        skipped.push({ path: relative, reason });
      }
    }
  }
  return { skills, skipped };
}

/**
 * The skills of every folder of a workspace (`folders` named as the tools name them): each
 * folder's own, read inside that folder; with several folders an id and a skipped path start with
 * the folder's name. A name read in an earlier folder wins (load_skill keeps the first).
 */
export async function readFolderSkills(
  folders: readonly Folder[],
  pending: PendingList = [],
): Promise<SkillFiles> {
  const out: SkillFiles = { skills: [], skipped: [] };
  for (const folder of folders) {
    const { skills, skipped } = await readSkills(folder.root, pending);
    const at = (rel: string) => named([...folders], folder, rel);
    out.skills.push(...skills.map((s) => ({ ...s, id: `file:${at(s.id.slice("file:".length))}` })));
    out.skipped.push(...skipped.map((s) => ({ ...s, path: at(s.path) })));
  }
  return out;
}

/** How long the listing of skills in the tool's description may grow. */
const LISTING_LIMIT = 8000;

/**
 * The `load_skill` tool over SKILLS (the first of a name wins: give the table's rows before the
 * files'), or undefined when there is none. Its description lists each skill's name and when to
 * use it; given a name, it answers that skill's instructions.
 */
export function loadSkill(skills: Skill[]): Grouped | undefined {
  const known = new Map<string, Skill>();
  for (const skill of skills) {
    const name = skill.name.trim();
    if (name && skill.body.trim() && !known.has(name.toLowerCase())) known.set(name.toLowerCase(), skill);
  }
  if (known.size === 0) return undefined;
  const lines: string[] = [];
  let size = 0;
  const all = [...known.values()];
  for (const [i, skill] of all.entries()) {
    const line = `- ${skill.name.trim()}: ${cut(skill.description.replace(/\s+/g, " ").trim() || "(no description)", 300)}`;
    if (size + line.length > LISTING_LIMIT) {
      lines.push(
        `- and ${all.length - i} more: ${all
          .slice(i)
          .map((s) => s.name.trim())
          .join(", ")}`,
      );
      break;
    }
    lines.push(line);
    size += line.length + 1;
  }
  const description =
    "Reads the instructions of a skill: how to do one kind of work. When the task is one of these " +
    "kinds, call this first with the skill's name and follow what it answers.\n\nSkills:\n" +
    lines.join("\n");
  const input = z.object({ name: z.string().describe("The skill's name, as the list gives it.") });
  // On a small window the list gives the skills' names only (see tool-groups.ts).
  const short = {
    description: `Reads a skill's instructions when the task is one of them: ${all.map((s) => s.name.trim()).join(", ")}.`,
  };
  const made = tool(
    LOAD_SKILL,
    description,
    input,
    ({ name }) => {
      const skill = known.get(name.trim().toLowerCase());
      if (!skill) {
        const names = all.map((s) => s.name.trim()).join(", ");
        throw new Error(`There is no skill named "${name}". The skills are: ${names}.`);
      }
      return skill.body;
    },
    { readOnly: true },
  );
  return { ...made, short };
}
