/** Conversations as tables: their rows, the durable store, the runner that answers them, chat tools, plugins, models and skills. */
export * from "./rows";
export * from "./make";
export { Store, ReadOnlyError, type Change, type Follow, type StoreOptions } from "./store";
export * from "./approval";
export { Runner, serveConversations } from "./runner";
export type { RunnerHost, Limits } from "./runner-host";
export { recover, interruptedItem, type Recovered } from "./runner-recover";
export { Answer, answerKey, parentOf, CUT_SHORT, INTERRUPTED, CALL_INTERRUPTED } from "./runner-items";
export { exchanges, messagesOf, historyBefore, nextWork, type Exchange, type Work } from "./runner-history";
export { assistantOf, instructionsOf, DEFAULT_INSTRUCTIONS } from "./runner-answer";
export * from "./tools";
export * from "./tools-read";
export * from "./skills";
export * from "./catalogue";
export * from "./plugins";
export * from "./address";
export type { FileRef } from "../protocol/files";
