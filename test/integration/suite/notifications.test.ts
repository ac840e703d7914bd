import assert from "node:assert/strict";
import * as vscode from "vscode";
import { clickNotification } from "./person";

/**
 * The harness answers a question in the notification centre as a person does, however many
 * notifications came before it: the centre's list puts the newest on top, and a list longer than the
 * centre can leave that row scrolled out of view (a restore's question was missed that way).
 */
describe("the harness and VS Code's notification centre", () => {
  after(() => vscode.commands.executeCommand("notifications.clearAll"));

  it("answers a question that comes after many notifications, with the centre open", async function () {
    this.timeout(90_000);
    for (let i = 1; i <= 14; i++) void vscode.window.showInformationMessage(`Harness notice ${i} of 14.`);
    await vscode.commands.executeCommand("notifications.showList");
    // The question comes once the centre is open and full, as a restore's question did.
    const asked = vscode.window.showWarningMessage("Harness question after the notices?", "Yes", "No");
    const message = await clickNotification("Harness question after the notices?", "Yes", 30_000);
    assert.equal(message, "Harness question after the notices?");
    assert.equal(await asked, "Yes");
    await vscode.commands.executeCommand("notifications.hideList");
  });
});
