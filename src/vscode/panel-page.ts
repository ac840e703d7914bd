/**
 * The side panel's HTML page. A pure function (no `vscode` import) so the webview tests build the
 * very page the extension serves.
 */
import type { Bundle } from "../protocol/l10n";
// The one HTML escape of the code base (the Markdown renderer's): pure, so this thin bundle may take it.
import { escape } from "../markdown/html";

/** What the page needs from the webview: its CSP source, a fresh nonce and the URIs of the bundle. */
export interface PanelPage {
  cspSource: string;
  nonce: string;
  scriptUri: string;
  styleUri: string;
  codiconUri: string;
  title: string;
  /** VS Code's display language (`vscode.env.language`); English when absent. */
  language?: string;
  /** The panel's translations for that language, read by the panel before it shows any text. */
  bundle?: Bundle;
}

/**
 * The Content-Security-Policy of the panel: only the extension's files, and scripts with the nonce.
 * Images come from the extension or as data URLs only: a remote image is fetched by the host when
 * the person clicks its placeholder, so no answer can make the panel call a server by itself.
 */
export function panelCsp(cspSource: string, nonce: string): string {
  return [
    "default-src 'none'",
    `img-src ${cspSource} data:`,
    `font-src ${cspSource}`,
    `style-src ${cspSource}`,
    `script-src 'nonce-${nonce}'`,
  ].join("; ");
}

/** The panel's HTML page under a strict CSP: no inline style, no inline script but the nonce's. */
export function panelHtml(page: PanelPage): string {
  if (!/^[A-Za-z0-9+/=_-]{16,}$/.test(page.nonce))
    throw new Error("the nonce must be 16 or more base64 characters");
  return `<!DOCTYPE html>
<html lang="${escape(page.language ?? "en")}">
<head>
<meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="${escape(panelCsp(page.cspSource, page.nonce))}">
<meta name="viewport" content="width=device-width, initial-scale=1.0">
<link rel="stylesheet" href="${escape(page.codiconUri)}">
<link rel="stylesheet" href="${escape(page.styleUri)}">
<title>${escape(page.title)}</title>
</head>
<body data-l10n="${escape(JSON.stringify(page.bundle ?? {}))}">
<div id="app" class="app"></div>
<script nonce="${escape(page.nonce)}" src="${escape(page.scriptUri)}"></script>
</body>
</html>
`;
}
