/** Accumulates one streamed turn from Chat Completions chunks (never from `finalChatCompletion`). */
import type { ChatCompletionChunk } from "openai/resources/chat/completions";
import type { ReasoningField } from "./facts";
import { Stops } from "./stops";
import { Tags } from "./tags";
import { writtenCall } from "./textcalls";
import type { Call, Piece, Turn } from "./types";

/** The fields some servers add to a delta, which the SDK passes on untyped. */
interface Extras {
  reasoning_content?: unknown;
  reasoning?: unknown;
  reasoning_details?: unknown;
}

type Detail = Record<string, unknown>;

/** The fields of a reasoning detail that stream in parts. */
const JOINED = new Set(["text", "summary", "data", "signature"]);

/** One turn being assembled: pieces go to `each` as they come; a false from it halts the turn. */
export class Assembly {
  text = "";
  reasoning = "";
  tokens = 0;
  input = 0;
  /** Tokens read from the provider's prompt cache. */
  cached = 0;
  /** Whether a piece was shown (after which a failed turn cannot be retried). */
  shown = false;
  /** Whether `each` asked to stop. */
  halted = false;
  /** Why the server said the answer ended (its last `finish_reason`), if it did. */
  finish?: string;
  /** The field the reasoning came in (the first, when a server sends several). */
  field?: ReasoningField;
  /**
   * Whether the template opens `<think>` in the prompt: true when a lone `</think>` showed it; false
   * when a turn read as starting inside reasoning never left it (set by `turn`); undefined: not seen.
   */
  opens?: boolean;
  private readonly details: Detail[] = [];
  private readonly native = new Map<number, Call>();
  private readonly written: Call[] = [];
  private readonly tags: Tags;
  private readonly stops: Stops;
  private body = "";
  /** Characters streamed (text, reasoning, call arguments), to estimate tokens when no usage comes. */
  private chars = 0;
  private counted = false;

  /**
   * `inside`: the answer starts inside reasoning (the endpoint's template opens `<think>`); `stops`:
   * the stop sequences the turn ends at, applied here whether or not the endpoint was sent them.
   */
  constructor(
    private readonly each: (piece: Piece) => boolean | void,
    private readonly names: Set<string>,
    inside = false,
    stops: readonly string[] = [],
  ) {
    this.tags = new Tags(inside);
    this.stops = new Stops(stops);
  }

  /** Takes one chunk; false when the turn should halt. */
  add(chunk: ChatCompletionChunk): boolean {
    if (chunk.usage) {
      this.tokens = chunk.usage.completion_tokens ?? this.tokens;
      this.input = chunk.usage.prompt_tokens ?? this.input;
      this.counted = chunk.usage.completion_tokens !== undefined;
      this.cached = chunk.usage.prompt_tokens_details?.cached_tokens ?? this.cached;
    }
    const reason = chunk.choices?.[0]?.finish_reason;
    if (reason) this.finish = reason;
    const delta = chunk.choices?.[0]?.delta;
    if (!delta) return !this.halted;
    const extras = delta as Extras;
    const content = typeof extras.reasoning_content === "string" ? extras.reasoning_content : "";
    const plain = typeof extras.reasoning === "string" ? extras.reasoning : "";
    this.think(content, "reasoning_content");
    const details = Array.isArray(extras.reasoning_details) ? (extras.reasoning_details as Detail[]) : [];
    // mlx-vlm sends the same text in both fields of one chunk: it is one piece of reasoning.
    if (typeof extras.reasoning === "string") this.think(plain === content ? "" : plain, "reasoning");
    else
      for (const d of details)
        this.think(
          typeof d.text === "string" ? d.text : typeof d.summary === "string" ? d.summary : "",
          "reasoning_details",
        );
    for (const d of details) this.detail(d);
    for (const t of delta.tool_calls ?? []) {
      const call = this.native.get(t.index) ?? { id: "", name: "", arguments: "" };
      if (t.id) call.id = t.id;
      if (t.function?.name) call.name += t.function.name;
      this.native.set(t.index, call);
      if (t.function?.arguments) {
        call.arguments += t.function.arguments;
        this.chars += t.function.arguments.length;
        this.tell({ kind: "arguments", name: call.name, text: t.function.arguments });
      }
    }
    if (typeof delta.content === "string" && delta.content) this.segments(this.tags.feed(delta.content));
    return !this.halted;
  }

