import * as vscode from "vscode";
import { randomBytes } from "node:crypto";
import { panelHtml } from "./html";

/** The side-panel chat: a webview view whose page is built by `panelHtml` under a strict CSP. */
export class PanelProvider implements vscode.WebviewViewProvider {
  static readonly viewType = "tandem.chatView";
  view?: vscode.WebviewView;

  constructor(private readonly extensionUri: vscode.Uri) {}

  resolveWebviewView(view: vscode.WebviewView) {
    this.view = view;
    const dist = vscode.Uri.joinPath(this.extensionUri, "dist");
    view.webview.options = {
      enableScripts: true,
      enableCommandUris: ["tandem.setApiKey", "workbench.action.openSettings"],
      localResourceRoots: [dist, vscode.Uri.joinPath(this.extensionUri, "media")],
    };
    const uri = (file: string) => view.webview.asWebviewUri(vscode.Uri.joinPath(dist, file)).toString();
    view.webview.html = panelHtml({
      cspSource: view.webview.cspSource,
      nonce: randomBytes(18).toString("base64"),
      scriptUri: uri("webview.js"),
      styleUri: uri("webview.css"),
      codiconUri: uri("codicon.css"),
      title: "Tandem",
    });
  }
}

export function registerPanel(context: vscode.ExtensionContext) {
  const provider = new PanelProvider(context.extensionUri);
  context.subscriptions.push(
    vscode.window.registerWebviewViewProvider(PanelProvider.viewType, provider, {
      webviewOptions: { retainContextWhenHidden: false },
    }),
  );
  return provider;
}
