/**
 * Project instructions: the files people already write for coding agents — `AGENTS.md` (the root
 * one and the nearest one to each file in play), `.github/copilot-instructions.md`,
 * `.github/instructions/*.instructions.md` (their `applyTo` globs honoured), `CLAUDE.md` and
 * `.clinerules` (a file, or a folder of Markdown files) — read from each workspace folder. They are
 * the repository's text for the model, never settings: nothing in them (front matter included) is
 * read as anything but text, except `applyTo`, which only chooses whether a file is given.
 */
import { readdir, stat, type FileHandle } from "node:fs/promises";
import { isAbsolute, posix, relative, resolve, sep } from "node:path";
import { reason } from "../../agent/perform";
import { openRegular } from "../../agent/regular";
import { frontMatter } from "./skills";
import { globTest, nameFolders, inside, within } from "../workspace";
import { heldNote, readReviewed, type PendingList } from "../pending";

/** How much of the project's instructions is given, in bytes. */
export const INSTRUCTION_LIMITS = {
  /** One file; a longer one is cut, with a note. */
  fileBytes: 32 * 1024,
  /** All files of one run together; past it a file is cut or left out, with a note. */
  totalBytes: 64 * 1024,
  /** Files read from one `.clinerules` or `.github/instructions` folder. */
  folderFiles: 50,
};

/**
 * The limits for a model whose window is `window` tokens (0 unknown): at most a quarter of it (a
 * token is about 4 bytes), so a small local model still has room for the conversation.
 */
export function instructionLimits(window: number): typeof INSTRUCTION_LIMITS {
  if (window <= 0) return INSTRUCTION_LIMITS;
  const totalBytes = Math.min(INSTRUCTION_LIMITS.totalBytes, window);
  return { ...INSTRUCTION_LIMITS, totalBytes, fileBytes: Math.min(INSTRUCTION_LIMITS.fileBytes, totalBytes) };
}

/** One instructions file given to the model. */
export interface InstructionFile {
  /** Its path as the person reads it: relative to its folder, with `/`; named by folder when there are several. */
  path: string;
  /** Its text (front matter removed from `.instructions.md` files), cut to the limits. */
  text: string;
  /** True when only its beginning is given. */
  cut: boolean;
  /** Where it was read (absolute), for a face that shows the file itself (`@tandem`'s references). */
  file?: string;
}

/** An instructions file that was found but not given, and why. */
export interface Skipped {
  path: string;
  reason: string;
}

/** The instructions of a run: the files given, in order, and those left out. */
export interface Instructions {
  files: InstructionFile[];
  skipped: Skipped[];
}

/** The name of the file every agent reads. */
export const AGENTS_FILE = "AGENTS.md";

/** The files read at each folder's root, after its AGENTS.md files, in this order. */
const FIXED = [".github/copilot-instructions.md", ".github/instructions", "CLAUDE.md", ".clinerules"];

/** The folder of `.instructions.md` files, whose `applyTo` choose when each is given. */
const SCOPED = ".github/instructions";

/**
 * The project instructions of the workspace folders `roots` for the files in play `inPlay` (the
 * files attached, read or changed so far: absolute, or relative to a folder). Each folder gives its
 * own; every file is read inside its folder (links resolved), only when it is a regular file, and
 * cut to `limits`. A missing file is no note; one refused or cut is. A file with the agent's
 * change `pending` is read as the person reviewed it (see pending/reviewed.ts).
 */
