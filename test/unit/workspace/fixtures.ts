/** Shared parts of the workspace tool tests: temp folders with files, and calling a tool by name. */

import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { Tool } from "../../../src/agent/types";
import { ripgrepUnder } from "../../../src/chat/workspace/ripgrep";

/** A fresh temp folder (its real path); `remove` deletes it. */
export function folder(prefix = "tandem-ws-"): { path: string; remove: () => void } {
  const path = realpathSync(mkdtempSync(join(tmpdir(), prefix)));
  return { path, remove: () => rmSync(path, { recursive: true, force: true }) };
}

/** Writes `files` (relative path to content) under `root`, making folders. */
export function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/** Runs the tool `name` of `tools` on `args` as the core would (JSON text in, text out). */
export async function call(
  tools: Tool[],
  name: string,
  args: unknown,
  signal?: AbortSignal,
): Promise<string> {
  const found = tools.find((t) => t.name === name);
  if (!found) throw new Error(`no tool ${name} among ${tools.map((t) => t.name).join(", ")}`);
  return found.run(JSON.stringify(args), signal ?? new AbortController().signal);
}

/** The message of the error `promise` rejects with (fails when it resolves). */
export async function refusal(promise: Promise<unknown>): Promise<string> {
  try {
    const value = await promise;
    throw new Error(`expected a refusal, got ${JSON.stringify(value)}`);
  } catch (error) {
    if ((error as Error).message.startsWith("expected a refusal")) throw error;
    return (error as Error).message;
  }
}

/** The editor folder of the code-server the harness installs (scripts/vscode.mjs), where its ripgrep is. */
const CODE_SERVER_APP = join(
  dirname(dirname(dirname(__dirname))),
  ".vscode-test/server/node_modules/code-server/lib/vscode",
);

/** The two ways list_files and search_text run: ripgrep as in VS Code, and the plain-Node walk. */
export const searchPaths: { name: string; ripgrep: () => string | undefined }[] = [
  { name: "plain Node", ripgrep: () => undefined },
  {
    name: "ripgrep",
    ripgrep: () => {
      const rg = ripgrepUnder(CODE_SERVER_APP);
      if (!rg) {
        throw new Error(
          `No ripgrep under ${CODE_SERVER_APP}: the unit tests take VS Code's ripgrep from the code-server that \`npm test\` installs (scripts/vscode.mjs ensureCodeServer).`,
        );
      }
      return rg;
    },
  },
];
