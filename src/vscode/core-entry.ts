// The heavy parts of Tandem that the editor layer uses, bundled apart as dist/core.js and loaded on first
// use (see core.ts), so that activation parses only the thin layer. No `vscode` import here.
export { endpoint } from "../agent/endpoint";
export { agent } from "../agent/agent";
export { run } from "../agent/run";
export { limitNote, CONTINUE } from "../agent/limit-note";
export { compact } from "../agent/condense-turn";
export { sayCuts } from "../agent/cut";
export { withSummary } from "../agent/condense";
export { pricesFor } from "../chat/runner/usage";
export { probe, markdown, learned } from "../agent/probe";
export { takesImages } from "../agent/vision";
export { catalogue, placeOf, endpointOf, LOCAL_SERVERS, localBaseURL } from "../chat/models/catalogue";
export { Store } from "../chat/store/store";
export { serveConversations } from "../chat/runner/runner";
export { AgentPlugins } from "../chat/plugins/set";
export { readSkills, readFolderSkills } from "../chat/assistants/skills";
export { instructionsText, requestInstructions } from "../chat/assistants/instructions-text";
export { fit } from "../chat/runner/fit";
export { readAssistantFiles } from "../chat/assistants/files";
export { PersonAssistants } from "../chat/assistants/person";
export { secretKey } from "../chat/rows";
export { PanelView } from "../chat/panel/view";
export { Kept } from "../chat/panel/context-refs";
export { sweepKept } from "../chat/panel/context-sweep";
export { exportMarkdown, exportJson } from "../chat/panel/export";
export { publicPage, sourcesIn } from "../protocol/sources";
export {
  workspaceTools,
  describeCall,
  inside,
  ALWAYS_ASK,
  commitPrompt,
  commitMessageOf,
  fixPrompt,
  ripgrepUnder,
} from "../chat/workspace/index";
export { fileInFolders } from "../chat/workspace/contained";
export { nameFolders, placesOf } from "../chat/workspace/folders";
export { offered } from "../chat/approval/approval";
export { approveWith, allowanceOf, refusedNote } from "../chat/approval/judge";
export { execute, serveExecute } from "../execute/index";
export { PendingChanges } from "../chat/pending/changes";
export { TurnCheckpoints } from "../chat/checkpoints/turns";
export { writePending } from "../chat/pending/editor";
export { hunksOf } from "../chat/pending/diff";
export { diskFiles } from "../chat/pending/editor";
export { setBundle } from "../protocol/l10n";
