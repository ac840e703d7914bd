/**
 * What the checkpoints say to the person, each a whole sentence through `t()` (every plural form its
 * own sentence), so a translation can word it as its language does: what a restore did, why a path
 * was left as it was, and the question asked before a restore (with the open files whose unsaved
 * changes are saved first, so the checkpoint taken before the restore keeps them).
 */
import { resolve } from "node:path";
import { t } from "../../protocol/l10n";

/** A short quotation of the person's message for a sentence. */
export function quoted(text: string): string {
  const words = text.replace(/\s+/g, " ").trim();
  return `“${words.length > 60 ? `${words.slice(0, 59)}…` : words}”`;
}

/** What a restore did: files written back and files removed, before the message `message`. */
export function restoredText(message: string, put: number, removed: number): string {
  const q = quoted(message);
  if (put && removed) {
    if (put === 1 && removed === 1)
      return t("Restored 1 file to how they were before {0}; 1 file created since was removed.", q);
    if (put === 1)
      return t(
        "Restored 1 file to how they were before {0}; {1} files created since were removed.",
        q,
        removed,
      );
    if (removed === 1)
      return t("Restored {0} files to how they were before {1}; 1 file created since was removed.", put, q);
    return t(
      "Restored {0} files to how they were before {1}; {2} files created since were removed.",
      put,
      q,
      removed,
    );
  }
  if (put === 1) return t("Restored 1 file to how they were before {0}.", q);
  if (put) return t("Restored {0} files to how they were before {1}.", put, q);
  if (removed === 1) return t("The files are as they were before {0}; 1 file created since was removed.", q);
  if (removed)
    return t("The files are as they were before {0}; {1} files created since were removed.", q, removed);
  return t("The files were already as they were before {0}.", q);
}

/** The sentence naming the paths a restore left as they were (`left`: "path (why)" each); "" none. */
export function notRestoredText(left: readonly string[]): string {
  const shown = left.slice(0, 5).join(", ");
  if (left.length <= 5) return left.length ? t("Not restored: {0}.", shown) : "";
  if (left.length === 6) return t("Not restored: {0} and 1 more.", shown);
  return t("Not restored: {0} and {1} more.", shown, left.length - 5);
}

/** What finishing a restore a crash cut short did. */
export function finishedText(changed: number): string {
  return changed === 1
    ? t("The restore was finished: 1 file put back.")
    : t("The restore was finished: {0} files put back.", changed);
}

// The checkpoint store writes its reasons in English, and keeps them in checkpoints already taken:
// they are translated where they are shown, each from the sentence the store writes.
const REASONS = new Map<string, () => string>([
  ["not restored: it was too large to keep", () => t("not restored: it was too large to keep")],
  [
    "not restored: the checkpoint does not cover it",
    () => t("not restored: the checkpoint does not cover it"),
  ],
  ["not restored: it cannot be read now", () => t("not restored: it cannot be read now")],
  ["not restored: something else is in its place", () => t("not restored: something else is in its place")],
  [
    "kept: the folder holds files the checkpoint does not cover",
    () => t("kept: the folder holds files the checkpoint does not cover"),
  ],
  [
    "not covered: it kept changing while the checkpoint was taken",
    () => t("not covered: it kept changing while the checkpoint was taken"),
  ],
  ["not covered: a named pipe", () => t("not covered: a named pipe")],
  ["not covered: a socket", () => t("not covered: a socket")],
  ["not covered: a device", () => t("not covered: a device")],
  ["not covered: not a file, folder or link", () => t("not covered: not a file, folder or link")],
]);

// Reasons that carry a value (a size, an error code), by the sentence's fixed start and end.
const WITH_VALUES: [RegExp, (...values: string[]) => string][] = [
  [/^not restored \((.+)\)$/, (code) => t("not restored ({0})", code)],
  [/^could not be removed \((.+)\)$/, (code) => t("could not be removed ({0})", code)],
  [
    /^its permissions were not restored \((.+)\)$/,
    (code) => t("its permissions were not restored ({0})", code),
  ],
  [
    /^not covered: it could not be read \((.+)\)$/,
    (code) => t("not covered: it could not be read ({0})", code),
  ],
  [
    /^not covered: the link could not be read \((.+)\)$/,
    (code) => t("not covered: the link could not be read ({0})", code),
  ],
  [
    /^not covered: the folder could not be read \((.+)\)$/,
    (code) => t("not covered: the folder could not be read ({0})", code),
  ],
  [
    /^not kept: larger than (.+) \((.+)\)$/,
    (limit, size) => t("not kept: larger than {0} ({1})", limit, size),
  ],
  [/^larger than (.+)$/, (limit) => t("larger than {0}", limit)],
];

/** A reason the checkpoint store gave for a path (not kept, not restored), in the person's language. */
export function reasonText(why: string): string {
  const fixed = REASONS.get(why);
  if (fixed) return fixed();
  for (const [pattern, say] of WITH_VALUES) {
    const m = pattern.exec(why);
    if (m) return say(...m.slice(1));
  }
  return why;
}

/** An open document: where its file is, and whether it holds changes not saved. */
export interface OpenDocument {
  path: string;
  dirty: boolean;
}

/** The same path as the file system sees it (Windows paths are not case-sensitive). */
function samePath(path: string): string {
  const p = resolve(path);
  return process.platform === "win32" ? p.toLowerCase() : p;
}

/** The open documents with unsaved changes among `files` (absolute paths a restore writes or removes). */
export function unsavedAmong<D extends OpenDocument>(open: readonly D[], files: readonly string[]): D[] {
  const restored = new Set(files.map(samePath));
  return open.filter((d) => d.dirty && restored.has(samePath(d.path)));
}

/** What a restore is about to do, for the question asked before it. */
export interface AboutToRestore {
  /** The person's message the files go back to. */
  message: string;
  /** Files that differ from the checkpoint, of which `created` were made since (and go). */
  files: number;
  created: number;
  /** Open files whose unsaved changes are saved first. */
  unsaved: number;
}

/** The question asked before a restore, in whole sentences. */
export function restoreQuestion(p: AboutToRestore): string {
  const q = quoted(p.message);
  const sentences = [
    p.files === 1
      ? t("Restore 1 file to how it was before {0}?", q)
      : t("Restore {0} files to how they were before {1}?", p.files, q),
  ];
  if (p.created === 1) sentences.push(t("1 file created since will be removed."));
  else if (p.created) sentences.push(t("{0} files created since will be removed.", p.created));
  if (p.unsaved === 1) sentences.push(t("Unsaved changes in 1 open file are saved first."));
  else if (p.unsaved) sentences.push(t("Unsaved changes in {0} open files are saved first.", p.unsaved));
  sentences.push(t("A checkpoint of the files as they are now is taken first."));
  return sentences.join(" ");
}
