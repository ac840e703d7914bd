/** What the checkpoint tests share. */
import { spawnSync } from "node:child_process";
import type { Editor } from "../../../src/chat/workspace/editor";

/** An editor whose commands really run (sh, in the folder); it never asks to write. */
export const shell: Editor = {
  open: async () => undefined,
  propose: async () => ({ accepted: false }),
  create: async () => undefined,
  run: async (command) => {
    const r = spawnSync("sh", ["-c", command.command], { cwd: command.cwd, encoding: "utf8" });
    return { exitCode: r.status ?? 1, output: r.stdout + r.stderr };
  },
};

/** A scripted call of propose_edit replacing `oldText` with `newText` in `path`. */
export const edit = (path: string, oldText: string, newText: string): [string, string] => [
  "propose_edit",
  JSON.stringify({ path, oldText, newText }),
];

/** A scripted call of run_command running `line`. */
export const command = (line: string): [string, string] => ["run_command", JSON.stringify({ command: line })];
