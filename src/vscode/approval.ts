import vscode = require("vscode");

/** What the person said to a tool call. */
export type Decision = "allow" | "always" | "decline";

/**
 * Asks the person about a tool call through an editor notification (it works with the panel closed).
 * Resolves with their answer, or undefined when `settled` resolves first (the panel answered, or the run
 * stopped) — the notification then no longer matters.
 */
export async function askByNotification(
  tool: string,
  summary: string,
  settled?: Promise<unknown>,
): Promise<Decision | undefined> {
  const allow = vscode.l10n.t("Allow");
  const always = vscode.l10n.t("Always Allow in This Conversation");
  const decline = vscode.l10n.t("Decline");
  const message = vscode.l10n.t("Tandem wants to run {0}: {1}", tool, summary);
  const asked = vscode.window.showWarningMessage(message, allow, always, decline).then((choice) => {
    if (choice === allow) return "allow" as const;
    if (choice === always) return "always" as const;
    // Dismissing the notification is not a yes.
    return "decline" as const;
  });
  return settled ? Promise.race([asked, settled.then(() => undefined)]) : asked;
}
