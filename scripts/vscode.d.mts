// Types of the parts of vscode.mjs that TypeScript tests use (the Chromium the harnesses drive).
export const chromiumArgs: string[];
export const chromiumPath: string;
export function requireChromium(): void;
