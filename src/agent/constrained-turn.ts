/**
 * One constrained turn at an endpoint: the JSON streams in, its answer is shown as it comes, and
 * at the end the whole is read back as the answer or the call it is.
 */
import { APIError } from "openai";
import { AnswerStream } from "./constrained-stream";
import { malformedMessage, readConstrained } from "./constrained";
import { fits } from "./constrained-check";
import { writtenCall } from "./textcalls";
import type { FunctionTool, Piece, Turn } from "./types";

/** The pieces of one constrained turn: what `each` is given, and the turn read back at its end. */
export class Held {
  private readonly answer = new AnswerStream();
  /** The endpoint answered in plain text: it ignored `response_format`. */
  ignored = false;

  constructor(private readonly each: (piece: Piece) => boolean | void) {}

  /** The `each` the turn's pieces go through: text is JSON, shown as the answer it holds. */
  readonly pass = (piece: Piece): boolean | void => {
    if (piece.kind !== "text") return this.each(piece);
    const text = this.answer.feed(piece.text);
    return text ? this.each({ kind: "text", text }) : undefined;
  };

  /**
   * `turn` (its text the whole JSON) as the answer or call it holds. A turn cut short keeps the
   * answer shown so far; JSON that is neither an answer nor a call of `names` throws why.
   */
  read(turn: Turn, names: Set<string>, cut: boolean): Turn {
    const raw = turn.text;
    const reading = readConstrained(raw, names);
    if (reading.kind === "answer") {
      const rest = reading.text.slice(this.answer.text.length);
      if (rest && !cut) this.each({ kind: "text", text: rest });
      return { ...turn, text: reading.text, calls: [] };
    }
    if (reading.kind === "call") return { ...turn, text: "", calls: cut ? [] : [reading.call] };
    if (reading.kind === "unformatted") {
      // Plain text: the endpoint did not hold the output to the schema. What it wrote is shown,
      // read as a text call where it is one, and the endpoint is not asked for the format again.
      this.ignored = true;
      if (cut) return { ...turn, calls: [] };
      // Calls in <tool_call> tags were taken out of the text as it came; a whole answer of one is read here.
      const whole = turn.calls.length ? undefined : writtenCall(raw, names);
      const calls = whole ? [whole] : turn.calls;
      if (!whole && raw) this.each({ kind: "text", text: raw });
      return { ...turn, text: whole ? "" : raw, calls };
    }
    if (cut || this.answer.state === "answer" || this.answer.state === "ended")
      return { ...turn, text: this.answer.text, calls: [] };
    throw new Error(malformedMessage(reading.why, raw));
  }
}

/** Whether `error` is an endpoint's refusal of `response_format` (it takes no JSON Schema). */
export function refusesFormat(error: unknown): boolean {
  if (!(error instanceof APIError) || (error.status !== 400 && error.status !== 422)) return false;
  return /response_format|json_schema|json schema|structured output/i.test(error.message);
}

/** Whether some native call of `turn` does not fit its tool (an unknown name, arguments off its schema). */
export function failing(turn: Turn, tools: FunctionTool[]): boolean {
  return turn.calls.some((call) => !fits(call, tools));
}
