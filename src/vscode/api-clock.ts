import vscode = require("vscode");

/** When VS Code had made this extension's API object (the first `require("vscode")`, VS Code's own cost). */
export const apiReady = performance.now();
/** The API, imported here so that it is made before any of Tandem's modules load. */
export const api = vscode;
