/** The runner room's door: what the rest of src uses from src/chat/runner/. */
export { checkpointBefore } from "./checkpoint-once";
export { fit } from "./fit";
export type { RunnerHost } from "./host";
export { FINAL, parentOf } from "./items";
export { Runner, serveConversations } from "./runner";
export { pricesFor } from "./usage";
export { Delegates, SUBAGENT_TOOLS, type Delegation } from "./delegate";