export async function readInstructions(
  roots: readonly (string | { root: string; name?: string })[],
  inPlay: readonly string[],
  limits = INSTRUCTION_LIMITS,
  pending: PendingList = [],
): Promise<Instructions> {
  const out: Instructions = { files: [], skipped: [] };
  let left = limits.totalBytes;
  // Named as the tools name them (a workspace file's own names), so a chip opens the file it names.
  const folders = nameFolders(roots.map((r) => (typeof r === "string" ? { root: r } : r)));
  const named = folders.length > 1;
  for (const { root, name } of folders) {
    const local = inRoot(root, name, inPlay, named);
    const label = (rel: string) => (named ? `${name}/${rel}` : rel);
    for (const rel of await candidatesOf(root, local, out.skipped, label, limits)) {
      const path = label(rel);
      if (left <= 0) {
        out.skipped.push({
          path,
          reason: `the project instructions' limit of ${kb(limits.totalBytes)} was reached`,
        });
        continue;
      }
      let read: { text: string; size: number; held: boolean } | undefined;
      try {
        read = await readReviewed(pending, root, rel, Math.min(limits.fileBytes, left), readCapped);
      } catch (error) {
        if (!missing(error)) out.skipped.push({ path, reason: reason(error) });
        continue;
      }
      let text = read.text;
      if (rel.endsWith(".instructions.md")) {
        const scoped = scopedFile(text);
        if (!applies(scoped.applyTo, local)) continue;
        text = scoped.body;
      }
      const given = Buffer.byteLength(read.text);
      const cut = read.size > given;
      if (!text.trim()) continue;
      left -= given;
      if (cut) text += `\n\n[${path} is ${kb(read.size)}; only its first ${kb(given)} are given.]`;
      if (read.held) text += `\n\n${heldNote(path)}`;
      out.files.push({ path, text, cut, file: resolve(root, rel) });
    }
  }
  return out;
}

/** The files of `inPlay` that lie in the folder `root`, relative to it with `/`. */
function inRoot(root: string, name: string, inPlay: readonly string[], named: boolean): string[] {
  const top = resolve(root);
  const found = new Set<string>();
  for (const path of inPlay) {
    if (!path || path.includes("\0")) continue;
    let rel: string;
    if (isAbsolute(path)) {
      if (!within(top, resolve(path))) continue;
      rel = relative(top, resolve(path)).split(sep).join("/");
    } else {
      rel = posix.normalize(path.replace(/\\/g, "/"));
      // With several folders a relative path may be named by its folder first.
      const head = rel.split("/")[0];
      if (named && head === name) rel = rel.slice(head.length + 1);
    }
    if (rel === ".." || rel.startsWith("../") || posix.isAbsolute(rel)) continue;
    found.add(rel === "." ? "" : rel);
  }
  return [...found].filter(Boolean).sort();
}

/** The files of `root` that may hold instructions for `local`, in the order they are given. */
async function candidatesOf(
  root: string,
  local: readonly string[],
  skipped: Skipped[],
  label: (rel: string) => string,
  limits: typeof INSTRUCTION_LIMITS,
): Promise<string[]> {
  const out = [AGENTS_FILE];
  const nearest = new Set<string>();
  for (const file of local) {
    const found = await nearestAgents(root, file);
    if (found && found !== AGENTS_FILE) nearest.add(found);
  }
  out.push(...[...nearest].sort());
  for (const rel of FIXED) {
    const kind = await kindOf(root, rel);
    // The scoped folder holds files with their own globs; a file of that name is nothing.
    // A refused one is read all the same, so that the refusal is noted.
    if ((kind === "file" || kind === "refused") && rel !== SCOPED) out.push(rel);
    if (kind === "refused" && rel === SCOPED) {
      const why = await inside(root, rel).then(() => "it cannot be read", reason);
      skipped.push({ path: label(rel), reason: why });
    }
    if (kind !== "folder") continue;
    const suffix = rel === SCOPED ? ".instructions.md" : ".md";
    let names: string[];
    try {
      names = (await readdir(await inside(root, rel))).filter((n) => n.endsWith(suffix)).sort();
    } catch (error) {
      skipped.push({ path: label(rel), reason: reason(error) });
      continue;
    }
    for (const [i, name] of names.entries()) {
      if (i >= limits.folderFiles) {
        skipped.push({ path: label(`${rel}/${name}`), reason: `more than ${limits.folderFiles} files` });
        continue;
      }
      out.push(`${rel}/${name}`);
    }
  }
  return out;
}

