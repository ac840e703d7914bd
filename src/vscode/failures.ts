/**
 * Work started without waiting for it, whose failure must still reach someone: the person when it
 * was their action (opening a file, a command, a link), the log when it was the extension's own.
 */
import vscode = require("vscode");
import { reason } from "../protocol/reason";

/** Runs the person's action `what` without waiting; a failure is shown to them. */
export function shown(what: string, work: Thenable<unknown>): void {
  work.then(undefined, (error: unknown) => {
    console.error(`Tandem: ${what} failed:`, error);
    void vscode.window.showErrorMessage(vscode.l10n.t("Tandem: {0} failed: {1}", what, reason(error)));
  });
}

/** Runs the extension's own `what` without waiting; a failure goes to the log. */
export function logged(what: string, work: Thenable<unknown>): void {
  work.then(undefined, (error: unknown) => console.error(`Tandem: ${what} failed:`, error));
}
