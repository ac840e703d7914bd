/**
 * What the person pulls into a message with `@`, resolved by the host when the message is sent: a
 * file stays a file attachment (read by the runner like any other), and everything else — a folder's
 * listing, a symbol and the lines around it, the selection, the open editors, the problems, the last
 * terminal output, a pasted image — is written once into the extension's storage as a kept file and
 * attached by a `tandem-context:` name. So the message's row stays small, the reference is a snapshot
 * of the moment it was sent (a later answer or a retry sees the same text), and it reaches the model
 * through the one attachment path (images as images, long texts in part with `read_file`).
 *
 * Paths come from the panel, which is untrusted: each must lie inside the workspace (real path) and
 * name a regular file (a FIFO or a device would block the read) or a folder; texts are capped.
 */
import { createHash } from "node:crypto";
import { mkdir, readdir, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { NotRegularError, openRegular } from "../../agent/regular";
import type { Attachment } from "../../agent/types";
import { fileRef, type FileRef } from "../../protocol/file-refs";
import type { ContextRef } from "../../protocol/messages";
import { MAX_IMAGE_BYTES, rasterType, nameFolders, placesOf, inside } from "../workspace";
import { t } from "../../protocol/l10n";
import { reason } from "../../protocol/reason";

/** The selection in the editor: its file (workspace-relative), lines (1-based, inclusive) and text. */
export interface EditorSelection {
  path: string;
  start: number;
  end: number;
  text: string;
  language: string;
}

/** A symbol the editor's language features know: its name, kind in words, file and line (0-based). */
export interface EditorSymbol {
  name: string;
  kind: string;
  container: string;
  path: string;
  line: number;
}

/** The last terminal output Tandem could read, or why there is none (in words for the person). */
export type TerminalOutput = { command: string; text: string } | { missing: string };

/** What the editor knows, as the `@` picker and the resolving of references need it. */
export interface EditorContext {
  /** The workspace folder references are read in; undefined when none is open. */
  root(): string | undefined;
  /** Every folder of the workspace with its name (paths start with it when there are several); default: `root` alone. */
  folders?(): { root: string; name?: string }[];
  /** Workspace-relative paths of files matching `query` (the editor's excludes honoured), `max` at most. */
  files(query: string, max: number): Promise<string[]>;
  /** The workspace symbols matching `query`, `max` at most. */
  symbols(query: string, max: number): Promise<EditorSymbol[]>;
  selection(): EditorSelection | undefined;
  /** Workspace-relative paths (or names) of the open editors. */
  editors(): string[];
  /** The workspace's problems: how many, and a summary one a line ("" none). */
  problems(): { count: number; text: string };
  terminal(): TerminalOutput;
}

/** The scheme of a kept file's path in a message's files. */
export const KEPT = "tandem-context:";
/** Characters of a kept text at most (a longer one is cut, saying so). */
export const MAX_CONTEXT_CHARS = 100_000;
/** Lines around a symbol: before and after the line it starts on. */
const SYMBOL_BEFORE = 5;
const SYMBOL_AFTER = 40;
/** Entries of a folder listed at most. */
const MAX_LISTED = 500;
/** Bytes of a file read to show a symbol at most. */
const MAX_SYMBOL_FILE = 5 * 1024 * 1024;

const KEPT_NAME = /^tandem-context:([0-9a-f]{64}\.(?:md|png|jpg|gif|webp))$/;
const EXTENSIONS: Record<string, string> = {
  "image/png": "png",
  "image/jpeg": "jpg",
  "image/gif": "gif",
  "image/webp": "webp",
};
const TYPES: Record<string, string> = {
  md: "text/plain",
  png: "image/png",
  jpg: "image/jpeg",
  gif: "image/gif",
  webp: "image/webp",
};

/** Kept files: written once under `folder/context`, named by their content. */
export class Kept {
  constructor(private readonly folder: string) {}

  /** Keeps `data` and returns the file reference a message carries, shown as `name`. */
  async keep(name: string, extension: string, data: Buffer | string): Promise<FileRef> {
    const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
    const file = `${createHash("sha256").update(bytes).digest("hex")}.${extension}`;
    const dir = join(this.folder, "context");
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, file), bytes);
    const ref = fileRef(`${KEPT}${file}`, name);
    return ref;
  }

  /** The attachment of a kept file's path, or undefined when `path` is not one. */
  attachment(path: string, name: string): Attachment | undefined {
    const match = KEPT_NAME.exec(path);
    if (!match) return undefined;
    const extension = match[1].split(".")[1];
    return { name, type: TYPES[extension], path: join(this.folder, "context", match[1]) };
  }

  /**
   * Keeps a pasted image given as a `data:` URL: PNG, JPEG, GIF or WebP by its first bytes (whatever
   * the URL claims), at most MAX_IMAGE_BYTES; throws saying why not.
   */
  async image(dataUrl: string, name: string): Promise<FileRef> {
    const comma = dataUrl.indexOf(",");
    if (!dataUrl.startsWith("data:") || comma < 0) throw new Error(t("it is not an image"));
    const bytes = Buffer.from(dataUrl.slice(comma + 1), "base64");
    if (bytes.length > MAX_IMAGE_BYTES)
      throw new Error(
        t("it is {0} KB; at most {1} KB is kept", Math.ceil(bytes.length / 1024), MAX_IMAGE_BYTES / 1024),
      );
    const type = rasterType(bytes);
    if (!type) throw new Error(t("only PNG, JPEG, GIF and WebP images are accepted"));
    const extension = EXTENSIONS[type];
    const shown = (name.trim() || "Pasted image").replace(/\.[a-z0-9]+$/i, "");
    return this.keep(`${shown}.${extension}`, extension, bytes);
  }
}

