/** The workspace tools: what the editor side (src/vscode) builds and implements. */

export { ALWAYS_ASK, workspaceTools, type WorkspaceOptions } from "./tools";
export { describeCall } from "./describe";
export type { Command, Editor, NewFile, Proposal, Ran, EditVerdict, Workspace } from "./editor";
export type { Exclude } from "./ignore";
export { inside, PathError, shown } from "./paths";
export { ripgrepUnder } from "./ripgrep";
export { fetchPage, type Page, type PageOptions, type Source } from "./page";
export { commitPrompt, commitMessageOf } from "./git";
export { fixPrompt, type ToFix } from "./problems";
