/**
 * The "execute agent" API's request and response, as zod schemas that follow its OpenAPI document
 * field for field (names, order, defaults, bounds). The order of the fields is the order in which
 * validation errors are listed, so it follows the document too.
 */
import { z } from "zod";

/** The model names the API document lists; each is mapped to one of the person's models. */
export const SPEC_MODELS = [
  "gpt-4",
  "gpt-4-0613",
  "gpt-4-32k",
  "gpt-4-32k-0613",
  "gpt-3.5-turbo",
  "gpt-3.5-turbo-0613",
  "gpt-3.5-turbo-16k",
  "gpt-3.5-turbo-16k-0613",
  "claude-instant-1",
  "claude-instant-1.1",
  "claude-2",
  "claude-2.0",
] as const;

/**
 * The document's default instructions: a YAML folded scalar, so its lines join with spaces and
 * its one blank line becomes one newline between the two paragraphs.
 */
export const DEFAULT_INSTRUCTIONS =
  "You are an AI assistant that helps users with their questions. You can answer questions " +
  "directly or acquire information from any of the attached tools to assist you. Always answer " +
  "the user's most recent query to the best of your knowledge.\n" +
  "When asked about what tools are available, you must list each attached tool's name and " +
  "description. When asked about what you can do, mention that in addition to your normal " +
  "capabilities, you can also use the attached tools by listing their names and descriptions. " +
  "You cannot use any other tools other than the ones provided to you explicitly.";

/** The default sampling temperature. */
export const DEFAULT_TEMPERATURE = 0.2;

const detail = z.enum(["low", "high", "auto"]);

export const TextUserMessageContentParts = z
  .object({ type: z.literal("text").default("text"), text: z.string() })
  .meta({ id: "TextUserMessageContentParts" });

export const ImageUrlSubPart = z
  .object({ url: z.string(), detail: detail.nullish() })
  .meta({ id: "ImageUrlSubPart" });

export const ImageUrlUserMessageContentParts = z
  .object({ type: z.literal("image_url").default("image_url"), image_url: ImageUrlSubPart })
  .meta({ id: "ImageUrlUserMessageContentParts" });

export const ImageDataSubPart = z
  .object({
    type: z.literal("base64").default("base64"),
    media_type: z.string(),
    data: z.string(),
    detail: detail.nullish(),
  })
  .meta({ id: "ImageDataSubPart" });

export const ImageDataUserMessageContentParts = z
  .object({ type: z.literal("image_data").default("image_data"), image_data: ImageDataSubPart })
  .meta({ id: "ImageDataUserMessageContentParts" });

export const UserMessageContentParts = z.discriminatedUnion("type", [
  TextUserMessageContentParts,
  ImageUrlUserMessageContentParts,
  ImageDataUserMessageContentParts,
]);

export const ToolRequest = z.object({ name: z.string(), arguments: z.string() }).meta({ id: "ToolRequest" });

export const UserMessage = z
  .object({
    role: z.literal("user").default("user"),
    content: z.union([z.string(), z.array(UserMessageContentParts)]),
  })
  .meta({ id: "UserMessage" });

export const ToolMessage = z
  .object({ role: z.literal("tool").default("tool"), name: z.string(), content: z.string() })
  .meta({ id: "ToolMessage" });

export const AgentMessage = z
  .object({
    role: z.literal("agent").default("agent"),
    content: z.string().nullish(),
    tool_request: ToolRequest.nullish(),
  })
  .meta({ id: "AgentMessage" });

export const SystemMessage = z
  .object({ role: z.literal("system").default("system"), content: z.string() })
  .meta({ id: "SystemMessage" });

export const AssistantMessage = z
  .object({ role: z.literal("assistant").default("assistant"), content: z.string() })
  .meta({ id: "AssistantMessage" });

export const Message = z.discriminatedUnion("role", [
  UserMessage,
  ToolMessage,
  AgentMessage,
  SystemMessage,
  AssistantMessage,
]);

