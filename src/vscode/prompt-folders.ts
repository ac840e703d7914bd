/**
 * Where the editor reads prompt files: every workspace folder's `.github/prompts` and `.claude/commands`,
 * then the person's own — VS Code's user `prompts` folder (beside the extension's global storage) and
 * Claude Code's `~/.claude/commands`.
 */
import { homedir } from "node:os";
import { join } from "node:path";
import vscode = require("vscode");
import type { PromptFiles } from "../chat/assistants";
import type { PendingList } from "../chat/pending";
import { core } from "./core";
import { workspaceFolders } from "./conversations";

/** The person's own prompt folders. */
function personFolders(
  context: vscode.ExtensionContext,
): { folder: string; ending: string; shown: string }[] {
  // globalStorage is <user data>/User/globalStorage/<extension>: VS Code keeps the person's prompt files in <user data>/User/prompts.
  const user = join(context.globalStorageUri.fsPath, "..", "..", "prompts");
  return [
    { folder: user, ending: ".prompt.md", shown: vscode.l10n.t("your prompts") },
    { folder: join(homedir(), ".claude", "commands"), ending: ".md", shown: "~/.claude/commands" },
  ];
}

/** Reads the prompt files the person can start now (read at each use, so a new file shows at once). */
export function promptReader(
  context: vscode.ExtensionContext,
  pending: () => Promise<PendingList>,
): () => Promise<PromptFiles> {
  return async () => {
    const { readPromptPlaces, promptPlaces, nameFolders } = core();
    return readPromptPlaces(
      promptPlaces(nameFolders(workspaceFolders()), personFolders(context)),
      await pending(),
    );
  };
}
