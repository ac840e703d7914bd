/**
 * Check Endpoint's window: what the model list says, what the server really serves (served.ts),
 * and a cut an earlier run saw (cut.ts), each with the fix for that server.
 */
import { fixFor, roomFor } from "./cut";
import type { Learned } from "./facts";
import type { Finding } from "./probe-report";
import type { Served, ServerKind } from "./served";
import { t } from "../protocol/l10n";

/** The names people know the servers by. */
export const SERVER_NAMES: Record<ServerKind, string> = {
  ollama: "Ollama",
  llamacpp: "llama.cpp",
  lmstudio: "LM Studio",
  vllm: "vLLM",
};

/** The window finding: `tokens` to fit requests to, the model's trained maximum and the server's kind when known. */
export type WindowFinding = Finding & {
  tokens: number;
  trained?: number;
  kind?: ServerKind;
  served?: boolean;
};

/** The window finding from the model list's window `listed` and what the server said it serves. */
export function windowFinding(listed: number, server: Served | undefined): WindowFinding {
  const n = (value: number): string => value.toLocaleString("en-US");
  if (server?.sure && server.tokens) {
    const name = SERVER_NAMES[server.kind];
    const said = t("{0} tokens, as {1} serves the model ({2}).", n(server.tokens), name, server.where);
    const trained = server.trained || listed;
    const note =
      trained > server.tokens
        ? `${said} ${t("The model was trained for {0}: longer prompts are refused or cut.", n(trained))} ${fixFor(server.kind, roomFor({ held: server.tokens, trained }))}`
        : said;
    return {
      ok: true,
      note,
      tokens: server.tokens,
      trained: trained || undefined,
      kind: server.kind,
      served: true,
    };
  }
  if (server?.kind === "ollama" && server.tokens) {
    const note = `${t(
      "{0} tokens assumed: Ollama serves the model with its default context (it is not loaded now, and its Modelfile sets no num_ctx), and cuts longer prompts without a word.",
      n(server.tokens),
    )} ${fixFor("ollama", roomFor({ held: server.tokens, trained: server.trained }))}`;
    return { ok: true, note, tokens: server.tokens, trained: server.trained || undefined, kind: "ollama" };
  }
  if (listed) {
    const note = t("{0} tokens, as the model list says.", n(listed));
    return { ok: true, note, tokens: listed, kind: server?.kind };
  }
  return {
    ok: false,
    note: t(
      "The model list does not give the context window: Tandem cannot tell when a conversation is full.",
    ),
    tokens: 0,
    kind: server?.kind,
  };
}

/** The finding of a cut an earlier run saw (`known.held`), or undefined when none was seen. */
export function cutFinding(
  known: Learned | undefined,
  window: WindowFinding,
): (Finding & { held: number }) | undefined {
  const held = known?.held;
  if (!held) return undefined;
  // The server now serves more than it held then: the fix was applied, the cut is forgotten at the next run.
  if (window.served && window.tokens > held) return undefined;
  const note = `${t(
    "The server cut a prompt to {0} tokens without a word in an earlier run: Tandem fits every request to {0} tokens.",
    held.toLocaleString("en-US"),
  )} ${fixFor(window.kind, roomFor({ held, trained: window.trained }))}`;
  return { ok: false, note, held };
}
