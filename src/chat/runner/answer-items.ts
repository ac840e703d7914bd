/**
 * Writing one answer as items: text and reasoning that grow, call items with their state, and
 * error items. An answer's items are keyed after the item they answer (its key, a dot, a count),
 * so each answer reads right under its message even when later messages wait in the queue.
 */
import { limitNote, type Limits } from "../../agent/limit-note";
import type { Call, Limit, LimitCall, Piece } from "../../agent/types";
import { argText, isRecord } from "../../protocol/args";
import { RUN_NOTE } from "../../protocol/rows";
import { item } from "../make";
import type { Item, Kind, State, Usage } from "../row-schemas";
import type { Store } from "../store";

/** What a call that a stop or a crash cut short gives the model as its result. */
export const CUT_SHORT = "The run was stopped before this call finished.";
/** What a call a crash or a closing editor cut short says. */
export const CALL_INTERRUPTED = "Interrupted before it finished.";
/** What an answer a crash or a closing editor cut short says. */
export const INTERRUPTED = "Interrupted — retry to answer again.";

const WIDTH = 4;

/** The key of the `n`th item of the answer to `parent`. */
export function answerKey(parent: string, n: number): string {
  return `${parent}.${n.toString(36).padStart(WIDTH, "0")}`;
}

// One rule for both sides: the panel groups an answer's items by it too.
export { parentOf } from "../../protocol/keys";

/** The count the next item of the answer to `parent` takes, after those already in `items`. */
export function nextIndex(items: readonly Item[], parent: string): number {
  let next = 0;
  const prefix = `${parent}.`;
  for (const i of items) {
    if (!i.id.startsWith(prefix)) continue;
    const n = parseInt(i.id.slice(prefix.length), 36);
    if (Number.isFinite(n) && n >= next) next = n + 1;
  }
  return next;
}

/** A call's final states: it will not change again. */
export const FINAL: ReadonlySet<State> = new Set<State>(["done", "failed", "declined", "interrupted"]);

/** The file a tool's output says it made, by convention a JSON object's `file` ("" none). */
function fileNamed(output: string): string {
  const text = output.trim();
  if (!text.startsWith("{")) return "";
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) && typeof value.file === "string" ? value.file : "";
  } catch {
    return "";
  }
}

/** The tools that write the file their input's `path` names (relative to the workspace root). */
const FILE_TOOLS: ReadonlySet<string> = new Set(["create_file", "propose_edit"]);

/**
 * The file a finished call made or edited, for "go to file": the one its output names, else the
 * `path` a file tool was given ("" none). The host opens it only inside the workspace folders.
 */
export function fileOf(name: string, input: string, output: string): string {
  const named = fileNamed(output);
  if (named || !FILE_TOOLS.has(name)) return named;
  return argText(input, "path");
}

/** The items of one answer, written as its pieces come. */
export class Answer {
  private next: number;
  private open: string | null = null;
  private readonly calls = new Map<Call, string>();

  /** The answer to the item `parent` (a user or retry item) of `chat`, written by `model`. */
  constructor(
    private readonly store: Store,
    readonly chat: string,
    private parent: string,
    readonly model: string,
  ) {
    this.next = nextIndex(store.items(chat), parent);
  }

  /** From now on the answer goes on under the message `parent` (one that joined the run). */
  follow(parent: string): void {
    this.closeOpen();
    this.parent = parent;
    this.next = nextIndex(this.store.items(this.chat), parent);
  }

  /** A new item of this answer, not yet put. */
  make(kind: Kind, text: string): Item {
    return { ...item(kind, text, this.chat), id: answerKey(this.parent, this.next++), model: this.model };
  }

  /** Writes a piece of the run; `limits` are the run's, named by the note of a limit that ended it. */
  piece(piece: Piece, limits?: Limits): void {
    switch (piece.kind) {
      case "text":
      case "reasoning":
        return this.grow(piece.kind, piece.text);
      case "retracted":
        return this.retract(piece.text);
      case "note":
        this.note("error", piece.text, { name: RUN_NOTE });
        return;
      case "call":
        return this.call(piece.call);
      case "result":
        return this.result(piece.call, piece.text);
      case "failed":
        return this.settle(piece.call, { state: "failed", text: piece.text });
      case "error":
        this.closeOpen();
        this.error(piece.text);
        return;
      case "done":
      case "stopped":
        this.closeOpen();
        if (piece.limit && limits)
          this.limited(piece.limit, limits, piece.kind === "stopped" ? piece.call : undefined);
        return;
    }
  }

