/** The probe's first answer: a short streamed reply, for streaming, its timing, and usage. */
import { APIError } from "openai";
import { clip, type Report } from "./probe-report";
import { ms, stop, streamed, type Session, type Streamed } from "./probe-stream";
import type { Request } from "./types";
import { t } from "../protocol/l10n";

/** A short streamed answer: streaming, its timing, and usage. Returns a reason to stop. */
export async function answer(session: Session, report: Report): Promise<string | undefined> {
  const request: Request = {
    instructions: "",
    messages: [{ role: "user", text: "Reply with the single word: ready" }],
    tools: [],
    answer: false,
    parameters: { maxTokens: 64 },
  };
  let seen: Streamed;
  try {
    seen = await streamed(session, request);
  } catch (error) {
    // OpenAI's reasoning models take max_completion_tokens only.
    if (!(error instanceof APIError && error.status === 400 && /max_tokens/.test(error.message)))
      return stop(error, session, report, "streaming");
    session.limit = "max_completion_tokens";
    try {
      seen = await streamed(session, request);
    } catch (again) {
      return stop(again, session, report, "streaming");
    }
  }
  const timing = seen.firstMs === undefined ? "" : t("First chunk after {0}", ms(seen.firstMs));
  if (seen.late) {
    report.streaming = seen.chunks
      ? {
          ok: true,
          note: t("{0}, but the answer had not ended after {1}.", timing, ms(session.timeoutMs)),
          firstMs: seen.firstMs,
          pieces: seen.pieces,
        }
      : { ok: false, note: t("No answer within {0}.", ms(session.timeoutMs)), pieces: 0 };
    report.usage = { ok: undefined, note: t("Not known: the answer did not end in time.") };
    return undefined;
  }
  const parts = seen.pieces
    ? seen.pieces === 1
      ? t("one piece")
      : t("{0} pieces", seen.pieces)
    : t("no text");
  const said = seen.turn.text.trim();
  const whole = seen.pieces === 1 ? t(" It sent the answer whole, so it may not really stream.") : "";
  report.streaming = {
    ok: seen.chunks > 0,
    note: seen.chunks
      ? said
        ? t(
            '{0}, the whole answer in {1} ({2}: "{3}").{4}',
            timing,
            ms(seen.totalMs),
            parts,
            clip(said),
            whole,
          )
        : t("{0}, the whole answer in {1} ({2}).{3}", timing, ms(seen.totalMs), parts, whole)
      : t("The stream ended without a chunk."),
    firstMs: seen.firstMs,
    totalMs: seen.totalMs,
    pieces: seen.pieces,
  };
  report.usage = seen.usage
    ? {
        ok: true,
        note: t(
          "A usage chunk came at the end ({0} tokens read, {1} written).",
          seen.usage.prompt,
          seen.usage.completion,
        ),
      }
    : {
        ok: false,
        note: t(
          "No usage chunk came: Tandem cannot count this model's tokens or show how full the context is.",
        ),
      };
  return undefined;
}
