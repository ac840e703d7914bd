/**
 * Checkpoints in VS Code: the answers' checkpoints (src/chat/checkpoints/turns.ts) kept in the
 * extension's workspace storage, and what only the editor has for a restore (the orchestrator is
 * src/chat/checkpoints/restore.ts): the open files, saved when they hold unsaved changes; a
 * question in a notification; VS Code's multi-file diff editor (the checkpoint's side is a read-only
 * virtual document); and an interrupted restore offered on activation.
 */
import { join } from "node:path";
import vscode = require("vscode");
import type { OpenFile, RestoreEditor, Restorer, Since, TurnCheckpoints } from "../chat/checkpoints";
import type { Item } from "../chat/row-schemas";
import type { Store } from "../chat/store";
import { workspaceFolders } from "./conversations";
import { core } from "./core";
import type { PendingReview } from "./pending-review";
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

/** The files open in VS Code (documents of files on disk), each able to save itself. */
function openFiles(): OpenFile[] {
  return vscode.workspace.textDocuments
    .filter((d) => d.uri.scheme === "file")
    .map((document) => ({
      path: document.uri.fsPath,
      dirty: document.isDirty,
      shown: vscode.workspace.asRelativePath(document.uri),
      save: () => document.save(),
    }));
}

/** Opens VS Code's diff editor titled `title` on `since`: each file as its checkpoint has it, against now. */
async function showChanges(title: string, since: readonly Since[]): Promise<void> {
  const empty = (c: Since) => checkpointUri(c.folder.root, "none", c.path);
  const resources = since.map((c): [vscode.Uri, vscode.Uri, vscode.Uri] => {
    const file = vscode.Uri.file(join(c.folder.root, ...c.path.split("/")));
    const then = c.change === "added" ? empty(c) : checkpointUri(c.folder.root, c.checkpoint, c.path);
    const now = c.change === "deleted" ? empty(c) : file;
    return [file, then, now];
  });
  await vscode.commands.executeCommand("vscode.changes", title, resources);
}

/** What a restore needs from VS Code. */
const EDITOR: RestoreEditor = { openFiles, ask: notified, showChanges };

/** The answers' checkpoints of this window. */
export class CheckpointReview implements vscode.Disposable {
  private opened: TurnCheckpoints | undefined;
  private restores: Restorer | undefined;
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

  /** The restores of this window's checkpoints (the panel's and `@tandem`'s), made on first use. */
  get restorer(): Restorer {
    return (this.restores ??= new (core().Restorer)({
      turns: this.turns(),
      editor: EDITOR,
      running: this.running,
      restored: async (files) => (await this.pending.changes()).restored(files),
    }));
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
    return vscode.l10n.t("(not kept in the checkpoint: {0})", core().reasonText(version.why));
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
  const { keptChats, Waiting } = core();
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
  return core().neededChats(
    store.conversations().map((c) => c.id),
    (chat) => copies.filter((i) => i.chat === chat),
  );
}
