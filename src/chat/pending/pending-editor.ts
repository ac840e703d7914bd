/**
 * Edits as pending changes: an `Editor` whose `propose` and `create` write the file at once and
 * record it as a pending change the person reviews afterwards, in place of a diff they accept
 * first. The `ask` mode (`tandem.edits.mode`) keeps the editor's own ask-before-writing way.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Editor, NewFile, Proposal, EditVerdict } from "../workspace";
import { binary } from "../workspace";
import type { Files, PendingChanges } from "./changes";
import type { EditsMode } from "./mode";

/** An editor whose edits are pending changes in `changes` while `mode()` is "pending"; `base` otherwise. */
export function pendingEditor(base: Editor, changes: PendingChanges, mode: () => EditsMode): Editor {
  return {
    open: (path, line) => base.open(path, line),
    run: (command) => base.run(command),
    text: base.text ? (path) => base.text!(path) : undefined,
    propose: (p: Proposal) =>
      mode() === "ask" ? base.propose(p) : writePending(changes, p.path, p.shown, p.after, p.recheck),
    create: (file: NewFile) =>
      mode() === "ask"
        ? base.create(file)
        : writePending(changes, file.path, file.shown, file.content, file.recheck),
  };
}

/** Writes `text` as the file `path` at once, as a pending change of `changes` (`recheck` just before). */
export async function writePending(
  changes: PendingChanges,
  path: string,
  shown: string,
  text: string,
  recheck?: () => Promise<void>,
): Promise<EditVerdict> {
  await changes.write(path, shown, text, recheck);
  return { accepted: true, pending: true };
}

/** The files on disk, as plain Node reads them: a binary file cannot be kept for undo, so it is refused. */
export const diskFiles: Files = {
  async read(path) {
    const data = await readFile(path).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return undefined;
      throw e;
    });
    if (data === undefined) return undefined;
    if (binary(data)) throw new Error(`${path} is a binary file; Tandem changes only text files.`);
    return data.toString("utf8");
  },
  async write(path, text) {
    await mkdir(dirname(path), { recursive: true });
    await writeFile(path, text);
  },
  async remove(path) {
    await rm(path, { force: true });
  },
};