/** A reference's name, as its chip and the refusals say it. */
export function nameOf(ref: ContextRef): string {
  switch (ref.kind) {
    case "file":
    case "folder":
      return ref.path;
    case "symbol":
      return `${ref.name} (${ref.path}:${ref.line + 1})`;
    case "selection":
      return t("the selection");
    case "editors":
      return t("the open editors");
    case "problems":
      return t("the problems");
    case "terminal":
      return t("the terminal output");
  }
}

/** What the references of a message became: the files it carries, and the ones refused with why. */
export interface Resolved {
  files: FileRef[];
  refused: string[];
}

/** Resolves each reference into a file of the message; one that cannot be read is refused, said, and the rest go on. */
export async function resolveRefs(
  refs: readonly ContextRef[],
  editor: EditorContext,
  kept: Kept,
): Promise<Resolved> {
  const out: Resolved = { files: [], refused: [] };
  for (const ref of refs) {
    try {
      out.files.push(await resolveOne(ref, editor, kept));
    } catch (error) {
      out.refused.push(t("Tandem did not add {0}: {1}", nameOf(ref), reason(error)));
    }
  }
  return out;
}

async function resolveOne(ref: ContextRef, editor: EditorContext, kept: Kept): Promise<FileRef> {
  switch (ref.kind) {
    case "file": {
      await regularFile(editor, ref.path);
      return fileRef(ref.path);
    }
    case "folder":
      return kept.keep(`Folder ${ref.path}`, "md", await listing(editor, ref.path));
    case "symbol":
      return kept.keep(`Symbol ${nameOf(ref)}`, "md", await aroundSymbol(editor, ref));
    case "selection": {
      const s = editor.selection();
      if (!s || !s.text) throw new Error(t("nothing is selected in the editor."));
      const where = `${s.path}:${s.start}-${s.end}`;
      return kept.keep(
        `Selection ${where}`,
        "md",
        capped(`Selected in ${where}:\n${fence(s.text, s.language)}`),
      );
    }
    case "editors": {
      const open = editor.editors();
      if (!open.length) throw new Error(t("no editor is open."));
      return kept.keep(
        "Open editors",
        "md",
        capped(`The files open in the editor:\n${open.map((p) => `- ${p}`).join("\n")}`),
      );
    }
    case "problems": {
      const { count, text } = editor.problems();
      return kept.keep(
        "Problems",
        "md",
        capped(count ? `The workspace's problems (${count}):\n${text}` : "The workspace has no problems."),
      );
    }
    case "terminal": {
      const output = editor.terminal();
      if ("missing" in output) throw new Error(output.missing);
      const text =
        output.text.length > MAX_CONTEXT_CHARS ? `…${output.text.slice(-MAX_CONTEXT_CHARS)}` : output.text;
      return kept.keep(
        "Terminal output",
        "md",
        `The output of \`${output.command}\` in the terminal:\n${fence(text, "")}`,
      );
    }
  }
}

