/**
 * Restart recovery: what a crash (or a closing editor) left half done is closed and marked, so
 * every conversation goes on and nothing is answered twice by itself. A message whose answer had
 * started gets an "interrupted — retry" error item and is answered again only when the person
 * asks; a message whose answer had not started is left for the runner to answer.
 */
import type { Item } from "../row-schemas";
import type { Store } from "../store";
import { CALL_INTERRUPTED, FINAL, INTERRUPTED, answerKey, nextIndex, parentOf } from "./answer-items";
import { item } from "../make";

/** What recovery found and marked. */
export interface Recovered {
  /** The messages (user or retry items) whose answer was cut short. */
  interrupted: string[];
  /** Growing items closed and calls marked interrupted. */
  closed: number;
}

/** The interrupted-answer item of the message `parent` in `items`: an error the person can retry from. */
export function interruptedItem(items: readonly Item[], parent: Item): Item {
  const row = item("error", INTERRUPTED, parent.chat);
  return { ...row, id: answerKey(parent.id, nextIndex(items, parent.id)), state: "interrupted", done: true };
}

/** Closes and marks what the last run of each conversation in `store` left half done. */
export function recover(store: Store): Recovered {
  const found: Recovered = { interrupted: [], closed: 0 };
  const started = new Set<string>();
  const open: Item[] = [];
  // Only the conversations the list says have an item not done are opened.
  for (const i of store.unfinished().flatMap((chat) => store.items(chat))) {
    const parent = parentOf(i.id);
    if (parent) started.add(parent);
    if (i.kind === "user" || i.kind === "retry" || i.kind === "stop") {
      if (!i.done) open.push(i);
    } else if (i.kind === "call" && !FINAL.has(i.state)) {
      store.put("items", { ...i, state: "interrupted", text: i.text || CALL_INTERRUPTED, done: true });
      found.closed++;
    } else if (!i.done && (i.kind === "text" || i.kind === "reasoning")) {
      store.put("items", { ...i, done: true });
      found.closed++;
    }
  }
  for (const i of open) {
    if (i.kind === "stop") {
      store.put("items", { ...i, done: true });
    } else if (started.has(i.id)) {
      store.put("items", interruptedItem(store.items(i.chat), i));
      store.put("items", { ...i, done: true });
      found.interrupted.push(i.id);
    }
  }
  return found;
}
