/**
 * Edits as pending changes: an `Editor` whose `propose` and `create` write the file at once and
 * record it as a pending change the person reviews afterwards, in place of a diff they accept
 * first. The `ask` mode (`tandem.edits.mode`) keeps the editor's own ask-before-writing way.
 */
import { mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { dirname } from "node:path";
import type { Setting } from "../approval";
import type { Editor, NewFile, Proposal, Verdict } from "../workspace/editor";
import { binary } from "../workspace/lines";
import type { Files, PendingChanges } from "./changes";

/** How the agent's edits are written: applied at once as pending changes, or asked about first. */
export type EditsMode = "pending" | "ask";

/** The tools whose writes become pending changes. */
export const PENDING_TOOLS = ["propose_edit", "create_file"] as const;

/**
 * The approval settings a run is judged by under `mode`: in pending mode the edit tools run
 * without a question (the person reviews the change after), unless the person's own setting for
 * the tool says otherwise. A write to a protected path is still asked: the engine pins it.
 */
export function approvalsFor(
  mode: EditsMode,
  own: Readonly<Record<string, Setting>>,
): Readonly<Record<string, Setting>> {
  if (mode !== "pending") return own;
  const out: Record<string, Setting> = {};
  for (const name of PENDING_TOOLS) out[name] = "allow";
  return { ...out, ...own };
}

/** An editor whose edits are pending changes in `changes` while `mode()` is "pending"; `base` otherwise. */
export function pendingEditor(base: Editor, changes: PendingChanges, mode: () => EditsMode): Editor {
  return {
    open: (path, line) => base.open(path, line),
    run: (command) => base.run(command),
    text: base.text ? (path) => base.text!(path) : undefined,
    async propose(p: Proposal): Promise<Verdict> {
      if (mode() === "ask") return base.propose(p);
      await changes.write(p.path, p.shown, p.after);
      return { accepted: true, pending: true };
    },
    async create(file: NewFile): Promise<Verdict | void> {
      if (mode() === "ask") return base.create(file);
      await changes.write(file.path, file.shown, file.content);
      return { accepted: true, pending: true };
    },
  };
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
