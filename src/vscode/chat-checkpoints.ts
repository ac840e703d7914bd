/**
 * Checkpoints of `@tandem`'s answers in VS Code's Chat view: taken through the panel's checkpoint
 * review, the messages that have one listed in the workspace's state, and restored by a command (the
 * button an answer that wrote ends with, and `/restore`) through the same restore as the panel's
 * (src/chat/checkpoints/restore.ts). Only types are imported from src/chat: what runs comes from
 * the lazily loaded core, so activation does not load the list's schema (zod).
 */
import vscode = require("vscode");
import type { ChatCheckpoint } from "../chat/checkpoints";
import type { Item } from "../chat/row-schemas";
import type { CheckpointReview } from "./checkpoint-review";
import { core } from "./core";
import { reason } from "../protocol/reason";

/** The command that restores the files to before a Chat view message: its argument is `{ chat, id }`. */
export const RESTORE_CHAT_MESSAGE = "tandem.restoreChatMessage";

/** Where the messages with a checkpoint are listed (the workspace's state, as the checkpoints are per workspace). */
const LISTED = "tandem.chatViewCheckpoints";

/** The Chat view's checkpoints of this window. */
export class ChatCheckpoints {
  private answering = 0;

  constructor(
    private readonly state: vscode.Memento,
    private readonly review: Pick<CheckpointReview, "checkpoint" | "restorer">,
  ) {}

  /** True while an `@tandem` answer runs (it may be writing: a restore then waits for it to end). */
  get running(): boolean {
    return this.answering > 0;
  }

  /** Counts an answer as running until the returned function is called. */
  started(): () => void {
    this.answering++;
    let ended = false;
    return () => {
      if (!ended) this.answering--;
      ended = true;
    };
  }

  /** Records every folder before the answer to `message` writes, then lists the message. */
  async take(message: Item): Promise<void> {
    await this.review.checkpoint(message);
    const entry = { chat: message.chat, id: message.id, text: message.text };
    await this.state.update(LISTED, core().listed(this.list(), entry));
  }

  /** The listed messages. */
  list(): ChatCheckpoint[] {
    return core().listedIn(this.state.get(LISTED));
  }

  /**
   * Puts the files back as they were before the listed message `named` names, once the person
   * confirms; anything else is refused before anyone is asked. Resolves with what was done.
   */
  restore(named: unknown): Promise<string> {
    return this.review.restorer.listed(this.list(), named);
  }
}

/** The conversation key of this Chat session: the one its earlier answers carry, else a new one. */
export function sessionIn(context: vscode.ChatContext): string {
  const { chatViewKey, isChatViewKey } = core();
  for (const turn of context.history) {
    const session: unknown = turn instanceof vscode.ChatResponseTurn ? turn.result.metadata?.session : "";
    if (isChatViewKey(session)) return session;
  }
  return chatViewKey();
}

/** Registers the restore command: it only ever leads to the person's confirmation. */
export function registerChatRestore(context: vscode.ExtensionContext, checkpoints: ChatCheckpoints): void {
  context.subscriptions.push(
    vscode.commands.registerCommand(RESTORE_CHAT_MESSAGE, async (named: unknown) => {
      try {
        const text = await checkpoints.restore(named);
        void vscode.window.showInformationMessage(vscode.l10n.t("Tandem: {0}", text));
        return text;
      } catch (error) {
        void vscode.window.showWarningMessage(vscode.l10n.t("Tandem: {0}", reason(error)));
        return reason(error);
      }
    }),
  );
}

/** `/restore`: the messages of this Chat session with a checkpoint, to pick one and restore the files to before it. */
export async function restoreInChat(
  checkpoints: ChatCheckpoints | undefined,
  session: string,
  stream: vscode.ChatResponseStream,
): Promise<vscode.ChatResult> {
  const result = { metadata: { session } };
  const { askedAt, sessionCheckpoints } = core();
  const mine = checkpoints ? sessionCheckpoints(checkpoints.list(), session) : [];
  if (!checkpoints || !mine.length) {
    stream.markdown(
      vscode.l10n.t("No answer in this chat has changed files, so there is nothing to restore."),
    );
    return result;
  }
  const picked = await vscode.window.showQuickPick(
    mine.map((c) => ({
      label: c.text.replace(/\s+/g, " ").trim().slice(0, 80) || vscode.l10n.t("(empty message)"),
      description: new Date(askedAt(c)).toLocaleString(vscode.env.language),
      checkpoint: c,
    })),
    { title: vscode.l10n.t("Restore the files to before which message?"), ignoreFocusOut: true },
  );
  if (!picked) {
    stream.markdown(vscode.l10n.t("Nothing was restored."));
    return result;
  }
  try {
    stream.markdown(await checkpoints.restore(picked.checkpoint));
  } catch (error) {
    stream.markdown(reason(error));
  }
  return result;
}
