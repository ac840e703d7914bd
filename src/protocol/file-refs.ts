// The files attached to a person's message: one shape for the host, the store and the panel.

/** How a file goes to the model: as a picture, as a PDF's text, or as text. */
export type FileKind = "image" | "pdf" | "text";

/** A file the person attached: where it is (workspace-relative path or URI), the name its chip shows, its kind. */
export interface FileRef {
  path: string;
  name: string;
  kind: FileKind;
}

const IMAGES = /\.(png|jpe?g|gif|webp|bmp)$/i;

/** The kind of the file at `path`, by its name. */
export function kindOf(path: string): FileKind {
  if (IMAGES.test(path)) return "image";
  return /\.pdf$/i.test(path) ? "pdf" : "text";
}

/** The last part of a path or URI, decoded ("x y.ts" of "file:///w/x%20y.ts"). */
export function baseName(path: string): string {
  const last = path.split(/[\\/]/).filter(Boolean).pop() ?? path;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** The attached file at `path`, named `name` (its path's last part when none is given). */
export function fileRef(path: string, name?: string): FileRef {
  return { path, name: name?.trim() || baseName(path), kind: kindOf(path) };
}

/**
 * The files of a message as rows stored before they had a shape: a JSON list of `{path, name}` or
 * of paths, else paths one a line. Read once, when such a row is loaded.
 */
export function legacyFiles(text: string): FileRef[] {
  const trimmed = text.trim();
  if (!trimmed) return [];
  if (trimmed.startsWith("[")) {
    try {
      const list: unknown = JSON.parse(trimmed);
      if (Array.isArray(list)) return list.flatMap(entryOf);
    } catch {
      // Not JSON after all: paths one a line.
    }
  }
  return trimmed
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean)
    .map((path) => fileRef(path));
}

function entryOf(entry: unknown): FileRef[] {
  if (typeof entry === "string") return entry.trim() ? [fileRef(entry.trim())] : [];
  if (!entry || typeof entry !== "object") return [];
  const { path, name } = entry as { path?: unknown; name?: unknown };
  if (typeof path !== "string" || !path.trim()) return [];
  return [fileRef(path.trim(), typeof name === "string" ? name : undefined)];
}