/** The AGENTS.md nearest to `file` (in its folder or the closest folder above it), if any. */
async function nearestAgents(root: string, file: string): Promise<string | undefined> {
  // A folder in play (a listing, a search) starts at its own AGENTS.md; a file's is not there.
  let folder = file;
  for (;;) {
    const rel = folder === "." ? AGENTS_FILE : `${folder}/${AGENTS_FILE}`;
    // A refused path (a link out of the folder) counts as found: the read says why it is left out.
    if ((await kindOf(root, rel)) !== "none") return rel;
    if (folder === ".") return undefined;
    folder = posix.dirname(folder);
  }
}

/** Whether `rel` in `root` is a file, a folder, something refused, or nothing. */
async function kindOf(root: string, rel: string): Promise<"file" | "folder" | "refused" | "none"> {
  try {
    const info = await stat(await inside(root, rel));
    return info.isDirectory() ? "folder" : "file";
  } catch (error) {
    return missing(error) ? "none" : "refused";
  }
}

/** True when `error` says the file is not there. */
function missing(error: unknown): boolean {
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  return code === "ENOENT" || code === "ENOTDIR";
}

/** At most `limit` bytes of the regular file `rel` inside `root`, as text, and the file's size. */
export async function readCapped(
  root: string,
  rel: string,
  limit: number,
): Promise<{ text: string; size: number }> {
  const { handle, size } = await openRegular(await inside(root, rel), rel);
  try {
    const bytes = await readSome(handle, Math.min(size, limit));
    if (bytes.includes(0)) throw new Error(`${rel} is not text.`);
    // A cut may end inside a character: its broken tail is dropped.
    const text = bytes.toString("utf8").replace(/\uFFFD+$/, "");
    return { text, size };
  } finally {
    await handle.close();
  }
}

/** The first `count` bytes of the open file (fewer when it ends sooner). */
async function readSome(handle: FileHandle, count: number): Promise<Buffer> {
  const buffer = Buffer.alloc(count);
  let at = 0;
  while (at < count) {
    const { bytesRead } = await handle.read(buffer, at, count - at, at);
    if (bytesRead === 0) break;
    at += bytesRead;
  }
  return buffer.subarray(0, at);
}

/** An `.instructions.md` file: its `applyTo` ("" when none) and its body without the front matter. */
export function scopedFile(text: string): { applyTo: string; body: string } {
  const clean = text.replace(/^\uFEFF/, "").replace(/\r\n?/g, "\n");
  if (!/^---[ \t]*\n/.test(clean)) return { applyTo: "", body: clean };
  const lines = clean.split("\n");
  const close = lines.findIndex((line, i) => i > 0 && /^(---|\.\.\.)[ \t]*$/.test(line));
  if (close < 0) return { applyTo: "", body: clean };
  // Only applyTo is read: any other key (a model, tools, approval) stays unread.
  const applyTo = frontMatter(lines.slice(1, close)).get("applyto") ?? "";
  return { applyTo: applyTo.trim(), body: lines.slice(close + 1).join("\n") };
}

/** True when a file with the globs `applyTo` (comma-separated) is given for the files in play `local`. */
export function applies(applyTo: string, local: readonly string[]): boolean {
  const globs = splitGlobs(applyTo);
  if (!globs.length || globs.some((g) => g === "**" || g === "**/*")) return true;
  const tests = globs.map(globTest);
  return local.some((file) => tests.some((test) => test(file)));
}

/** The globs of an `applyTo` list: split at commas outside `{…}`. */
function splitGlobs(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let part = "";
  for (const ch of list) {
    if (ch === "{") depth++;
    if (ch === "}") depth = Math.max(0, depth - 1);
    if (ch === "," && depth === 0) {
      out.push(part);
      part = "";
    } else part += ch;
  }
  out.push(part);
  return out.map((g) => g.trim()).filter(Boolean);
}

/** `bytes` in KB, for notes. */
function kb(bytes: number): string {
  return `${Math.ceil(bytes / 1024)} KB`;
}
