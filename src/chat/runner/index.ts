/** The runner room's door: what the rest of src uses from src/chat/runner/. */
export { FALLBACK_ASSISTANT, openedAfter, prepareChatViewRun, prepareRun, wordsOf } from "./prepare";
export type { ChatViewFacts, Decide, Judged, PreparedRun, RunFacts, RunSource } from "./prepare";
export type { RunnerHost } from "./runner-host";
export { FINAL, parentOf } from "./answer-items";
export { Runner, serveConversations } from "./runner";
export { pricesFor } from "./usage";
export { Delegates, SUBAGENT_TOOLS, type Delegation } from "./delegate";