  /**
   * Writes the note of a limit that ended the run: an error item named after the limit ("rounds",
   * "tokens" or "time"), which the panel shows with Continue.
   */
  limited(limit: Limit, limits: Limits, call?: LimitCall): Item {
    const row = { ...this.make("error", limitNote(limit, limits, call)), name: limit, done: true };
    this.store.put("items", row);
    return row;
  }

  /** The call item of `call`, if it was written. */
  callItem(call: Call): Item | undefined {
    const key = this.calls.get(call);
    return key ? this.store.get("items", key) : undefined;
  }

  /** Writes a finished item of `kind` (a summary, a usage line) in its place in the answer. */
  note(kind: Kind, text: string, change: Partial<Item> = {}): Item {
    this.closeOpen();
    const row = { ...this.make(kind, text), ...change, done: true };
    this.store.put("items", row);
    return row;
  }

  /** Puts what the answer took on its last text item (an answer without words keeps it only in the conversation's total). */
  usage(usage: Usage): void {
    const last = this.store
      .items(this.chat)
      .findLast((i) => i.kind === "text" && i.id.startsWith(`${this.parent}.`) && i.model === this.model);
    if (last) this.store.put("items", { ...last, usage });
  }

  /** Writes an error item that says why. */
  error(text: string, state: State = ""): Item {
    const row = { ...this.make("error", text), state, done: true };
    this.store.put("items", row);
    return row;
  }

  /** Closes what is still open: growing text is done, a call not finished failed with `why`. */
  close(why = CUT_SHORT, state: State = "failed"): void {
    this.closeOpen();
    for (const key of this.calls.values()) {
      const row = this.store.get("items", key);
      if (row && !FINAL.has(row.state))
        this.store.put("items", { ...row, state, text: row.text || why, done: true });
    }
  }

  private grow(kind: "text" | "reasoning", text: string): void {
    const open = this.open ? this.store.get("items", this.open) : undefined;
    if (open && open.kind === kind && !open.done) {
      // Only the delta travels: the panel's stream appends it without finding it in the whole text.
      this.store.append(open.id, text);
      return;
    }
    this.closeOpen();
    const row = this.make(kind, text);
    this.store.put("items", row);
    this.open = row.id;
  }

  /** Takes `text` back from the growing answer (it was reasoning): it goes on as reasoning. */
  private retract(text: string): void {
    const open = this.open ? this.store.get("items", this.open) : undefined;
    if (open?.kind === "text" && !open.done && open.text.endsWith(text)) {
      const kept = open.text.slice(0, open.text.length - text.length);
      if (kept) this.store.put("items", { ...open, text: kept });
      else {
        this.store.delete("items", open.id);
        this.open = null;
      }
    }
    this.grow("reasoning", text);
  }

  private closeOpen(): void {
    const open = this.open ? this.store.get("items", this.open) : undefined;
    this.open = null;
    if (open && !open.done) this.store.put("items", { ...open, done: true });
  }

  private call(call: Call): void {
    this.closeOpen();
    const row = {
      ...this.make("call", ""),
      name: call.name,
      input: call.arguments,
      state: "running" as const,
    };
    this.store.put("items", row);
    this.calls.set(call, row.id);
  }

  private result(call: Call, text: string): void {
    const row = this.callItem(call);
    // A declined call's result is the core's note to the model; the item keeps its state.
    if (row?.state === "declined") return this.settle(call, { done: true });
    this.settle(call, { state: "done", output: text, file: fileOf(call.name, call.arguments, text) });
  }

  private settle(call: Call, change: Partial<Item>): void {
    const row = this.callItem(call);
    if (row) this.store.put("items", { ...row, ...change, done: true });
  }
}
