/**
 * A prompt the server cut without a word: Ollama (and servers in front of it) keep the start of a
 * prompt longer than the window they serve and drop the rest of the oldest part, and report only
 * what they kept as `prompt_tokens`. Tandem compares that count with its own estimate of what it
 * sent; far fewer is a cut, and the count is what the server really holds.
 */
import { condensingOf } from "./condense-turn";
import { learn, type Facts } from "./facts";
import type { ServerKind } from "./served";
import type { Agent, Turn } from "./types";
import { servedKnown } from "./window";
import { t } from "../protocol/l10n";

/** A prompt the server cut: about `sent` tokens were sent, `held` were read. */
export interface Cut {
  sent: number;
  held: number;
  /** The server's kind, when its metadata told it (it names the fix). */
  kind?: ServerKind;
  /** The model's trained maximum, when known (the fix asks for no more). */
  trained?: number;
}

/**
 * A count under this share of what Tandem expected is a cut. Before the server has counted a whole
 * prompt, Tandem's estimate is four characters a token; tokenizers of today's models read English
 * and code at 3–4.5 characters a token, so a whole prompt comes out at 0.85 or more of that raw
 * estimate: a quarter less cannot be the tokenizer, it is a prompt the server did not read.
 */
export const CUT_SHARE = 0.75;

/**
 * The share once the server counted whole prompts of this model: the estimate is then calibrated
 * by its own counts, and each prompt of a conversation repeats the earlier ones, so a whole prompt
 * comes within a few percent of it; a tenth less is text the server dropped.
 */
export const CALIBRATED_SHARE = 0.9;

/** Prompts smaller than this say little about the tokenizer, and no server serves so small a window. */
const LEAST = 256;

/** What one model object learns of how its server counts, from prompts it read whole. */
export interface Counting {
  /** The server's count over Tandem's raw estimate (1 until a whole prompt is counted). */
  ratio: number;
  /** Whether a whole prompt was counted. */
  calibrated?: boolean;
}

/**
 * Whether a prompt of about `sent` tokens (Tandem's raw estimate) that the server counted as
 * `reported` was cut; a prompt read whole calibrates `counting`.
 */
export function wasCut(counting: Counting, sent: number, reported: number): boolean {
  if (reported < LEAST || sent < LEAST) return false;
  if (reported < sent * counting.ratio * (counting.calibrated ? CALIBRATED_SHARE : CUT_SHARE)) return true;
  // Bounded as condensing bounds its own ratio: a server that counts far off is not followed.
  counting.ratio = Math.min(2, Math.max(0.75, reported / sent));
  counting.calibrated = true;
  return false;
}

/** Where a cut is remembered: the endpoint's facts, and the model's key, endpoint and id. */
export interface Holding {
  facts: Facts;
  key: string;
  baseURL: string;
  model: string;
}

/**
 * The cut of the prompt `body` when the server's count in `turn` shows one, remembered in the
 * facts (the window is then what the server held, for this run and the later ones); undefined when
 * the prompt was read whole.
 */
export function heldBy(counting: Counting, body: object, turn: Turn, holding: Holding): Cut | undefined {
  const sent = sentTokens(body);
  if (!wasCut(counting, sent, turn.input)) return undefined;
  const held = turn.input;
  const before = holding.facts.get(holding.key)?.held;
  learn(holding.facts, holding.key, { window: held, held: before ? Math.min(before, held) : held });
  const server = servedKnown(holding.baseURL, holding.model);
  return { sent, held, kind: server?.kind, trained: server?.trained || undefined };
}

/** The estimated tokens of a Chat Completions body as sent: its messages' words, calls and tools. */
export function sentTokens(body: object): number {
  const b = body as { messages?: unknown; tools?: unknown };
  const chars = (value: unknown): number =>
    typeof value === "string"
      ? value.length
      : value === undefined || value === null
        ? 0
        : JSON.stringify(value).length;
  let tokens = Array.isArray(b.tools) && b.tools.length ? Math.ceil(chars(b.tools) / 4) : 0;
  for (const m of Array.isArray(b.messages) ? (b.messages as Record<string, unknown>[]) : []) {
    const content = Array.isArray(m.content)
      ? (m.content as Record<string, unknown>[]).reduce((n, part) => n + chars(part.text), 0)
      : chars(m.content);
    tokens += 4 + Math.ceil((content + chars(m.tool_calls) + chars(m.reasoning_content)) / 4);
  }
  return tokens;
}

/** A window to ask for: twice what is held, at least 16k, no more than the model was trained for. */
export function roomFor(cut: Pick<Cut, "held" | "trained">): number {
  const want = Math.max(16_384, 2 ** Math.ceil(Math.log2(cut.held * 2)));
  return cut.trained ? Math.min(cut.trained, want) : want;
}

/** How to give the model a larger window on a server of `kind`, asking for `tokens`. */
export function fixFor(kind: ServerKind | undefined, tokens: number): string {
  switch (kind) {
    case "ollama":
      return t(
        "To serve more, start Ollama with OLLAMA_CONTEXT_LENGTH={0} in its environment, or set num_ctx for the model: PARAMETER num_ctx {0} in its Modelfile, or /set parameter num_ctx {0} in ollama run.",
        tokens,
      );
    case "llamacpp":
      return t(
        "To serve more, start llama-server with a larger context: --ctx-size {0} (or -c {0}).",
        tokens,
      );
    case "lmstudio":
      return t(
        "To serve more, load the model in LM Studio with a larger Context Length ({0}) in its load settings.",
        tokens,
      );
    case "vllm":
      return t("To serve more, start vLLM with --max-model-len {0}.", tokens);
    default:
      return t("To serve more, raise the context length in the model server's settings (to {0}).", tokens);
  }
}

/** What the person reads in the conversation when a prompt was cut. */
export function cutNotice(cut: Cut): string {
  return t(
    "The model server cut the last request without saying so: Tandem sent about {0} tokens and the model read {1}, so the answer above may have missed part of the conversation. Tandem now fits every request to {1} tokens. {2}",
    cut.sent.toLocaleString("en-US"),
    cut.held.toLocaleString("en-US"),
    fixFor(cut.kind, roomFor(cut)),
  );
}

/** Gives `say` the notice of a cut the first time the server cuts one of `a`'s prompts (the next rounds are fitted). */
export function sayCuts(a: Agent, say: (notice: string) => void): void {
  let said = false;
  condensingOf(a).cut = (cut) => {
    if (said) return;
    said = true;
    say(cutNotice(cut));
  };
}
