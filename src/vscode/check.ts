import vscode = require("vscode");
import { factsKey } from "../agent/facts";
import type { Models } from "./models";
import { endpointKey, endpointSettings } from "./settings";
import { core } from "./core";

/** "Tandem: Check Endpoint": probes one endpoint's model and shows what it supports in a Markdown preview. */
export function registerCheck(context: vscode.ExtensionContext, models: Models) {
  context.subscriptions.push(
    vscode.commands.registerCommand("tandem.checkEndpoint", async () => {
      const endpoints = endpointSettings();
      if (!endpoints.length) {
        vscode.window.showInformationMessage(
          vscode.l10n.t("Add an endpoint under Settings › Tandem › Endpoints first."),
        );
        return undefined;
      }
      const endpoint =
        endpoints.length === 1
          ? endpoints[0]
          : (
              await vscode.window.showQuickPick(
                endpoints.map((e) => ({ label: e.name, description: e.baseURL, e })),
                {
                  title: vscode.l10n.t("Check which endpoint?"),
                },
              )
            )?.e;
      if (!endpoint) return undefined;
      const listed = Array.isArray(endpoint.models) ? endpoint.models : [];
      const model =
        listed.length === 1
          ? listed[0]
          : await vscode.window.showInputBox({
              title: vscode.l10n.t("Which model of {0}?", endpoint.name),
              value: listed[0] ?? "",
              ignoreFocusOut: true,
            });
      if (!model) return undefined;
      const sent = await endpointKey(context.secrets, endpoint);
      if (sent.withheld) {
        vscode.window.showWarningMessage(sent.withheld);
        return undefined;
      }
      const { probe, markdown, learned } = core();
      const key = factsKey(endpoint.baseURL, model);
      const report = await vscode.window.withProgress(
        {
          location: vscode.ProgressLocation.Notification,
          title: vscode.l10n.t("Checking {0}…", endpoint.name),
          cancellable: true,
        },
        (_progress, token) => {
          const abort = new AbortController();
          token.onCancellationRequested(() => abort.abort());
          return probe(
            { baseURL: endpoint.baseURL, apiKey: sent.key || "none", model, headers: endpoint.headers },
            // A cut an earlier run saw is reported with what the check finds.
            { signal: abort.signal, known: models.facts.get(key) },
          );
        },
      );
      // What the check found replaces what was known; what it could not tell is kept.
      models.facts.set(key, { ...models.facts.get(key), ...learned(report) });
      models.refresh();
      const document = await vscode.workspace.openTextDocument({
        content: markdown(report),
        language: "markdown",
      });
      await vscode.commands
        .executeCommand("markdown.showPreview", document.uri)
        .then(undefined, () => vscode.window.showTextDocument(document));
      return report;
    }),
  );
}
