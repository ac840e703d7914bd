/**
 * The approval of a run's calls: each by the engine's rules or by the person (the answer's one
 * checkpoint is taken by the prepared run, see prepare.ts). A call that needs the person waits in `Waiting` until `decide` settles it: the editor's notification and the panel's
 * buttons both answer through it, and the first answer wins.
 */
import { reason } from "../../agent/perform";
import type { Call, Tool } from "../../agent/types";
import { type Decision, type Question, type Rules, approveWith, refusedNote } from "../approval";
import { decided } from "../make";
import type { Item } from "../row-schemas";
import type { Store } from "../store";
import type { Runs } from "./answer";
import type { RunnerHost } from "./runner-host";
import type { Answer } from "./answer-items";
import { t } from "../../protocol/l10n";

/** How the editor asks the person (a notification), dismissed when its `signal` aborts. */
type Asker = NonNullable<RunnerHost["approve"]>;

/**
 * The calls of a runner's runs that wait for the person, by the key of their call item. Each is
 * settled once, by the first answer: `decide` resolves the waiting call itself (no store write is
 * read back to learn it) and writes the decision on its row, once. Kept in memory only: after a
 * restart nothing waits (recover.ts marks such calls interrupted) and a decision changes nothing.
 */
export class Waiting {
  private readonly settles = new Map<string, (decision: Decision | undefined) => void>();

  constructor(private readonly store: Store) {}

  /**
   * Asks the person about the call item `key`: one write puts the question and what "Always allow"
   * offers on the row (state "approval"), the editor's `ask` is shown beside the panel, and the
   * first answer settles it. Resolves to that answer; undefined when `halt` aborts first (the run
   * stopped), the item is gone, or a question about it already waits. A notification that cannot
   * be shown is told to `problem` and leaves the panel to decide.
   */
  async ask(
    key: string,
    question: Question,
    ask: Asker,
    halt: AbortSignal,
    problem: (text: string) => void,
  ): Promise<Decision | undefined> {
    const row = this.store.get("items", key);
    if (row?.kind !== "call" || halt.aborted || this.settles.has(key)) return undefined;
    const asked = questioned(row, question);
    this.store.put("items", asked);
    const dismiss = new AbortController();
    const answer = new Promise<Decision | undefined>((resolve) => this.settles.set(key, resolve));
    const onHalt = (): void => this.unanswered(key);
    halt.addEventListener("abort", onHalt, { once: true });
    // An asker that throws at once is a question that could not be shown, as one that rejects.
    Promise.resolve()
      .then(() => ask(asked, dismiss.signal, question))
      .then(
        (decision) => this.decide(key, decision),
        (error: unknown) => problem(t("The approval question could not be shown: {0}", reason(error))),
      )
      .catch((error: unknown) => problem(t("A conversation could not be written: {0}", reason(error))));
    try {
      return await answer;
    } finally {
      halt.removeEventListener("abort", onHalt);
      // The question goes from the editor once it is answered, wherever that was.
      dismiss.abort();
    }
  }

  /**
   * The person's answer on the call `key`: the waiting call goes on with it and its row says it (one
   * write). False, with nothing written, when no call `key` waits: another answer came first, the
   * run stopped, or the window restarted since it was asked.
   */
  decide(key: string, decision: Decision): boolean {
    const settle = this.settles.get(key);
    if (!settle) return false;
    this.settles.delete(key);
    try {
      const row = this.store.get("items", key);
      if (row?.kind === "call") this.store.put("items", decided(row, decision !== false));
    } finally {
      settle(decision);
    }
    return true;
  }

  /** The call item `key` is gone (its conversation was deleted): its question goes unanswered. */
  gone(key: string): void {
    this.unanswered(key);
  }

  /** Ends the wait of the call `key` without an answer, writing nothing. */
  private unanswered(key: string): void {
    const settle = this.settles.get(key);
    this.settles.delete(key);
    settle?.(undefined);
  }
}

/** The call `c` asking the person `question`: its words, and the labels of "Always allow" and "Allow with Network" where offered. */
function questioned(c: Item, question: Question): Item {
  const { always: _before, network: _offered, ...call } = c;
  return {
    ...call,
    state: "approval",
    text: question.text,
    ...(question.always ? { always: question.always } : {}),
    ...(question.network ? { network: question.network } : {}),
  };
}

/**
 * How one answer decides its calls: false or the refusal the model reads, or true (the answer's
 * checkpoint is taken by the prepared run, see prepare.ts).
 */
export function approval(
  runs: Runs,
  written: Answer,
  all: Tool[],
  rules: Rules,
  halt: AbortSignal,
): (call: Call) => Promise<boolean | string> {
  return (call) => approveCall(runs, written, all, rules, call, halt);
}

/** The approval of one call: by the engine's rules, or by the person (the first answer wins). */
async function approveCall(
  runs: Runs,
  written: Answer,
  tools: Tool[],
  rules: Rules,
  call: Call,
  halt: AbortSignal,
): Promise<boolean | string> {
  const row = written.callItem(call);
  const tool = tools.find((t) => t.name === call.name);
  if (!row || !tool) return false;
  const asker: Asker = runs.host.approve?.bind(runs.host) ?? (() => new Promise<never>(() => undefined));
  const problem = runs.host.problem?.bind(runs.host) ?? ((text: string) => console.error(`Tandem: ${text}`));
  // "Always" grants what the engine offered for this call (nothing for a protected path), in its conversation.
  const { judged, yes } = await approveWith(tool, call.arguments, rules, runs.allowed(row.chat), (question) =>
    runs.waiting.ask(row.id, question, asker, halt, problem),
  );
  if (judged.verdict === "refused") {
    const why = judged.reasons.join(" ") || t("The tool {0} may not run here.", call.name);
    runs.store.put("items", { ...row, state: "declined", text: why });
    return refusedNote(why);
  }
  return yes === true;
}
