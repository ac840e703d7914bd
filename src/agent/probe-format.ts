/**
 * The probe's JSON Schema check: one short answer asked with `response_format` holding it to the
 * schema Tandem sends a model without native calls ("an answer, or the tool echo"), the prompt
 * saying nothing of JSON, so only an endpoint that honours the format answers in it.
 */
import { APIError } from "openai";
import { constrainedSchema, readConstrained, responseFormat } from "./constrained";
import { conforms } from "./constrained-check";
import { reason } from "./perform";
import { clip, type Report } from "./probe-report";
import { failed, type Session } from "./probe-stream";
import { streamed } from "./probe-stream";
import { ECHO } from "./probe-tools";
import type { Request } from "./types";
import { t } from "../protocol/l10n";

/** Asks for a one-word answer held to the schema; records whether it came in it. Returns a reason to stop. */
export async function format(session: Session, report: Report): Promise<string | undefined> {
  const request: Request = {
    instructions: "You are being tested. Say hello in one word.",
    messages: [{ role: "user", text: "Say hello." }],
    tools: [],
    answer: false,
    parameters: { maxTokens: 256 },
  };
  let text: string;
  try {
    const seen = await streamed(session, request, false, responseFormat([ECHO]));
    text = seen.turn.text;
  } catch (error) {
    const failure = failed(error, session);
    if (failure.fatal) {
      report.format = { ok: undefined, note: failure.note };
      return failure.note;
    }
    const status = error instanceof APIError ? error.status : undefined;
    report.format =
      status !== undefined && status >= 400 && status < 500 && status !== 408 && status !== 429
        ? { ok: false, note: t("It refuses response_format with a JSON Schema ({0}).", reason(error)) }
        : { ok: undefined, note: failure.note };
    return undefined;
  }
  const reading = readConstrained(text, new Set([ECHO.function.name]));
  let value: unknown;
  try {
    value = JSON.parse(text.trim());
  } catch {
    value = undefined;
  }
  if (reading.kind === "unformatted") {
    report.format = {
      ok: false,
      note: t('It ignores response_format: it answered in plain text ("{0}").', clip(text.trim())),
    };
  } else if (reading.kind === "malformed" || !conforms(constrainedSchema([ECHO]), value)) {
    report.format = {
      ok: false,
      note: t('Its answer is JSON but not of the schema it was given ("{0}").', clip(text.trim())),
    };
  } else {
    report.format = {
      ok: true,
      note: t(
        "It holds its answer to a JSON Schema in response_format ({0}): Tandem holds tool calls to their schemas.",
        clip(text.trim()),
      ),
    };
  }
  return undefined;
}
