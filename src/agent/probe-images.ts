/** The probe's image check: one 1×1 PNG sent with a question, accepted or refused. */
import { APIError } from "openai";
import { clip, type Report } from "./probe-report";
import { failed, ms, refusal, stop, streamed, type Session } from "./probe-stream";
import type { Request } from "./types";
import { t } from "../protocol/l10n";
import { reason } from "../protocol/reason";

/** A 1×1 red PNG. */
const PIXEL =
  "data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAIAAACQd1PeAAAADElEQVR4nGP4z8AAAAMBAQDJ/pLvAAAAAElFTkSuQmCC";

const IMAGE_WORDS = /image|vision|multi-?modal|mmproj|image_url/i;

/** A 1×1 PNG data URL: accepted, or refused with a 4xx that names images (or only on this request). */
export async function images(session: Session, report: Report): Promise<void> {
  const request: Request = {
    instructions: "",
    messages: [{ role: "user", text: "What colour is this image? Answer with one word.", images: [PIXEL] }],
    tools: [],
    answer: false,
    parameters: { maxTokens: 16 },
  };
  try {
    const seen = await streamed(session, request);
    const said = seen.turn.text.trim();
    report.images =
      seen.late && !seen.chunks
        ? { ok: undefined, note: t("No answer within {0}.", ms(session.timeoutMs)) }
        : {
            ok: true,
            note: said
              ? t('It accepts an image (asked the colour of a red pixel, it said "{0}").', clip(said))
              : t("It accepts an image (asked the colour of a red pixel)."),
          };
  } catch (error) {
    const message = reason(error);
    // A server without image support may say so with a 5xx (llama.cpp without its projector) or mid-stream.
    const named = error instanceof APIError && error.status !== 429 && IMAGE_WORDS.test(message);
    if (!session.signal?.aborted && (named || refusal(error, report))) {
      report.images = { ok: false, note: t("It refuses images ({0}).", message) };
      return;
    }
    const failure = failed(error, session);
    if (failure.fatal) stop(error, session, report, "images");
    else report.images = { ok: undefined, note: failure.note };
  }
}
