/**
 * The delegate tool of one panel answer: its subagents run on the answer's model or one of the
 * person's catalogue, their records are kept on the call's item, what they take joins the answer's
 * usage and the conversation's total, and their tokens count against the answer's token limit.
 */
import type { Agent, Model, Tool } from "../../agent/types";
import type { Store } from "../store";
import type { RunnerHost } from "./runner-host";
import type { Answer } from "./answer-items";
import type { Tally } from "./usage";
import { Delegates } from "./delegate";

/** What the delegate tool of one answer is made of. */
export interface AnswerParts {
  host: RunnerHost;
  store: Store;
  written: Answer;
  tally: Tally;
  /** The answer's own model (not counted: a subagent's turns are counted as its own). */
  model: Model;
  /** The answer's agent: its token limit counts the subagents' tokens. */
  agent: Agent;
  /** The run's tools as the rules offer them (the subagents get the reading ones). */
  tools: () => Tool[];
}

/** The delegate tool of one answer (see the file's comment). */
export function answerDelegates(parts: AnswerParts): Delegates {
  const { host, store, written, tally, agent: a } = parts;
  const startTokens = a.tokens;
  const limits = host.limits ?? {};
  const delegates: Delegates = new Delegates({
    model: (id) => (id ? host.model(id) : parts.model),
    ...(host.choices ? { catalogue: () => host.choices!() } : {}),
    tools: parts.tools,
    limits: { rounds: limits.rounds ?? 0, maxTokens: limits.maxTokens ?? 0, maxMs: limits.maxMs ?? 0 },
    tokensLeft: () => (a.maxTokens > 0 ? a.maxTokens - (a.tokens - startTokens) - delegates.spent : Infinity),
    progress: (call, subagents) => {
      const row = call ? written.callItem(call) : undefined;
      if (row && store.writable) store.put("items", { ...row, subagents });
    },
    spend: (usage) => tally.besides(usage),
  });
  a.spent = () => delegates.spent;
  return delegates;
}
