/**
 * Checkpoints in VS Code: the answers' checkpoints (src/chat/checkpoints/turns.ts) kept in the
 * extension's workspace storage, restored from the panel after a question naming how many files
 * change (open files with unsaved changes among them are saved first, so nothing is lost), shown
 * against now in VS Code's multi-file diff editor (the checkpoint's side is a read-only virtual
 * document), and an interrupted restore offered on activation.
 */
import { join } from "node:path";
import vscode = require("vscode");
import type { Since, TurnCheckpoints } from "../chat/checkpoints";
import {
  keptChats,
  neededChats,
  Waiting,
  reasonText,
  restoreQuestion,
  unsavedAmong,
} from "../chat/checkpoints";
import type { Item } from "../chat/rows";
import type { Store } from "../chat/store";
import { workspaceFolders } from "./conversations";
import { core } from "./core";
import type { PendingReview } from "./pending";
import { settings } from "./settings";

/** The scheme of a checkpoint's version of a file. */
const SCHEME = "tandem-checkpoint";

/** A file as checkpoint `id` of the folder `root` recorded it, as a virtual document's address. */
function checkpointUri(root: string, id: string, path: string): vscode.Uri {
  const name = path.split("/").pop() ?? path;
  return vscode.Uri.from({
    scheme: SCHEME,
    path: `/${id}/${name}`,
    query: new URLSearchParams({ root, id, path }).toString(),
  });
}

/** Asks `question` in a warning notification: true when the person chooses "Restore". */
async function notified(question: string): Promise<boolean> {
  const restore = vscode.l10n.t("Restore");
  // A notification, not a modal: VS Code refuses modal dialogs under its extension tests, and
  // Tandem asks its other questions this way too (it works with the panel closed).
  return (await vscode.window.showWarningMessage(question, restore, vscode.l10n.t("Cancel"))) === restore;
}

/** The answers' checkpoints of this window. */
export class CheckpointReview implements vscode.Disposable {
  private opened: TurnCheckpoints | undefined;
  /** The conversations, once open: a fork's copied messages are found by their originals. */
  private conversations: Pick<Store, "items"> | undefined;
  private readonly parts: vscode.Disposable[] = [];

  constructor(
    private readonly context: vscode.ExtensionContext,
    private readonly pending: PendingReview,
    /** True while an answer runs in any conversation (it may be writing: a restore then waits for it to end). */
    private readonly running: () => boolean,
  ) {
    this.parts.push(
      vscode.workspace.registerTextDocumentContentProvider(SCHEME, {
        provideTextDocumentContent: (uri) => this.content(uri),
      }),
    );
  }

  /** The checkpoints, opened on first use. */
  private turns(): TurnCheckpoints {
    return (this.opened ??= new (core().TurnCheckpoints)({
      folders: workspaceFolders,
      storage: (this.context.storageUri ?? this.context.globalStorageUri).fsPath,
      settings: () => settings().checkpoints,
      items: (chat) => this.conversations?.items(chat) ?? [],
    }));
  }

  /** Follows the conversations of `store` (a copied message's checkpoints are its original's). */
  know(store: Pick<Store, "items">): void {
    this.conversations = store;
  }

  /** Records every folder before the answer to `message` writes (the runner's `checkpoint`). */
  checkpoint(message: Item): Promise<void> {
    return this.turns().before(message);
  }

  /**
   * Puts the files back as they were before the answer to `message`, once the person confirms in
   * a question naming how many files change; open files among them with unsaved changes are saved
   * first (the checkpoint taken before the restore keeps them, and no editor is left in conflict with
   * its file); the pending changes of restored files are settled. Resolves with what was done; throws
   * when it cannot, or when the person says no. `ask` puts the question (the panel asks under the
   * message); without it, a notification asks.
   */
  async restoreFilesTo(message: Item, ask?: (question: string) => Promise<boolean>): Promise<string> {
    // A checkpoint covers the whole workspace: an answer still writing anywhere would be mixed in.
    if (this.running()) throw new Error(vscode.l10n.t("An answer is still running; stop it first."));
    const turns = this.turns();
    const since = await turns.since(message);
    const targets = await turns.targets(message);
    if (!targets.length) throw new Error(vscode.l10n.t("Tandem changed no file since that message."));
    if (!since.length) return vscode.l10n.t("The files are already as they were before that message.");
    const created = since.filter((c) => c.change === "added").length;
    const unsaved = () =>
      unsavedAmong(
        vscode.workspace.textDocuments
          .filter((d) => d.uri.scheme === "file")
          .map((document) => ({ path: document.uri.fsPath, dirty: document.isDirty, document })),
        since.map((c) => join(c.folder.root, ...c.path.split("/"))),
      );
    const question = restoreQuestion({
      message: message.text,
      files: since.length,
      created,
      unsaved: unsaved().length,
    });
    if (!(await (ask ?? notified)(question))) throw new Error(vscode.l10n.t("The restore was cancelled."));
    // Looked at again: the person may have saved or typed while the question was open.
    for (const { document } of unsaved())
      if (!(await document.save()))
        throw new Error(
          vscode.l10n.t(
            "{0} could not be saved; nothing was restored.",
            vscode.workspace.asRelativePath(document.uri),
          ),
        );
    const done = await turns.restore(message);
    await (await this.pending.changes()).restored(done.files);
    return done.text;
  }