  /** The turn as assembled so far, its held-back text flushed. */
  turn(window: number): Turn {
    this.segments(this.tags.flush());
    this.said(this.stops.flush());
    // The template opened <think> but the model did not think this time: what it wrote is its answer.
    if (this.tags.unclosed && !this.text && this.field === "think") {
      [this.text, this.reasoning] = [this.reasoning, ""];
      [this.opens, this.field] = [false, undefined];
    }
    const native = [...this.native.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([i, c]) => ({ ...c, id: c.id || `call_${i}` }));
    let calls = native.length ? native : this.written;
    let text = this.text;
    // A model that writes a call as a whole answer of JSON, without tags.
    if (!calls.length && this.names.size) {
      const whole = writtenCall(text, this.names);
      if (whole) [calls, text] = [[whole], ""];
    }
    return {
      text,
      reasoning: this.reasoning,
      calls: this.halted ? [] : calls,
      details: this.details,
      tokens: this.counted ? this.tokens : Math.ceil(this.chars / 4),
      input: this.input,
      window,
      ...(this.cached ? { cached: this.cached } : {}),
      ...(this.finish ? { finish: this.finish } : {}),
    };
  }

  private think(text: string, field: ReasoningField): void {
    if (!text) return;
    this.field ??= field;
    this.reasoning += text;
    this.chars += text.length;
    this.show({ kind: "reasoning", text });
  }

  private segments(segments: ReturnType<Tags["feed"]>): void {
    for (const s of segments) {
      if (s.kind === "reasoning") this.think(s.text, "think");
      else if (s.kind === "opened") {
        // What was given as the answer was reasoning: it is taken back from what was shown.
        if (this.text) this.show({ kind: "retracted", text: this.text });
        this.reasoning += this.text;
        this.text = "";
        this.opens = true;
        this.field ??= "think";
      } else if (s.kind === "text") this.said(this.stops.feed(s.text));
      else if (s.text) {
        // A call written as text: its arguments count as they come, as a native call's do.
        this.body += s.text;
        this.chars += s.text.length;
        this.tell({ kind: "arguments", name: "", text: s.text });
      } else if (this.halted) {
        // A call cut short (a limit, a stop) is neither run nor shown as words.
        this.body = "";
      } else {
        const call = writtenCall(this.body);
        if (call) this.written.push(call);
        else {
          // Not a call after all: the person sees what the model wrote.
          const text = `<tool_call>${this.body}</tool_call>`;
          this.text += text;
          this.show({ kind: "text", text });
        }
        this.body = "";
      }
    }
  }

  /** Gives answer text (what the stop sequences let through); a stop sequence ends the turn. */
  private said(text: string): void {
    if (text) {
      this.chars += text.length;
      this.text += text;
      this.show({ kind: "text", text });
    }
    if (this.stops.ended) this.halted = true;
  }

  private show(piece: Piece): void {
    if (this.halted) return;
    this.shown = true;
    this.tell(piece);
  }

  /** Gives `each` a piece; its false halts the turn. */
  private tell(piece: Piece): void {
    if (!this.halted && this.each(piece) === false) this.halted = true;
  }

  /** Provider reasoning details stream as parts of entries keyed by `index`: their strings join. */
  private detail(part: Detail): void {
    const index = typeof part.index === "number" ? part.index : undefined;
    const entry = index === undefined ? undefined : this.details.find((d) => d.index === index);
    if (!entry) {
      this.details.push({ ...part });
      return;
    }
    for (const [key, value] of Object.entries(part)) {
      const old = entry[key];
      entry[key] =
        typeof value === "string" && typeof old === "string" && JOINED.has(key) ? old + value : value;
    }
  }
}
