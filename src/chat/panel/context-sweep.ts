/**
 * Kept context files (pasted images, `@` references written out) go when nothing needs them: the
 * files of a deleted conversation once its deletion is final, unless another conversation (a fork,
 * the same image pasted twice) still refers to one; and on activation, every file no message
 * refers to. A file kept a moment ago may belong to a message on its way into the store (this
 * window's or another's), so the sweep leaves files newer than the time it is given.
 */
import { readdir, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { KEPT } from "./context-refs";
import type { Item } from "../row-schemas";

/** The names of the kept files (`<sha256>.<ext>`) the messages of `items` refer to. */
export function keptNames(items: Iterable<Item>): Set<string> {
  const out = new Set<string>();
  for (const item of items) {
    for (const file of item.files) {
      if (file.path.startsWith(KEPT)) out.add(file.path.slice(KEPT.length));
    }
  }
  return out;
}

/** A kept file's name as Kept writes it: nothing else in the folder is ever removed. */
const NAME = /^[0-9a-f]{64}\.(?:md|png|jpg|gif|webp)$/;

/**
 * Removes the kept files of the deleted messages `gone` that no message of `remaining` refers to,
 * from the storage folder `folder`; resolves to the names removed.
 */
export async function forgetKept(
  folder: string,
  gone: Iterable<Item>,
  remaining: Iterable<Item>,
): Promise<string[]> {
  const used = keptNames(remaining);
  const removed: string[] = [];
  for (const name of keptNames(gone)) {
    if (used.has(name) || !NAME.test(name)) continue;
    await rm(join(folder, "context", name), { force: true });
    removed.push(name);
  }
  return removed;
}

/**
 * Removes every kept file of `folder` that no message of `items` refers to and that was last
 * written before `before` (ms since 1970); resolves to the names removed.
 */
export async function sweepKept(folder: string, items: Iterable<Item>, before: number): Promise<string[]> {
  const dir = join(folder, "context");
  const names = await readdir(dir).catch(() => [] as string[]);
  const used = keptNames(items);
  const removed: string[] = [];
  for (const name of names) {
    if (used.has(name) || !NAME.test(name)) continue;
    const found = await stat(join(dir, name)).catch(() => undefined);
    if (!found?.isFile() || found.mtimeMs >= before) continue;
    await rm(join(dir, name), { force: true });
    removed.push(name);
  }
  return removed;
}
