/**
 * A conversation's items as the model's history: each message with its latest answer (a retry's,
 * when it has one), the answer's reasoning, text, tool calls and their results in order, so a
 * follow-up turn sees exactly what was said and done before.
 */
import { DECLINED, type Call, type Message } from "../../agent/types";
import type { Item } from "../row-schemas";
import { refusedNote } from "../approval";
import { CUT_SHORT, parentOf } from "./answer-items";

/** A message of the person with its answers: its own first, then one for each retry of it. */
export interface Exchange {
  user: Item;
  answers: Item[][];
}

/** The text a user message with attachments adds, its pictures, and the documents given in part. */
export interface Given {
  text: string;
  images: string[];
}

/** The exchanges of a conversation's `items` (in key order). */
export function exchanges(items: readonly Item[]): Exchange[] {
  const out: Exchange[] = [];
  const groups = new Map<string, Item[]>();
  let last: Item[] | undefined;
  for (const i of items) {
    if (i.kind === "user") {
      last = [];
      out.push({ user: i, answers: [last] });
      groups.set(i.id, last);
    } else if (i.kind === "retry") {
      const target = out[out.length - 1];
      if (!target) continue;
      last = [];
      target.answers.push(last);
      groups.set(i.id, last);
    } else if (i.kind !== "stop") {
      const group = groups.get(parentOf(i.id)) ?? last;
      group?.push(i);
    }
  }
  return out;
}

/** True when an answer has something the model wrote or did. */
function spoken(answer: Item[]): boolean {
  return answer.some((i) => i.kind === "text" || i.kind === "reasoning" || i.kind === "call");
}

/** The answer the model reads for an exchange: its latest one that says anything. */
export function latest(exchange: Exchange): Item[] {
  return exchange.answers.findLast(spoken) ?? [];
}

/** The id a call item goes by in the history (letters, digits and "_", as every provider takes). */
export function callId(call: Item): string {
  return `call_${call.id.replace(/[^0-9A-Za-z]/g, "")}`;
}

/** What a call item gave the model: its output, why it failed, or that it did not run. */
export function resultOf(call: Item): string {
  switch (call.state) {
    case "done":
      return call.output;
    case "declined":
      // A call the rules refused keeps why on its item; one the person declined has no text.
      return call.text ? refusedNote(call.text) : DECLINED;
    case "failed":
      return call.text || CUT_SHORT;
    default:
      return call.text || CUT_SHORT;
  }
}

/** The messages of one answer: assistant turns (reasoning, text, calls) each followed by the calls' results. */
export function messagesOf(answer: readonly Item[]): Message[] {
  const out: Message[] = [];
  let text = "";
  let reasoning = "";
  let calls: Item[] = [];
  const flush = (): void => {
    if (!text && !reasoning && !calls.length) return;
    const made: Call[] = calls.map((c) => ({ id: callId(c), name: c.name, arguments: c.input || "{}" }));
    out.push({
      role: "assistant",
      text,
      ...(reasoning ? { reasoning } : {}),
      ...(made.length ? { calls: made } : {}),
    });
    for (const c of calls) out.push({ role: "tool", call: callId(c), name: c.name, text: resultOf(c) });
    text = "";
    reasoning = "";
    calls = [];
  };
  for (const i of answer) {
    if (i.kind === "call") {
      calls.push(i);
    } else if (i.kind === "text" || i.kind === "reasoning") {
      // Words after calls begin the next turn.
      if (calls.length) flush();
      if (i.kind === "text") text += i.text;
      else reasoning += i.text;
    }
  }
  flush();
  return out;
}

/**
 * The history before the message `user`: every earlier exchange as its message (with what its
 * files add, from `given`) and its latest answer.
 */
export async function historyBefore(
  items: readonly Item[],
  user: Item,
  given: (user: Item) => Promise<Given>,
): Promise<Message[]> {
  const out: Message[] = [];
  for (const exchange of exchanges(items)) {
    if (exchange.user.id >= user.id) break;
    const files = exchange.user.files.length ? await given(exchange.user) : { text: "", images: [] };
    out.push({
      role: "user",
      text: exchange.user.text + files.text,
      ...(files.images.length ? { images: files.images } : {}),
    });
    out.push(...messagesOf(latest(exchange)));
  }
  return out;
}

/** The piece of work the next item of a conversation asks: a message to answer, or a retry of one. */
export interface Work {
  /** The item answered: the user item, or the retry item. */
  item: Item;
  /** The person's message the answer is to. */
  user: Item;
}

/** The first thing `items` ask that is not answered yet, or undefined; `skip` holds items not to take again. */
export function nextWork(items: readonly Item[], skip: ReadonlySet<string> = new Set()): Work | undefined {
  let user: Item | undefined;
  for (const i of items) {
    if (i.kind === "user") user = i;
    if (i.done || skip.has(i.id)) continue;
    if (i.kind === "user") return { item: i, user: i };
    if (i.kind === "retry") return { item: i, user: user ?? i };
  }
  return undefined;
}
