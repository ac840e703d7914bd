/** The stateless one-step "execute agent" API: schemas, validation, `execute`, and its loopback server. */
export {
  SPEC_MODELS,
  DEFAULT_INSTRUCTIONS,
  DEFAULT_TEMPERATURE,
  ExecuteAgentRequest,
  OpenExecuteAgentRequest,
  ExecuteAgentResponse,
  HTTPValidationError,
  ValidationError,
  Message,
  Tool,
  ToolArguments,
  ToolPropertyValue,
  ModelParameters,
  LastKMemoryStrategy,
  type AgentMessage,
  type ToolSpec,
} from "./schema";
export { check, type Problem, type Loc, type Checked } from "./validation";
export { readBody, type Body } from "./body";
export { toRequest, toMessages, toFunction, toParameters, remembered, NO_RESULT } from "./conversation";
export { execute, toResponse, type ExecuteConfig, type Outcome, type Detail } from "./execute";
export { serveExecute, EXECUTE_PATH, DEFAULT_LIMIT, type ServeOptions, type ExecuteServer } from "./server";
