/**
 * The notice in a conversation when the model server cut a prompt without a word: what was sent,
 * what the model read, that Tandem fits the next requests to it, and how to serve more on that
 * server. An error item named "window": the panel shows it as a warning with Retry, since the answer
 * above it was written from a cut prompt.
 */
import { sayCuts } from "../../agent/cut";
import type { Agent } from "../../agent/types";
import type { Answer } from "./answer-items";
import { CUT_NOTICE } from "../../protocol/rows";

/** Writes a notice into the answer `written` the first time the server cuts one of `a`'s prompts. */
export function noticing(a: Agent, written: Answer): void {
  sayCuts(a, (notice) => written.note("error", notice, { name: CUT_NOTICE }));
}
