/**
 * Restoring the files to before one of the person's messages, for every face (the panel's
 * "Restore…", `@tandem`'s button and `/restore`): planned once — each folder's checkpoint to go
 * back to and what differs from it now, carried in the plan — then asked, then performed. What only
 * the editor has comes through `RestoreEditor`: its open files (unsaved changes among the restored
 * files are saved first, so the checkpoint taken before the restore keeps them and no editor is left
 * in conflict with its file), its own way to ask, and its diff view.
 */
import { join } from "node:path";
import { t } from "../../protocol/l10n";
import type { Item } from "../row-schemas";
import { knownCheckpoint, messageOf, type ChatCheckpoint } from "./chat-view";
import type { Since, Taken, TurnCheckpoints } from "./turns";
import { restoreQuestion, unsavedAmong, type OpenDocument } from "./words";

/** A file open in the editor. */
export interface OpenFile extends OpenDocument {
  /** Its path as the person knows it (relative to the workspace), for a sentence. */
  shown: string;
  /** Saves its unsaved changes; false when they were not saved. */
  save(): PromiseLike<boolean>;
}

/** What a restore needs from the editor: the editor fills it, tests fake it. */
export interface RestoreEditor {
  /** The files open now (documents of files on disk). */
  openFiles(): readonly OpenFile[];
  /** Asks `question` the editor's own way (with the panel closed too): true when the person says restore. */
  ask(question: string): Promise<boolean>;
  /** Shows `since` in the editor's diff view titled `title`: each file as its checkpoint has it, against now. */
  showChanges(title: string, since: readonly Since[]): Promise<void>;
}

/** What the restores act on. */
export interface RestoreParts {
  turns: Pick<TurnCheckpoints, "targets" | "since" | "restore">;
  editor: RestoreEditor;
  /** True while an answer runs in any conversation (it may be writing: a restore then waits for it to end). */
  running(): boolean;
  /** Settles what depends on the files a restore wrote or removed (their pending changes). */
  restored(files: readonly string[]): Promise<void>;
}

/** What a restore to before `message` will do, found once. */
export interface RestorePlan {
  message: Item;
  /** Each folder's checkpoint to go back to. */
  targets: readonly Taken[];
  /** The files that differ from those checkpoints now. */
  since: readonly Since[];
}

/** Asks whether to restore: true to go on. */
export type Ask = (question: string) => Promise<boolean>;

/** The restores of one window's checkpoints; see the file's comment. */
export class Restorer {
  constructor(private readonly parts: RestoreParts) {}

  /** What a restore to before `message` would do: its checkpoints and the files that differ from them. */
  async plan(message: Item): Promise<RestorePlan> {
    const targets = await this.parts.turns.targets(message);
    return { message, targets, since: await this.parts.turns.since(message, targets) };
  }

  /**
   * Puts the files back as they were before the answer to `message`, once the person confirms in a
   * question naming how many files change (`ask` puts it, e.g. under the message in the panel; else
   * the editor asks its way). Resolves with what was done; throws when it cannot, or when the person
   * says no.
   */
  async filesTo(message: Item, ask?: Ask): Promise<string> {
    // A checkpoint covers the whole workspace: an answer still writing anywhere would be mixed in.
    if (this.parts.running()) throw new Error(t("An answer is still running; stop it first."));
    return this.perform(await this.plan(message), ask);
  }

  /** Asks about `plan`, saves the unsaved files among it and performs it; see `filesTo`. */
  async perform(plan: RestorePlan, ask?: Ask): Promise<string> {
    const { editor } = this.parts;
    if (!plan.targets.length) throw new Error(t("Tandem changed no file since that message."));
    if (!plan.since.length) return t("The files are already as they were before that message.");
    const files = plan.since.map((c) => join(c.folder.root, ...c.path.split("/")));
    const unsaved = () => unsavedAmong(editor.openFiles(), files);
    const question = restoreQuestion({
      message: plan.message.text,
      files: plan.since.length,
      created: plan.since.filter((c) => c.change === "added").length,
      unsaved: unsaved().length,
    });
    if (!(await (ask ?? ((q: string) => editor.ask(q)))(question)))
      throw new Error(t("The restore was cancelled."));
    // Looked at again: the person may have saved or typed while the question was open.
    for (const file of unsaved())
      if (!(await file.save()))
        throw new Error(t("{0} could not be saved; nothing was restored.", file.shown));
    const done = await this.parts.turns.restore(plan.message, plan.targets);
    await this.parts.restored(done.files);
    return done.text;
  }

  /** Opens the editor's diff of every file that changed since the checkpoint of `message` (a sentence when none did). */
  async changesSince(message: Item): Promise<string | undefined> {
    const { since } = await this.plan(message);
    if (!since.length) return t("No file changed since that message's checkpoint.");
    await this.parts.editor.showChanges(t("Changes since “{0}”", message.text.slice(0, 40)), since);
    return undefined;
  }

  /**
   * Restores the files to before the Chat view message `named` names ({chat, id}) among `listed`,
   * as `filesTo` does; anything else is refused before anyone is asked.
   */
  listed(listed: readonly ChatCheckpoint[], named: unknown): Promise<string> {
    const known = knownCheckpoint(listed, named);
    if (!known)
      return Promise.reject(
        new Error(t("That is not a Chat view message with a checkpoint of Tandem's; nothing was restored.")),
      );
    return this.filesTo(messageOf(known));
  }
}
