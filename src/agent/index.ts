/** The agent core: models, typed tools, the streaming run loop, ask, title, endpoints and attachments. */
export * from "./types";
export { agent } from "./agent";
export { tool, schema, parse, issues, type ToolOptions } from "./tool";
export { run, RunError } from "./run";
export { compact, condensedTurn, type Condensing, type Condensed } from "./condense-turn";
export { FALLBACK_WINDOW, THRESHOLD, estimate, stub, withSummary, type Summary } from "./condense";
export { ask, title, shorten } from "./ask";
export { scripted, says, calls, pieces, type Script, type ScriptedModel } from "./scripted";
export { endpoint, served, windowOf, OPENROUTER, type EndpointOptions, type Streaming } from "./endpoint";
export { windowIn } from "./window";
export { RETRY, type Retry } from "./failure";
export { attach, mediaType, reader, BUDGET, type Attached, type Budget, type Document } from "./attachments";
export { TOOL_TIMEOUT_MS } from "./perform";
export * from "./probe";
export {
  described as learnedWords,
  factsKey,
  isLearned,
  learn,
  memoryFacts,
  type Facts,
  type TokenField,
} from "./facts";
export { openaiReasoning, takesTopK } from "./sampling";
export { FINAL_TOKENS, CUT_OFF_CALL } from "./run";
export { limitNote, CONTINUE, type Limits } from "./limit-note";
