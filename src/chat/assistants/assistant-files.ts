/**
 * Assistants kept as files in the repository: `.tandem/assistants/*.md`, front matter `name`,
 * `description`, `tools`, `mode` (`plan`: its conversations start in Plan mode; it only narrows)
 * (and `model`, shown but not followed) and the body as instructions. A
 * repository's assistant may only narrow what the person allows: it runs as the person's own
 * assistant (their approval list, their model, their memories) with its instructions and, when it
 * lists tools, only those of the person's tools. Nothing in the file changes approval or endpoints.
 */
import { readdir } from "node:fs/promises";
import { basename, posix } from "node:path";
import { reason } from "../../agent/perform";
import { readCapped, type Skipped } from "./instructions";
import type { Assistant } from "../row-schemas";
import { frontMatter } from "./skills";
import { inside } from "../workspace";
import { readReviewed, type PendingList } from "../pending";

/** The folder of a workspace folder that holds its assistants. */
export const ASSISTANTS_FOLDER = ".tandem/assistants";

/** The prefix of a repository assistant's id (`repo:` and its path). */
export const REPOSITORY = "repo:";

/** How large things may be. */
const LIMITS = { fileBytes: 32 * 1024, files: 50, name: 80 };

/** The assistants of the workspace folders' files (as the person reviewed them: `pending`), and the files left out with why. */
export async function readAssistantFiles(
  roots: readonly string[],
  pending: PendingList = [],
): Promise<{ assistants: Assistant[]; skipped: Skipped[] }> {
  const assistants: Assistant[] = [];
  const skipped: Skipped[] = [];
  for (const root of roots) {
    const label = (rel: string) => (roots.length > 1 ? `${basename(root)}/${rel}` : rel);
    let names: string[];
    try {
      names = (await readdir(await inside(root, ASSISTANTS_FOLDER))).filter((n) => n.endsWith(".md")).sort();
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== "ENOENT" && code !== "ENOTDIR")
        skipped.push({ path: label(ASSISTANTS_FOLDER), reason: reason(error) });
      continue;
    }
    for (const name of names.slice(0, LIMITS.files)) {
      const rel = posix.join(ASSISTANTS_FOLDER, name);
      try {
        const { text, size } = await readReviewed(pending, root, rel, LIMITS.fileBytes, readCapped);
        if (size > LIMITS.fileBytes) throw new Error(`it is larger than ${LIMITS.fileBytes / 1024} KB`);
        assistants.push({ id: `${REPOSITORY}${label(rel)}`, ...parseAssistantFile(text, name.slice(0, -3)) });
      } catch (error) {
        skipped.push({ path: label(rel), reason: reason(error) });
      }
    }
  }
  return { assistants, skipped };
}

/** The assistant in TEXT (a file named NAME): its front matter's name, tools and model, its body as instructions. */
export function parseAssistantFile(text: string, name: string): Omit<Assistant, "id"> {
  const clean = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  let keys = new Map<string, string>();
  let body = clean;
  if (/^---[ \t]*\n/.test(clean)) {
    const lines = clean.split("\n");
    const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(line));
    if (close < 0) throw new Error("its front matter (after the first ---) is not closed by a --- line");
    keys = frontMatter(lines.slice(1, close));
    body = lines.slice(close + 1).join("\n");
  }
  const title = (keys.get("name") ?? "").replace(/\s+/g, " ").trim() || name;
  // A YAML list `[a, b]` or `a, b`: tool names by commas, as the person's assistants write them.
  const tools = (keys.get("tools") ?? "").replace(/^\[|\]$/g, "").replace(/["']/g, "");
  return {
    name: title.slice(0, LIMITS.name),
    instructions: body.trim(),
    model: (keys.get("model") ?? "").trim(),
    tools: tools
      .split(",")
      .map((t) => t.trim())
      .filter(Boolean)
      .join(", "),
    // Approval is the person's: a file cannot say which tools skip it.
    approve: "",
    source: "repository",
    // Plan mode only narrows what is offered, so a file may ask for it; any other mode is not one.
    ...(keys.get("mode")?.trim().toLowerCase() === "plan" ? { mode: "plan" as const } : {}),
  };
}

/**
 * The assistant a run uses for the repository's `repo` on behalf of the person's `person`: the
 * person's (id, approval list, model, plugins, memories) with the file's name and instructions.
 * The file's `tools` narrow the person's at the run (only those listed are offered); its `model` is not followed,
 * since a repository choosing the model would choose where the person's code is sent.
 */
export function asRepository(person: Assistant, repo: Assistant): Assistant {
  return {
    ...person,
    name: repo.name,
    instructions: repo.instructions,
    ...(repo.mode ? { mode: repo.mode } : {}),
  };
}
