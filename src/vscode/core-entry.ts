// The heavy parts of Tandem that the editor layer uses, bundled apart as dist/core.js and loaded on first
// use (see core.ts), so that activation parses only the thin layer. No `vscode` import here.
export { endpoint } from "../agent/endpoint";
export { agent } from "../agent/agent";
export { run } from "../agent/run";
export { limitNote, CONTINUE } from "../agent/limit-note";
export { compact } from "../agent/condense-turn";
export { sayCuts } from "../agent/cut";
export { withSummary } from "../agent/condense";
export { pricesFor } from "../chat/runner";
export { probe, markdown, learned } from "../agent/probe";
export { takesImages } from "../agent/vision";
export { catalogue, placeOf, endpointOf, LOCAL_SERVERS, localBaseURL, localOnlyModel } from "../chat/models";
export { Store } from "../chat/store";
export { serveConversations } from "../chat/runner";
export { AgentPlugins } from "../chat/plugins";
export { readSkills, readFolderSkills } from "../chat/assistants";
export {
  narrowed,
  promptNamed,
  promptPlaces,
  readPromptPlaces,
  slashCommand,
  usePrompt,
} from "../chat/assistants";
export { instructionsText, requestInstructions } from "../chat/assistants";
export { Delegates, SUBAGENT_TOOLS } from "../chat/runner";
export { prepareChatViewRun, openedAfter, wordsOf, FALLBACK_ASSISTANT } from "../chat/runner";
export { readAssistantFiles } from "../chat/assistants";
export { PersonAssistants } from "../chat/assistants";
export { secretKey } from "../chat/row-schemas";
export { PanelView, planFiles } from "../chat/panel";
export { Kept } from "../chat/panel";
export { sweepKept } from "../chat/panel";
export { exportMarkdown, exportJson } from "../chat/panel";
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
export { fileInFolders } from "../chat/workspace";
export { nameFolders, placesOf } from "../chat/workspace";
export { offered } from "../chat/approval";
export { approveWith, allowanceOf, refusedNote } from "../chat/approval";
export { execute, serveExecute } from "../execute/index";
export { PendingChanges } from "../chat/pending";
export { TurnCheckpoints, Restorer, keptChats, neededChats, Waiting, reasonText } from "../chat/checkpoints";
export {
  listed,
  listedIn,
  messageOf,
  chatViewKey,
  isChatViewKey,
  sessionCheckpoints,
  askedAt,
} from "../chat/checkpoints";
export { writePending } from "../chat/pending";
export { hunksOf } from "../chat/pending";
export { diskFiles } from "../chat/pending";
export { setBundle } from "../protocol/l10n";
