/** The shared types of the agent core: what a model reads and writes, and what a run shows. */
import type { Condensing } from "./condense-turn";
import type { Cut } from "./cut";

/** A tool call the model made: its id, the tool, and its arguments (a JSON object's text). */
export interface Call {
  id: string;
  name: string;
  arguments: string;
}

/**
 * One message of the conversation: "user" (with pictures as data URLs), "assistant" (its text,
 * reasoning, the calls it made and the provider's reasoning details that continue it) or "tool"
 * (the result `text` of the call `call`).
 */
export type Message =
  | { role: "user"; text: string; images?: string[] }
  | { role: "assistant"; text: string; reasoning?: string; calls?: Call[]; details?: unknown[] }
  | { role: "tool"; call: string; name?: string; text: string };

/**
 * Why a limit ended a run: its rounds, tokens or time; "repeats": the model made the same failing
 * call (the same tool, arguments and error) three times in a row; "output": the model's answer
 * reached the tokens the server lets one answer have (`max_tokens`, or its own cap) and was cut off.
 */
export type Limit = "rounds" | "tokens" | "time" | "repeats" | "output";

/** The call a limit ended the run at: one cut while its arguments streamed, or the failing call repeated (with its error). */
export interface LimitCall {
  name: string;
  error?: string;
}

/**
 * What a run shows as it goes: text and reasoning as the model writes them, a call when it calls a
 * tool, its result (or why it failed), and at the end exactly one of done / error / stopped. A
 * `limit` on done or stopped says which limit ended the run: "done" after the answer it was asked
 * for once a limit was reached between rounds, "stopped" when a turn was cut at the limit (`call`:
 * the call it was cut at, which did not run).
 *
 * Three pieces say more about what was shown: "retracted" takes back the last `text` given as the
 * answer this turn, which was reasoning after all (a lone `</think>` showed it: what shows the
 * answer moves it to the reasoning; the turn's reasoning holds it); "note" is something the person should know that is not the model's words (a setting the
 * model cannot apply), shown once a run; "arguments" is a part of a tool call's arguments as the
 * model streams them (`name`: its tool, "" not yet known), which a run counts but does not show.
 */
export type Piece =
  | { kind: "text"; text: string }
  | { kind: "reasoning"; text: string }
  | { kind: "retracted"; text: string }
  | { kind: "note"; text: string }
  | { kind: "arguments"; name: string; text: string }
  | { kind: "call"; call: Call }
  | { kind: "result"; call: Call; text: string }
  | { kind: "failed"; call: Call; text: string }
  | { kind: "done"; text: string; limit?: Limit }
  | { kind: "error"; text: string }
  | { kind: "stopped"; text: string; limit?: Limit; call?: LimitCall };

