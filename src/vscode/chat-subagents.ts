/**
 * `@tandem`'s read-only subagents (src/chat/runner/delegate.ts): the same tool as the panel's, on the
 * request's model or one of the person's catalogue; the Chat view shows a progress line as each
 * starts, calls a tool and ends (with its rounds, tokens and cost), then each report, as text.
 */
import vscode = require("vscode");
import type { Agent, Model, Tool } from "../agent/types";
import type { Subagent, Usage } from "../chat/row-schemas";
import { core } from "./core";
import type { Models } from "./models";

/** What `@tandem`'s delegate tool is made of. */
export interface ChatSubagentParts {
  models: Models;
  /** The request's model, a subagent's when it names none. */
  model: Model;
  /** The run's tools as the rules offer them (the subagents get the reading ones). */
  tools: () => Tool[];
  limits: { rounds: number; maxTokens: number; maxMs: number };
  /** The answer's agent: its token limit counts the subagents' tokens. */
  agent: Agent;
  stream: vscode.ChatResponseStream;
}

/** A cost in US dollars with the digits a small amount needs, as the panel writes it: $0.00016, $0.12. */
function dollars(cost: number): string {
  if (cost === 0) return "$0";
  return cost < 0.01 ? `$${cost.toPrecision(2)}` : `$${cost.toFixed(2)}`;
}

/** A subagent's rounds, tokens and cost, in one line. */
function usageWords(subagent: Subagent): string {
  const u: Usage = subagent.usage;
  const words = vscode.l10n.t("{0} rounds, {1} tokens in, {2} out", subagent.rounds, u.input, u.output);
  return u.cost !== undefined ? `${words}, ${dollars(u.cost)}` : words;
}

/** The delegate tool of one `@tandem` answer (made by the prepared run when it has tools to read with). */
export function chatDelegate(parts: ChatSubagentParts): Tool {
  const { Delegates } = core();
  const { agent: a, stream } = parts;
  const startTokens = a.tokens;
  // What was said of each subagent of each call: its steps shown, and whether its end was.
  const said = new Map<string, { steps: number; ended: boolean }[]>();
  const delegates: InstanceType<typeof Delegates> = new Delegates({
    model: (id) => (id ? parts.models.resolve(id) : parts.model),
    catalogue: async () => (await parts.models.choices()).map((c) => c.id),
    tools: parts.tools,
    limits: parts.limits,
    tokensLeft: () => (a.maxTokens > 0 ? a.maxTokens - (a.tokens - startTokens) - delegates.spent : Infinity),
    progress: (call, subagents) => {
      const key = call?.id ?? "";
      const seen = said.get(key) ?? [];
      said.set(key, seen);
      subagents.forEach((s, i) => {
        const was = (seen[i] ??= { steps: -1, ended: false });
        if (was.steps < 0) stream.progress(vscode.l10n.t("Subagent {0} started: {1}", i + 1, s.task));
        for (const step of s.steps.slice(Math.max(0, was.steps)))
          if (step.kind === "call") stream.progress(vscode.l10n.t("Subagent {0}: {1}…", i + 1, step.name));
        was.steps = s.steps.length;
        if (s.state !== "running" && !was.ended) {
          was.ended = true;
          stream.progress(vscode.l10n.t("Subagent {0} ended ({1})", i + 1, usageWords(s)));
        }
      });
      if (subagents.length && subagents.every((s) => s.state !== "running") && !said.has(`${key}:shown`)) {
        said.set(`${key}:shown`, []);
        // The reports came from files the subagents read: shown as text, never as Markdown or HTML.
        for (const [i, s] of subagents.entries()) {
          const head = vscode.l10n.t("Subagent {0}: {1} ({2})", i + 1, s.task, usageWords(s));
          stream.markdown(
            new vscode.MarkdownString("\n\n")
              .appendText(head)
              .appendMarkdown("\n\n")
              .appendText(s.report || vscode.l10n.t("(no report)"))
              .appendMarkdown("\n\n"),
          );
        }
      }
    },
  });
  a.spent = () => delegates.spent;
  return delegates.tool;
}