  /** Opens VS Code's diff editor on every file that changed since the checkpoint of `message`. */
  async showChangesSince(message: Item): Promise<string | undefined> {
    const since = await this.turns().since(message);
    if (!since.length) return vscode.l10n.t("No file changed since that message's checkpoint.");
    const empty = (c: Since) => checkpointUri(c.folder.root, "none", c.path);
    const resources = since.map((c): [vscode.Uri, vscode.Uri, vscode.Uri] => {
      const file = vscode.Uri.file(join(c.folder.root, ...c.path.split("/")));
      const then = c.change === "added" ? empty(c) : checkpointUri(c.folder.root, c.checkpoint, c.path);
      const now = c.change === "deleted" ? empty(c) : file;
      return [file, then, now];
    });
    await vscode.commands.executeCommand(
      "vscode.changes",
      vscode.l10n.t("Changes since “{0}”", message.text.slice(0, 40)),
      resources,
    );
    return undefined;
  }

  /** Drops the checkpoints of the conversation `chat` (deleted). */
  dropFor(chat: string): Promise<void> {
    return this.turns().dropFor(chat);
  }

  /** Drops the checkpoints of conversations that are gone (deleted while no window held them). */
  keepOnly(chats: ReadonlySet<string>): Promise<void> {
    return this.turns().keepOnly(chats);
  }

  /** Offers to finish a restore a crash cut short: "Finish restoring" or "Leave as is". */
  async offerInterrupted(): Promise<void> {
    const cut = await this.turns().interrupted();
    if (!cut.length) return;
    const finish = vscode.l10n.t("Finish restoring");
    const leave = vscode.l10n.t("Leave as is");
    const label = cut[0].label;
    const said = await vscode.window.showWarningMessage(
      label
        ? vscode.l10n.t("Tandem: restoring the files to before {0} was interrupted.", label)
        : vscode.l10n.t("Tandem: restoring the files was interrupted."),
      finish,
      leave,
    );
    if (said !== finish && said !== leave) return;
    const done = await this.turns().settleInterrupted(said === finish);
    await (await this.pending.changes()).restored(done.files);
    void vscode.window.showInformationMessage(`Tandem: ${done.text}`);
  }

  dispose(): void {
    for (const p of this.parts) p.dispose();
    void this.opened?.close();
  }

  /** A checkpoint's version of a file, as text (what it could not keep is said instead). */
  private async content(uri: vscode.Uri): Promise<string> {
    const q = new URLSearchParams(uri.query);
    const [root, id, path] = [q.get("root") ?? "", q.get("id") ?? "", q.get("path") ?? ""];
    if (id === "none") return "";
    const version = await this.turns().read(root, id, path);
    if (!version) return "";
    if (version.kind === "file") return version.bytes.toString("utf8");
    if (version.kind === "link") return vscode.l10n.t("(a link to {0})", version.target);
    if (version.kind === "folder") return vscode.l10n.t("(a folder)");
    return vscode.l10n.t("(not kept in the checkpoint: {0})", reasonText(version.why));
  }
}

// A deleted conversation can be brought back for 10 s in the panel: its checkpoints wait longer.
const DROP_AFTER_MS = 15_000;

/**
 * Keeps the checkpoints in step with the conversations: a deleted one's are dropped once it can no
 * longer be brought back and no fork names them (and those of conversations deleted while no window
 * held them, when this window writes the store); then offers a restore a crash cut short.
 */
export function followCheckpoints(
  context: vscode.ExtensionContext,
  store: Store,
  review: CheckpointReview,
): void {
  const said = (error: unknown) => console.warn(`Tandem: checkpoints: ${String(error)}`);
  const timers = new Set<ReturnType<typeof setTimeout>>();
  const waiting = new Waiting();
  const unfollow = store.follow({ table: "conversations" }, (change) => {
    if (change.row) return;
    const timer = setTimeout(() => {
      timers.delete(timer);
      if (store.get("conversations", change.key)) return;
      // A fork still restores to its original's checkpoints; the original's go with its last fork.
      void stillNeeded(store)
        .then((needed) => {
          for (const chat of waiting.deleted(change.key, needed)) void review.dropFor(chat).catch(said);
        })
        .catch(said);
    }, DROP_AFTER_MS);
    timers.add(timer);
  });
  context.subscriptions.push({
    dispose: () => {
      unfollow();
      for (const t of timers) clearTimeout(t);
    },
  });
  review.know(store);
  // The Chat view's sessions are not in the store: their checkpoints stay until the size limit drops them.
  if (store.writable) {
    void stillNeeded(store)
      .then((needed) => review.keepOnly(keptChats(needed)))
      .catch(said);
  }
  void review.offerInterrupted().catch(said);
}

/** The conversations whose checkpoints are kept: every conversation, and the originals its copies name. */
async function stillNeeded(store: Store): Promise<Set<string>> {
  // Only copies name an original: the journals without one are passed over unread.
  const copies = await store.findItems((i) => i.copiedFrom !== undefined, '"copiedFrom":');
  return neededChats(
    store.conversations().map((c) => c.id),
    (chat) => copies.filter((i) => i.chat === chat),
  );
}
