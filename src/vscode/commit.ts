/**
 * "Generate Commit Message" in the Source Control view: the model reads the staged diff (the
 * unstaged one when nothing is staged) and its message lands in the repository's input box, where
 * the person reads and edits it before committing.
 */
import vscode = require("vscode");
import { core } from "./core";
import { repositoryOf } from "./git-api";
import type { Models } from "./models";

/** Registers `tandem.generateCommitMessage` (the Source Control view's title bar, and the command palette). */
export function registerCommitMessage(context: vscode.ExtensionContext, models: Models) {
  context.subscriptions.push(
    vscode.commands.registerCommand("tandem.generateCommitMessage", (scm?: { rootUri?: vscode.Uri }) =>
      generate(models, scm?.rootUri).catch((e: Error) => {
        vscode.window.showErrorMessage(vscode.l10n.t("Tandem: {0}", e.message));
        return undefined;
      }),
    ),
  );
}

/** Writes a commit message for the repository at `root` (the workspace's when not given) into its input box. */
async function generate(models: Models, root?: vscode.Uri): Promise<string | undefined> {
  const repository = await repositoryOf(root);
  const staged = (await repository.diff(true)).trim() !== "";
  const diff = await repository.diff(staged);
  if (!diff.trim()) {
    vscode.window.showInformationMessage(
      vscode.l10n.t("There are no changes to describe: change or stage some files first."),
    );
    return undefined;
  }
  const model = await models.resolve("");
  if (!model) {
    vscode.window.showInformationMessage(
      vscode.l10n.t("No model found. Add an endpoint in settings, or start a local model server."),
    );
    return undefined;
  }
  const { agent, run, commitPrompt, commitMessageOf } = core();
  const answer = await vscode.window.withProgress(
    {
      location: vscode.ProgressLocation.Notification,
      title: vscode.l10n.t("Writing a commit message…"),
      cancellable: true,
    },
    (_progress, token) => {
      const abort = new AbortController();
      token.onCancellationRequested(() => abort.abort());
      return run(agent(model), commitPrompt(diff, staged), { signal: abort.signal }).then((text) =>
        abort.signal.aborted ? undefined : text,
      );
    },
  );
  if (answer === undefined) return undefined;
  const message = commitMessageOf(answer);
  if (!message) {
    vscode.window.showWarningMessage(vscode.l10n.t("The model gave no commit message."));
    return undefined;
  }
  repository.inputBox.value = message;
  return message;
}
