/**
 * The runner (`serveConversations`): answers every unanswered message in the background, one at a time in a
 * conversation and conversations side by side. It follows the store, not any view: a closed panel
 * does not stop a run, and a new runner on the same store goes on where the last one was cut off
 * (see recover.ts). A "stop" item ends the conversation's run, keeping what it wrote; a
 * "retry" item answers the last message again below the old answer.
 *
 * Using it:
 *   const runner = serveConversations(store, { model: (id) => modelOf(id), tools: (a) => toolsFor(a), approve: ask });
 *   store.put("items", asked("Hello", chat));   // the runner answers it
 *   runner.decide(callKey, "always");           // the person's answer (panel or notification): the first wins
 *   await runner.close();                        // before store.close()
 * A store opened as a reader does not run anything: call `start()` again once it is writable
 * (the store's `onWritable`).
 */
import type { Attached } from "../../agent/attachments";
import { reason } from "../../agent/perform";
import { assistant, newKey, stopped } from "../make";
import type { Item } from "../row-schemas";
import type { Change, Store } from "../store";
import type { Allowance, Decision } from "../approval";
import { answer, givenBy, type After, type Runs } from "./answer";
import { Waiting } from "./approve";
import type { RunnerHost } from "./runner-host";
import { nextWork, type Work } from "./history";
import { recover, type Recovered } from "./recover";
import { t } from "../../protocol/l10n";

/** How many earlier messages' attachments are kept read. */
const GIVEN_KEPT = 32;

/** The background runner of one store. */
export class Runner {
  private started = false;
  private ending = false;
  private unfollow: (() => void) | null = null;
  /** Each conversation's loop while it answers. */
  private readonly loops = new Map<string, Promise<void>>();
  /** Each conversation's run that is going on, to stop it. */
  private readonly halts = new Map<string, AbortController>();
  /** Conversations whose stop came while their loop was starting: its first run stops at once. */
  private readonly stopNext = new Set<string>();
  /** Items this runner took as work: never answered twice. */
  private readonly taken = new Set<string>();
  /** Each conversation's messages sent to join its run going on, not yet read by it (see `steer`). */
  private readonly steering = new Map<string, string[]>();
  private readonly allowed = new Map<string, Allowance>();
  /** The calls waiting for the person, settled by `decide`. */
  private readonly waiting: Waiting;
  private readonly given = new Map<string, Promise<Attached>>();
  private readonly runs: Runs;
  /** What runs left to do after they ended (titles), going on beside the next runs. */
  private readonly after = new Set<Promise<void>>();
  /** Aborts what is left to do after runs when the runner closes. */
  private readonly closed = new AbortController();
  /** What recovery found when the runner started (empty before). */
  recovered: Recovered = { interrupted: [], closed: 0 };

  constructor(
    readonly store: Store,
    readonly host: RunnerHost,
  ) {
    this.waiting = new Waiting(store);
    this.runs = {
      store,
      host,
      allowed: (chat) => this.allowedFor(chat),
      waiting: this.waiting,
      given: (user) => this.givenOf(user),
      closing: () => this.ending,
      summaries: new Map(),
      steered: (chat) => this.steered(chat),
    };
  }

  /**
   * Makes the first assistant when there is none (the host's, else "Tandem"), marks what a crash
   * left half done, then answers every message waiting and follows the store for new ones. False
   * when it cannot start (already started, closed, or the store only reads).
   */
  start(): boolean {
    if (this.started || this.ending || !this.store.writable) return false;
    this.started = true;
    if (this.store.count("assistants") === 0) {
      this.write(() => this.store.put("assistants", this.host.assistant ?? assistant(newKey(), "Tandem")));
    }
    this.recovered = recover(this.store);
    this.unfollow = this.store.follow({ table: "items" }, (change) => this.seen(change));
    const chats = new Set<string>();
    for (const chat of this.store.unfinished()) {
      for (const i of this.store.items(chat)) {
        if ((i.kind === "user" || i.kind === "retry") && !i.done) chats.add(i.chat);
      }
    }
    for (const chat of chats) this.wake(chat);
    return true;
  }

