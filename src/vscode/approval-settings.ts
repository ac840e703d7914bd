import vscode = require("vscode");
import type { CommandBook, Decision, Question, Setting } from "../chat/approval";
import { personValue } from "../chat/assistants";
import { rulesOf, type CommandRules } from "../chat/workspace";
import { approvalsFor } from "../chat/pending";
import { settings } from "./settings";

/**
 * The person's per-tool approval settings (`tandem.approval`): the one place they are read. With
 * edits as pending changes (`tandem.edits.mode`), the edit tools are not asked unless set to ask
 * or listed under the assistant's `approve`.
 */
export function approvalSettings(assistant?: { approve: string }): Readonly<Record<string, Setting>> {
  const own = settings();
  return approvalsFor(own.editsMode, own.approval, assistant?.approve ?? "");
}

/** Rules kept by "Always allow" and not yet read back from the settings (writing them takes a moment). */
const keeping = new Set<string>();

/** The strings of `value`'s `network` list (the allow rules whose commands may reach the network). */
function networkOf(value: unknown): string[] {
  const list = value !== null && typeof value === "object" ? (value as Record<string, unknown>).network : [];
  return Array.isArray(list) ? list.filter((s): s is string => typeof s === "string") : [];
}

/**
 * The person's command rules (`tandem.commands`, application scope, their user settings only: a
 * workspace's value is never read); "Always allow" adds to their user settings' allow list. Its
 * `network` list names the allow rules whose commands may reach the network from the sandbox.
 */
export const commandRules: CommandBook = {
  networked(): readonly string[] {
    return networkOf(personValue(vscode.workspace.getConfiguration("tandem").inspect<unknown>("commands")));
  },
  rules(): CommandRules {
    const kept = rulesOf(
      personValue(vscode.workspace.getConfiguration("tandem").inspect<unknown>("commands")),
    );
    return { allow: [...new Set([...kept.allow, ...keeping])], deny: kept.deny };
  },
  async keep(allow: readonly string[]): Promise<void> {
    for (const rule of allow) keeping.add(rule);
    const c = vscode.workspace.getConfiguration("tandem");
    const global = c.inspect<unknown>("commands")?.globalValue;
    const now = rulesOf(global);
    const network = networkOf(global);
    const value = {
      allow: [...new Set([...now.allow, ...allow])],
      deny: now.deny,
      ...(network.length ? { network } : {}),
    };
    await c.update("commands", value, vscode.ConfigurationTarget.Global);
    for (const rule of allow) keeping.delete(rule);
  },
};

/**
 * Asks the person about a tool call through an editor notification (it works with the panel
 * closed), in the engine's words. A long question (or one whose call hides characters) is shown
 * whole in a modal before any yes: the notification then offers only "Review…" and "Decline".
 * "Always allow" is offered only where the engine says it applies. Resolves with the answer, or
 * undefined when `settled` resolves first (the panel answered, or the run stopped).
 */
export async function askByNotification(
  question: Question,
  settled?: Promise<unknown>,
): Promise<Decision | undefined> {
  const allow = vscode.l10n.t("Allow");
  const always = question.always;
  const network = question.network;
  const decline = vscode.l10n.t("Decline");
  const choices = [allow, network, always, decline].filter((c): c is string => c !== undefined);
  // Dismissing a question is not a yes.
  const answerOf = (choice: string | undefined): Decision =>
    choice === undefined
      ? false
      : choice === allow
        ? true
        : choice === network
          ? "network"
          : choice === always
            ? "always"
            : false;
  const asked = (async (): Promise<Decision> => {
    if (!question.long) return answerOf(await vscode.window.showWarningMessage(question.short, ...choices));
    const review = vscode.l10n.t("Review…");
    const first = await vscode.window.showWarningMessage(question.short, review, decline);
    if (first !== review) return false;
    const full = await vscode.window.showWarningMessage(
      vscode.l10n.t("Tandem asks before it runs this"),
      { modal: true, detail: question.text },
      ...choices,
    );
    return answerOf(full);
  })();
  return settled ? Promise.race([asked, settled.then(() => undefined)]) : asked;
}