/** A tool as a model API takes it (an OpenAI function object). */
export interface FunctionTool {
  type: "function";
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

/** Sampling settings a caller may give one turn; an endpoint passes on what it understands. */
export interface Parameters {
  temperature?: number;
  maxTokens?: number;
  stop?: string[];
  topP?: number;
  topK?: number;
  frequencyPenalty?: number;
  presencePenalty?: number;
  reasoningEffort?: "low" | "medium" | "high";
}

/** What the model is asked for one turn. `answer`: write, do not call a tool. */
export interface Request {
  instructions: string;
  messages: Message[];
  tools: FunctionTool[];
  answer: boolean;
  parameters?: Parameters;
  /** Aborts the turn's HTTP stream. */
  signal?: AbortSignal;
  /** A request that condenses the conversation (a summary), not a round of it. */
  summary?: boolean;
}

/** One turn of the model: what it wrote, its calls, and the tokens it wrote and read. */
export interface Turn {
  text: string;
  reasoning: string;
  calls: Call[];
  details: unknown[];
  /** Tokens written. */
  tokens: number;
  /** Tokens read. */
  input: number;
  /** The model's context window in tokens (0: unknown). */
  window: number;
  /** Tokens read that the provider served from its prompt cache (0 or absent: none said). */
  cached?: number;
  /** The server cut the prompt without a word: it read `held` of about `sent` tokens (cut.ts). */
  cut?: Cut;
  /**
   * Why the answer ended, as the server said (`stop`, `length`, `tool_calls`…); absent when it said
   * nothing. "length": it reached the tokens one answer may have and was cut off there.
   */
  finish?: string;
}

/**
 * A model: its name and the function that writes one turn, giving each text or reasoning piece
 * to `each` as it comes (a false from `each` stops the turn).
 */
export interface Model {
  name: string;
  turn(request: Request, each: (piece: Piece) => boolean | void): Promise<Turn>;
  /** The model's context window in tokens (0: unknown), asked before the first turn when the agent does not know it. */
  window?(): Promise<number>;
  /** What its tokens cost, when known (settings or the endpoint's model list). */
  prices?: Prices;
  /** The sampling settings of `parameters` this model cannot apply (a run says so once). */
  ignores?(parameters: Parameters): (keyof Parameters)[];
}

/** A model's prices in US dollars per million tokens; `cached` for tokens read from the provider's cache (default `input`). */
export interface Prices {
  input: number;
  output: number;
  cached?: number;
}

/** A tool: its name, what it does, the JSON Schema of its input, and how it runs. */
export interface Tool {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
  /** A call of a read-only tool runs without `approve`. */
  readOnly: boolean;
  /** Runs on the arguments' JSON text and answers text (JSON for records). Throws to fail. `call`: the call it runs for. */
  run(args: string, signal: AbortSignal, call?: Call): Promise<string>;
  /** How long a call may take before it fails (default: the run's). */
  timeoutMs?: number;
  /** Ends what its calls left running (background commands); called once when a run given it ends. */
  close?(): void;
}

/** A file the person gives with a message: its name, media type and where it is on disk. */
export interface Attachment {
  name: string;
  type: string;
  path: string;
}

/** The name of the tool that `ask` adds: its input is the record asked for. */
export const ANSWER = "answer";
/** What a declined call gives the model as its result. */
export const DECLINED = "The person declined this call.";
/** The name of the tool that reads a long document in parts. */
export const READ_FILE = "read_file";

/**
 * An agent: the model, its instructions and tools, the conversation so far (each run adds to it),
 * its limits, the tokens its runs wrote and read, how full the context is, and what a person does
 * to a running agent (`stop`, asked between pieces and rounds; `approve`, asked before each call
 * of a tool that is not read-only — it may wait for the person).
 */
export interface Agent {
  model: Model;
  instructions: string;
  tools: Tool[];
  history: Message[];
  /** Tool rounds of one run (default 16); at the limit the model is asked for an answer of at most 1,024 tokens. */
  rounds: number;
  /**
   * Tokens written in one run (0: none), counted as the stream comes (estimated from its length when
   * the server sends no usage): a turn that reaches it is cut and the run ends stopped.
   */
  maxTokens: number;
  /** Milliseconds of one run (0: none): a turn still streaming at the deadline is cut and the run ends stopped. */
  maxMs: number;
  stop: () => boolean;
  /** May the call run: true, false (the person declined), or why it is refused (the model reads it). */
  approve: (call: Call) => boolean | string | Promise<boolean | string>;
  /**
   * Tokens written for the run outside its own turns (the subagents its tools started): counted
   * against `maxTokens` with the run's own.
   */
  spent?: () => number;
  /** Tokens written by all runs. */
  tokens: number;
  /** Tokens read by all runs. */
  input: number;
  /** Tokens the conversation holds after the last turn. */
  context: number;
  /** The model's window (0: unknown). */
  window: number;
  /** Sampling settings for every turn. */
  parameters?: Parameters;
  /** How long a tool call may take when its tool does not say (default 120 000 ms). */
  timeoutMs?: number;
  /** How the history is condensed to fit the window, and the summary kept so far. */
  condensing?: Condensing;
  /**
   * The person's messages that join the run going on (steering), read at each round boundary: after
   * the results of a round are added and before the next model turn. Calls in flight are not stopped.
   */
  steer?: () => Message[] | Promise<Message[]>;
}

/** Options of one run. */
export interface RunOptions {
  each?: (piece: Piece) => void;
  files?: Attachment[];
  signal?: AbortSignal;
}