  /** True while a run of `chat` is going on. */
  running(chat: string): boolean {
    return this.halts.has(chat);
  }

  /** The conversations whose run is going on. */
  runningChats(): string[] {
    return [...this.halts.keys()];
  }

  /**
   * The person's answer on the call item `key` waiting for them, from any face (the panel's buttons,
   * the notification): it settles the waiting call at once and is written on its row once. "always"
   * also allows what the question offered (this tool, this host, or the command line as a rule of
   * theirs); where it offered nothing (a protected path) it is a yes for this call only. False, with
   * nothing written, when the call is not waiting: another answer came first, or this runner never
   * asked it (a window restarted since, or another window's runner asks).
   */
  decide(key: string, decision: Decision): boolean {
    return this.waiting.decide(key, decision);
  }

  /**
   * The person's message `user` sent to the run of its conversation going on (steering): it is put
   * as a message of the conversation, and the run reads it at its next round boundary, without
   * stopping the calls in flight; it is then answered by that run, never again on its own. A message
   * the run no longer reads (it ended first) is answered after it, as any message. False when no
   * run of the conversation goes on: then it is just a message.
   */
  async steer(user: Item): Promise<boolean> {
    // Whether a run goes on is asked first: the message put may start one of its own.
    const joins = this.running(user.chat);
    await this.store.putDurable("items", user);
    if (!joins || !this.running(user.chat)) return false;
    const waiting = this.steering.get(user.chat) ?? [];
    waiting.push(user.id);
    this.steering.set(user.chat, waiting);
    return true;
  }

  /** Lets the tool `name` run without asking in the conversation `chat` (never past a protected path or a command). */
  allow(chat: string, name: string): void {
    this.allowedFor(chat).tools.add(name);
  }

  /** Asks the run of `chat` to stop (a "stop" item, as the panel writes it). */
  stop(chat: string): void {
    this.store.put("items", stopped(chat));
  }

  /** Resolves once no conversation has a run going on or waiting, nor anything left after one (a title). */
  async idle(): Promise<void> {
    while (this.loops.size || this.after.size) await Promise.all([...this.loops.values(), ...this.after]);
  }

  /**
   * Stops following the store and ends the runs going on; what they wrote stays, marked
   * interrupted so the person can retry. Call it before closing the store.
   */
  async close(): Promise<void> {
    this.ending = true;
    this.unfollow?.();
    this.unfollow = null;
    for (const halt of this.halts.values()) halt.abort();
    this.closed.abort();
    await this.idle();
  }

  private allowedFor(chat: string): Allowance {
    let allowed = this.allowed.get(chat);
    if (!allowed) this.allowed.set(chat, (allowed = { tools: new Set(), hosts: new Set() }));
    return allowed;
  }

  private givenOf(user: Item): Promise<Attached> {
    let given = this.given.get(user.id + JSON.stringify(user.files));
    if (!given) {
      given = givenBy(this.host, user);
      this.given.set(user.id + JSON.stringify(user.files), given);
      if (this.given.size > GIVEN_KEPT) this.given.delete(this.given.keys().next().value!);
    }
    return given;
  }

  /** The messages sent to join the run of `chat`, taken by it: marked done and never answered again. */
  private steered(chat: string): Item[] {
    const ids = this.steering.get(chat) ?? [];
    this.steering.delete(chat);
    const out: Item[] = [];
    for (const id of ids) {
      const row = this.store.get("items", id);
      if (!row || row.done || row.kind !== "user" || this.taken.has(id)) continue;
      this.taken.add(id);
      this.write(() => this.store.put("items", { ...row, done: true }));
      out.push(row);
    }
    return out;
  }

