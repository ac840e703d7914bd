/**
 * The probe's tool check: one trivial tool offered natively, and, if the endpoint refuses the tools
 * field or the model ignores it, the same tool described in the instructions.
 */
import { refusesTools } from "./failure";
import { reason } from "./perform";
import { clip, type Report } from "./probe-report";
import { failed, ms, refusal, stop, streamed, type Session, type Streamed } from "./probe-stream";
import type { FunctionTool, Request } from "./types";
import { t } from "../protocol/l10n";

/** The trivial tool the model is asked to call. */
export const ECHO: FunctionTool = {
  type: "function",
  function: {
    name: "echo",
    description: "Repeats a word back.",
    parameters: {
      type: "object",
      properties: { word: { type: "string", description: "The word to repeat." } },
      required: ["word"],
    },
  },
};

/** One trivial tool and an instruction to call it; if refused or ignored, the tool described in the instructions. */
export async function tools(session: Session, report: Report): Promise<string | undefined> {
  const request: Request = {
    instructions: 'You are being tested. Call the tool echo with the word "ping". Write nothing else.',
    messages: [{ role: "user", text: "Call echo with the word ping." }],
    tools: [ECHO],
    answer: false,
    // Room for a reasoning model to think before it calls.
    parameters: { maxTokens: 512 },
  };
  let seen: Streamed;
  try {
    seen = await streamed(session, request);
  } catch (error) {
    if (!session.signal?.aborted && (refusesTools(error) || refusal(error, report))) {
      const refused = t("It refuses the tools field ({0})", reason(error));
      return described(session, request, report, "refused", refused);
    }
    const failure = failed(error, session);
    if (failure.fatal) return stop(error, session, report, "tools");
    report.tools = { ok: undefined, note: failure.note };
    return undefined;
  }
  const call = seen.turn.calls[0];
  if (call) {
    const written = `${call.name}(${call.arguments || "{}"})`;
    report.tools = seen.native
      ? { ok: true, mode: "native", note: t("It calls tools natively: {0}.", written) }
      : {
          ok: true,
          mode: "text",
          note: t(
            "It writes the call as text instead of a native call ({0}): Tandem will describe tools in its instructions and read calls from the text.",
            written,
          ),
        };
    return undefined;
  }
  if (seen.late) {
    report.tools = { ok: undefined, note: t("No call within {0}.", ms(session.timeoutMs)) };
    return undefined;
  }
  const text = seen.turn.text.trim();
  const cut = seen.finish === "length" ? t(" before its tokens ran out") : "";
  const ignored = text
    ? t('It was offered the tool but did not call it{0} (it wrote "{1}")', cut, clip(text))
    : t("It was offered the tool but did not call it{0}", cut);
  return described(session, request, report, "ignored", ignored);
}

/** The tool described in the instructions, after it was refused or ignored natively. */
async function described(
  session: Session,
  request: Request,
  report: Report,
  mode: "refused" | "ignored",
  before: string,
): Promise<string | undefined> {
  try {
    const seen = await streamed(session, request, true);
    const call = seen.turn.calls[0];
    report.tools = call
      ? {
          ok: true,
          mode,
          described: true,
          note: t(
            "{0}; described in the instructions, it calls by writing {1}: Tandem will call tools that way.",
            before,
            `${call.name}(${call.arguments || "{}"})`,
          ),
        }
      : {
          ok: false,
          mode,
          described: false,
          note: t(
            "{0}, and did not call the tool when it was described in the instructions either: tools will not work with this model.",
            before,
          ),
        };
    return undefined;
  } catch (error) {
    const failure = failed(error, session);
    report.tools = { ok: mode === "refused" ? false : undefined, mode, note: `${before}. ${failure.note}` };
    return failure.fatal ? failure.note : undefined;
  }
}