/** One argument of a tool. Keys the document does not name (items, enum…) are kept for the model. */
export const ToolPropertyValue = z
  .looseObject({
    type: z.enum(["string", "number", "integer", "boolean", "object", "array", "null"]),
    description: z.string(),
    default: z.string().nullish(),
    examples: z.array(z.string()).nullish(),
  })
  .meta({ id: "ToolPropertyValue" });

/** A tool's arguments: a JSON Schema object. Other JSON Schema keys are kept for the model. */
export const ToolArguments = z
  .looseObject({
    type: z.literal("object"),
    properties: z.record(z.string(), ToolPropertyValue).nullish(),
    required: z.array(z.string()).nullish(),
  })
  .meta({ id: "ToolArguments" });

export const Tool = z
  .object({
    name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/),
    description: z.string(),
    arguments: ToolArguments,
  })
  .meta({ id: "Tool" });

/** The tools of a request: their names must differ, as the document says. */
export const Tools = z.array(Tool).superRefine((tools, context) => {
  const first = new Map<string, number>();
  tools.forEach((tool, index) => {
    const earlier = first.get(tool.name);
    if (earlier === undefined) first.set(tool.name, index);
    else
      context.addIssue({
        code: "custom",
        path: [index, "name"],
        message: `Value error, tool names must be unique: '${tool.name}' is also the name of tools[${earlier}]`,
        params: { type: "value_error" },
        input: tool.name,
      });
  });
});

export const ModelParameters = z
  .object({
    temperature: z.number().gte(0).lte(1).default(DEFAULT_TEMPERATURE),
    stop_sequences: z.array(z.string()).max(4).nullish(),
    max_tokens: z.int().nullish(),
    topP: z.number().nullish(),
    topK: z.int().nullish(),
    top_p: z.number().nullish(),
    top_k: z.int().nullish(),
    frequency_penalty: z.number().nullish(),
    presence_penalty: z.number().nullish(),
    reasoning_effort: z.enum(["low", "medium", "high"]).nullish(),
  })
  .meta({ id: "ModelParameters" });

export const LastKMemoryStrategyParams = z
  .object({ k: z.int().gte(1) })
  .meta({ id: "LastKMemoryStrategyParams" });

export const LastKMemoryStrategy = z
  .object({ name: z.literal("last_k").default("last_k"), params: LastKMemoryStrategyParams })
  .meta({ id: "LastKMemoryStrategy" });

/** The request, with `model` one of the document's names. */
export const ExecuteAgentRequest = z
  .object({
    model: z.enum(SPEC_MODELS),
    memory_strategy: LastKMemoryStrategy.nullish(),
    tools: Tools,
    messages: z.array(Message),
    model_parameters: ModelParameters.nullish().default({ temperature: DEFAULT_TEMPERATURE }),
    instructions: z.string().default(DEFAULT_INSTRUCTIONS),
  })
  .meta({ id: "ExecuteAgentRequest" });

/** The same request with any model id: used when the id names one of the person's models. */
export const OpenExecuteAgentRequest = ExecuteAgentRequest.extend({ model: z.string() });

export const ExecuteAgentResponse = z
  .object({
    action: z.enum(["tool_request", "content"]),
    context: z.object({ content: z.string().nullable(), tool_request: ToolRequest.nullable() }),
  })
  .meta({ id: "ExecuteAgentResponse" });

export const ValidationError = z.object({
  loc: z.array(z.union([z.string(), z.number()])),
  msg: z.string(),
  type: z.string(),
  input: z.unknown().optional(),
  ctx: z.record(z.string(), z.unknown()).optional(),
});

export const HTTPValidationError = z.object({ detail: z.array(ValidationError) });

export type ExecuteAgentRequest = z.output<typeof OpenExecuteAgentRequest>;
export type ExecuteAgentResponse = z.output<typeof ExecuteAgentResponse>;
export type ValidationError = z.output<typeof ValidationError>;
export type HTTPValidationError = z.output<typeof HTTPValidationError>;
export type AgentMessage = z.output<typeof Message>;
export type ToolSpec = z.output<typeof Tool>;
export type ModelParameters = z.output<typeof ModelParameters>;
