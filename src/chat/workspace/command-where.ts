/**
 * The person's command rules applied where the command runs: in its folder of the workspace, whose
 * own configuration may change what the line runs (repo-config.ts). The approval judges every
 * `run_command` through `judgeCommandInFolders`.
 */
import { resolve } from "node:path";
import { judgeCommand, plainParts, type CommandJudgement, type CommandRules } from "./command-rules";
import { place, type Folder } from "./folders";
import { configVoids, type Where } from "./repo-config";

/**
 * Judges `line` as `judgeCommand` does, run in `where`: the repository's configuration that
 * changes what the line's programs run (a `.npmrc`'s `script-shell`, git's `core.fsmonitor` in any
 * git layout) voids the rules that allowed it, and the question says why (see repo-config.ts).
 */
export async function judgeCommandIn(
  line: string,
  rules: CommandRules,
  where: Where,
  platform: string = process.platform,
): Promise<CommandJudgement> {
  const judged = judgeCommand(line, rules, platform);
  if (judged.verdict === "denied") return judged;
  const plain = plainParts(line, platform);
  if ("why" in plain) return judged;
  const voided = await configVoids(plain.parts, where, platform);
  if (!voided) return judged;
  // "Always allow" would keep a rule the repository's configuration voids again: none is offered.
  if (judged.verdict === "allowed") return { verdict: "ask", why: voided };
  return { ...judged, why: `${judged.why} ${voided}`, offer: undefined };
}

/**
 * Judges `line` run in the folder `cwd` (as the call wrote it) of the workspace `folders`, as
 * `judgeCommandIn` does; with no folder, as `judgeCommand` does. The approval's one call.
 */
export async function judgeCommandInFolders(
  line: string,
  rules: CommandRules,
  folders: readonly Folder[],
  cwd: string,
  platform: string = process.platform,
): Promise<CommandJudgement> {
  if (folders.length === 0) return judgeCommand(line, rules, platform);
  let at: string;
  try {
    const placed = place([...folders], cwd, folders[0]);
    at = resolve(placed.folder.root, placed.path);
  } catch {
    // A folder the command cannot run in: its configuration is read from the workspace's top.
    at = folders[0].root;
  }
  return judgeCommandIn(line, rules, { cwd: at, roots: folders.map((f) => f.root) }, platform);
}
