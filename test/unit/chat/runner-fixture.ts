/** What the runner's tests share: a real store in a temp folder, a runner over it, and waiting for rows. */
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Model } from "../../../src/agent/types";
import { assistant, conversation } from "../../../src/chat/make";
import type { Assistant, Item } from "../../../src/chat/row-schemas";
import { Runner } from "../../../src/chat/runner/runner";
import type { RunnerHost } from "../../../src/chat/runner/runner-host";
import { Store } from "../../../src/chat/store/store";

/** A store in a temp folder with a runner over it. */
export interface Bench {
  dir: string;
  store: Store;
  runner: Runner;
  host: RunnerHost;
  /** A new conversation with the assistant `agent` (the first one by default). */
  chat(agent?: string): string;
  /** Puts `item` (a message, a retry…) in the store and resolves, with it, once it is done. */
  send(item: Item): Promise<Item>;
  /** Ends the runner, closes the store and removes the folder. */
  end(): Promise<void>;
}

/** A host whose models are `models` by id ("" is "default"), with `extra` over it. */
export function hostOf(models: Record<string, Model>, extra: Partial<RunnerHost> = {}): RunnerHost {
  return { model: (id) => models[id || "default"], ...extra };
}

/** A store in a new temp folder (or `dir`) with an assistant `a` and a started runner. */
export async function bench(host: RunnerHost, a: Partial<Assistant> = {}, dir?: string): Promise<Bench> {
  const folder = dir ?? (await mkdtemp(join(tmpdir(), "tandem-runner-")));
  const store = await Store.open(folder);
  const agent = store.rows("assistants")[0] ?? { ...assistant("a1", "Helper"), ...a };
  if (!store.get("assistants", agent.id)) store.put("assistants", agent);
  const runner = new Runner(store, host);
  runner.start();
  return {
    dir: folder,
    store,
    runner,
    host,
    chat(id = agent.id) {
      const c = conversation(id);
      store.put("conversations", c);
      return c.id;
    },
    async send(item) {
      store.put("items", item);
      await answered(store, item.id);
      return item;
    },
    async end() {
      await runner.close();
      await store.close();
      if (!dir) await rm(folder, { recursive: true, force: true });
    },
  };
}

/** Resolves once `check` holds (looked at every 5 ms), or rejects after `ms` with `what`. */
export async function until(check: () => boolean, what = "the condition", ms = 4000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

/** Resolves once the item `key` is done. */
export async function answered(store: Store, key: string): Promise<void> {
  await until(() => store.get("items", key)?.done === true, `item ${key} to be done`);
}

/** The items of `chat` that answer the item `parent` (a user or retry item), in order. */
export function answerOf(store: Store, chat: string, parent: string): Item[] {
  return store.items(chat).filter((i) => i.id.startsWith(`${parent}.`));
}

/** The items of `chat` as "kind:text" lines, for a readable comparison. */
export function transcript(store: Store, chat: string): string[] {
  return store.items(chat).map((i) => `${i.kind}:${i.kind === "call" ? `${i.name}/${i.state}` : i.text}`);
}

/** A promise with its resolve, for a test that lets a model or a tool go on when it says. */
export function gate<T = void>(): { promise: Promise<T>; open: (value: T) => void } {
  let open!: (value: T) => void;
  const promise = new Promise<T>((resolve) => (open = resolve));
  return { promise, open };
}
