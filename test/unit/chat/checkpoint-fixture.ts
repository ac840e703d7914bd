/** What the checkpoint tests share. */
import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { scripted } from "../../../src/agent/scripted";
import { TurnCheckpoints } from "../../../src/chat/checkpoints/turns";
import { PendingChanges } from "../../../src/chat/pending/changes";
import { diskFiles, pendingEditor } from "../../../src/chat/pending/pending-editor";
import { approvalsFor } from "../../../src/chat/pending/mode";
import type { Item } from "../../../src/chat/row-schemas";
import type { Store } from "../../../src/chat/store/store";
import type { Editor } from "../../../src/chat/workspace/editor";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { folder, write } from "../workspace/fixtures";
import { bench, hostOf, type Bench } from "./runner-fixture";

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

/** One checkpoint test's workspace, its pending changes and checkpoints, and a runner over them. */
export interface CheckpointScene {
  root: string;
  /** The folder of Tandem's storage (the checkpoints are under it). */
  storage: string;
  changes: PendingChanges;
  turns: TurnCheckpoints;
  store: Store;
  bench: Bench;
  /** The checkpoints the runner took: for which message, and what a.txt held then. */
  taken: { message: string; a: string }[];
}

/**
 * Gives the calling suite a way to set up a scene per test (taken down after it): a workspace
 * holding `files`, edits made as pending changes, the person saying yes to each command, checkpoints
 * (on unless `enabled` is false) that follow the store's copied messages, and a runner whose model
 * plays `script`.
 */
export function checkpointScenes(): (
  files: Record<string, string | Buffer>,
  script: Parameters<typeof scripted>[0],
  enabled?: boolean,
) => Promise<CheckpointScene> {
  let b: Bench | undefined;
  let turns: TurnCheckpoints | undefined;
  const made: { remove: () => void }[] = [];
  afterEach(async () => {
    await b?.end();
    await turns?.close();
    made.splice(0).forEach((f) => f.remove());
    b = turns = undefined;
  });
  return async (files, script, enabled = true) => {
    const ws = folder();
    const storage = folder("tandem-storage-");
    made.push(ws, storage);
    const root = ws.path;
    write(root, files);
    const changes = await PendingChanges.open(join(storage.path, "pending.json"), diskFiles);
    const editor = pendingEditor(shell, changes, () => "pending");
    const held: { store?: Store } = {};
    const t = (turns = new TurnCheckpoints({
      folders: () => [{ root, name: "ws" }],
      storage: storage.path,
      settings: () => ({ enabled, maxFileBytes: 1024 * 1024, maxTotalBytes: 64 * 1024 * 1024 }),
      items: (chat) => held.store?.items(chat) ?? [],
    }));
    const taken: CheckpointScene["taken"] = [];
    b = await bench(
      hostOf(
        { default: scripted(script) },
        {
          tools: () => workspaceTools({ root, editor, trusted: true }),
          root: () => root,
          approvals: (assistant) => approvalsFor("pending", {}, assistant?.approve),
          approve: async () => true,
          checkpoint: async (message: Item) => {
            await t.before(message);
            const a = join(root, "a.txt");
            taken.push({ message: message.id, a: existsSync(a) ? readFileSync(a, "utf8") : "" });
          },
        },
      ),
    );
    held.store = b.store;
    return { root, storage: storage.path, changes, turns: t, store: b.store, bench: b, taken };
  };
}
