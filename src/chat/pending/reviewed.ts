/**
 * The repository's instruction files as the person reviewed them. In the default pending mode the
 * agent's write lands on disk at once and the person reviews it after; a conversation that read the
 * file meanwhile would take the agent's own unreviewed text (an injection it was made to write) for
 * the project's instructions. So a file with a pending change is read as its text from before the
 * change (what the person has kept of it so far), and one the agent made is not read at all.
 */
import { realpath } from "node:fs/promises";
import { resolve } from "node:path";
import type { Pending } from "./changes";

/** What the readers of instructions, skills and assistants know of the agent's pending changes. */
export type PendingList = readonly Pick<Pending, "path" | "real" | "before">[];

/** Why a file the agent made, not reviewed yet, is not read. */
export const NOT_REVIEWED = "Tandem wrote it and the person has not reviewed it yet";

/** The pending change of the file at `absolute` (links resolved), if any. */
async function pendingOf(
  pending: PendingList,
  absolute: string,
): Promise<Pick<Pending, "before"> | undefined> {
  if (pending.length === 0) return undefined;
  const path = resolve(absolute);
  const real = await realpath(path).catch(() => path);
  return pending.find((p) => p.path === path || p.path === real || p.real === real || p.real === path);
}

/** A file's text read for the model, and whether it is the reviewed text in place of the file's. */
export interface ReadText {
  text: string;
  size: number;
  /** The file has a pending change by the agent: `text` is what it held before it. */
  held: boolean;
}

/**
 * The text of `rel` in `root` as `read` gives it (at most `limit` bytes), or, when the agent's change
 * to it is pending, its reviewed text cut to `limit`. Throws NOT_REVIEWED for a file the agent made.
 */
export async function readReviewed(
  pending: PendingList,
  root: string,
  rel: string,
  limit: number,
  read: (root: string, rel: string, limit: number) => Promise<{ text: string; size: number }>,
): Promise<ReadText> {
  const change = await pendingOf(pending, resolve(root, rel));
  if (!change) return { ...(await read(root, rel, limit)), held: false };
  if (change.before === null) throw new Error(NOT_REVIEWED);
  const bytes = Buffer.from(change.before, "utf8");
  // A cut may end inside a character: its broken tail is dropped, as the file reader does.
  const text = bytes
    .subarray(0, limit)
    .toString("utf8")
    .replace(/\uFFFD+$/, "");
  return { text, size: bytes.length, held: true };
}

/** The whole text of the file `absolute` as `read` gives it, or its reviewed text; NOT_REVIEWED for one the agent made. */
export async function reviewedText(
  pending: PendingList,
  absolute: string,
  read: () => Promise<string>,
): Promise<string> {
  const change = await pendingOf(pending, absolute);
  if (!change) return read();
  if (change.before === null) throw new Error(NOT_REVIEWED);
  return change.before;
}

/** The note added to a file given as reviewed, so the model knows the agent's own change is not in it. */
export function heldNote(path: string): string {
  return `[${path} has a change by Tandem that the person has not reviewed yet; the text before that change is given.]`;
}