/** The absolute path of a regular file at `path` in the workspace; throws saying why not. */
async function regularFile(editor: EditorContext, path: string): Promise<string> {
  const absolute = await inWorkspace(editor, path);
  const found = await stat(absolute).catch(() => undefined);
  if (!found) throw new Error(t("{0} does not exist in the workspace.", path));
  if (!found.isFile()) {
    const kind = found.isDirectory()
      ? t("a folder")
      : found.isFIFO()
        ? t("a named pipe (FIFO)")
        : t("not a regular file");
    throw new Error(t("{0} is {1}; only regular files are attached.", path, kind));
  }
  return absolute;
}

/**
 * The absolute path of `path` inside the workspace: in the folder its first name names when there
 * are several folders, else in the first folder that holds it; throws when it lies outside.
 */
async function inWorkspace(editor: EditorContext, path: string): Promise<string> {
  const root = editor.root();
  const folders = nameFolders(editor.folders?.() ?? (root ? [{ root }] : []));
  if (!folders.length) throw new Error(t("no folder is open."));
  let first: string | undefined;
  let refused: unknown;
  for (const at of placesOf(folders, path)) {
    const absolute = await inside(at.folder.root, at.path).catch((error: unknown) => {
      refused ??= error;
      return undefined;
    });
    if (absolute === undefined) continue;
    if (
      await stat(absolute).then(
        () => true,
        () => false,
      )
    )
      return absolute;
    first ??= absolute;
  }
  if (first !== undefined) return first;
  throw refused;
}

/** A folder's entries, one a line (folders end with "/"), MAX_LISTED at most. */
async function listing(editor: EditorContext, path: string): Promise<string> {
  const absolute = await inWorkspace(editor, path);
  const found = await stat(absolute).catch(() => undefined);
  if (!found?.isDirectory()) throw new Error(`${path} is not a folder in the workspace.`);
  const entries = (await readdir(absolute, { withFileTypes: true }))
    .filter((e) => e.name !== ".git")
    .map((e) => (e.isDirectory() ? `${e.name}/` : e.name))
    .sort((a, b) => a.localeCompare(b));
  const shown = entries.slice(0, MAX_LISTED);
  const more =
    entries.length > shown.length ? `\n[${entries.length - shown.length} more entries are not listed.]` : "";
  return `The folder ${path.replace(/\/?$/, "/")} holds ${entries.length} entries:\n${shown.join("\n")}${more}`;
}

/** A symbol's place and the lines around it, numbered. */
async function aroundSymbol(
  editor: EditorContext,
  ref: Extract<ContextRef, { kind: "symbol" }>,
): Promise<string> {
  const absolute = await regularFile(editor, ref.path);
  const { handle, size } = await openRegular(absolute, ref.path).catch((error: unknown) => {
    if (error instanceof NotRegularError) throw new Error(error.message);
    throw error;
  });
  let text: string;
  try {
    if (size > MAX_SYMBOL_FILE)
      throw new Error(`${ref.path} is larger than ${MAX_SYMBOL_FILE / 1024 / 1024} MB.`);
    text = (await handle.readFile()).toString("utf8");
  } finally {
    await handle.close();
  }
  const lines = text.split(/\r?\n/);
  if (ref.line >= lines.length) throw new Error(`${ref.path} has no line ${ref.line + 1} any more.`);
  const first = Math.max(0, ref.line - SYMBOL_BEFORE);
  const last = Math.min(lines.length, ref.line + SYMBOL_AFTER + 1);
  const numbered = lines
    .slice(first, last)
    .map((line, i) => `${String(first + i + 1).padStart(5)}  ${line}`)
    .join("\n");
  return capped(
    `The symbol ${ref.name} is at ${ref.path}:${ref.line + 1}. Lines ${first + 1}–${last}:\n${fence(numbered, "")}`,
  );
}

function fence(text: string, language: string): string {
  const ticks = /```/.test(text) ? "````" : "```";
  return `${ticks}${language}\n${text}\n${ticks}`;
}

function capped(text: string): string {
  if (text.length <= MAX_CONTEXT_CHARS) return text;
  return `${text.slice(0, MAX_CONTEXT_CHARS)}\n[Cut at ${MAX_CONTEXT_CHARS} of ${text.length} characters.]`;
}