  private seen(change: Change): void {
    const row = change.row as Item | null;
    // A call deleted while it waits (its conversation went) is not asked any longer.
    if (!row) this.waiting.gone(change.key);
    if (!row || row.done) return;
    // Acted on after the put that told it, so every view sees that change before the runner's.
    if (row.kind === "user" || row.kind === "retry") queueMicrotask(() => this.wake(row.chat));
    else if (row.kind === "stop") queueMicrotask(() => this.stopSeen(row.id));
  }

  private stopSeen(key: string): void {
    const row = this.store.get("items", key);
    if (!row || row.done || this.ending) return;
    const halt = this.halts.get(row.chat);
    if (halt) halt.abort();
    else if (this.loops.has(row.chat)) this.stopNext.add(row.chat);
    this.write(() => this.store.put("items", { ...row, done: true }));
  }

  private wake(chat: string): void {
    if (this.ending || this.loops.has(chat)) return;
    const loop = this.loop(chat).finally(() => {
      this.loops.delete(chat);
      this.stopNext.delete(chat);
    });
    this.loops.set(chat, loop);
  }

  /** Answers the work of `chat`, one piece after another, until there is none. */
  private async loop(chat: string): Promise<void> {
    // Starts after `wake` has noted the loop, so a new message meanwhile finds it.
    await null;
    if (this.ending || !this.store.writable) return;
    // The conversation stays in memory while it is answered.
    const release = this.store.hold(chat);
    try {
      for (;;) {
        if (this.ending || !this.store.writable) return;
        const work = nextWork(this.store.items(chat), this.taken);
        if (!work) return;
        this.taken.add(work.item.id);
        if (!(await this.answer(work))) return;
      }
    } finally {
      release();
    }
  }

  /** Answers one piece of work; false when the store refused a write (the loop ends). */
  private async answer(work: Work): Promise<boolean> {
    const chat = work.item.chat;
    if (work.user.kind !== "user") {
      // A retry with no message before it asks nothing.
      return this.write(() => this.store.put("items", { ...work.item, done: true }));
    }
    const halt = new AbortController();
    if (this.stopNext.delete(chat)) halt.abort();
    this.halts.set(chat, halt);
    this.tell(chat, true);
    let after: After | undefined;
    try {
      // The person's message is on disk before its answer starts.
      await this.store.flush();
      after = await answer(this.runs, work, halt);
      return true;
    } catch (error) {
      this.problem(t("The answer in a conversation could not be written: {0}", reason(error)));
      return false;
    } finally {
      this.halts.delete(chat);
      // What came too late for the run's last round boundary is answered next, as any message.
      this.steering.delete(chat);
      this.tell(chat, false);
      // Told first that the run ended; the title is asked beside the next message's run, not before it.
      if (after) this.later(after);
    }
  }

  /** Does what a run left to do, beside the runs that follow it; `idle` and `close` wait for it. */
  private later(after: After): void {
    const done: Promise<void> = after(this.closed.signal)
      .catch((error: unknown) => this.problem(t("Naming a conversation failed: {0}", reason(error))))
      .finally(() => this.after.delete(done));
    this.after.add(done);
  }

  private tell(chat: string, running: boolean): void {
    try {
      this.host.running?.(chat, running);
    } catch (error) {
      console.error("Tandem: telling a run's state failed:", error);
    }
  }

  private write(put: () => void): boolean {
    try {
      put();
      return true;
    } catch (error) {
      this.problem(t("A conversation could not be written: {0}", reason(error)));
      return false;
    }
  }

  private problem(text: string): void {
    if (this.host.problem) this.host.problem(text);
    else console.error(`Tandem: ${text}`);
  }
}

/** Starts the runner of `store` (see the top of this file) and returns it. */
export function serveConversations(store: Store, host: RunnerHost): Runner {
  const runner = new Runner(store, host);
  runner.start();
  return runner;
}
