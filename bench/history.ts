// History in proportion to what is shown: a store of 1,000 conversations holding N items in all,
// opened the way a window opens it (open the store, list the conversations, open the latest one),
// then searched for a word only one conversation (not open) holds, while a timer measures how long
// the event loop is held at most. Each size is opened after a gc, in this process, once a small
// store was opened and searched (so loading the code is not counted).
//   BENCH history items=N conversations=C open_ms=… heap_mb=… search_ms=… max_block_ms=… loaded=…
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asked, conversation, item } from "../src/chat/make";
import type { Item } from "../src/chat/row-schemas";
import { Store } from "../src/chat/store/store";

const CONVERSATIONS = 1000;
const SIZES = (process.env.HISTORY_SIZES ?? "10000,100000,500000").split(",").map(Number);
const TEXT = "The answer, as a model writes it: a paragraph of some two hundred characters, ".repeat(3);
const NEEDLE = "Quetzalcoatlus";

function row(chat: string, i: number): Item {
  return i % 2
    ? { ...item("text", `${TEXT}${i}`, chat), done: true }
    : { ...asked(`question ${i}`, chat), done: true };
}

/** Fills `folder` with `items` items over CONVERSATIONS conversations; one holds the needle. */
async function filled(folder: string, items: number): Promise<void> {
  const store = await Store.open(folder, { keepClosed: 0 });
  const each = items / CONVERSATIONS;
  for (let c = 0; c < CONVERSATIONS; c++) {
    const chat = conversation("a1", `conversation ${c}`);
    store.put("conversations", chat);
    const release = store.hold(chat.id);
    for (let i = 0; i < each; i++) {
      const r = row(chat.id, i);
      store.put("items", c === 400 && i === 1 ? { ...r, text: `${r.text} about ${NEEDLE} wings` } : r);
    }
    release();
    if (c % 50 === 49) await store.flush();
  }
  await store.close();
}

const gc = (globalThis as { gc?: () => void }).gc ?? (() => undefined);
const heap = () => process.memoryUsage().heapUsed / (1 << 20);

/** The longest the event loop was held while `work` ran, in ms (a 5 ms timer that notes its lateness). */
async function blocked<T>(work: () => Promise<T>): Promise<{ value: T; maxMs: number }> {
  let last = performance.now();
  let maxMs = 0;
  const timer = setInterval(() => {
    const now = performance.now();
    maxMs = Math.max(maxMs, now - last - 5);
    last = now;
  }, 5);
  try {
    const value = await work();
    const now = performance.now();
    maxMs = Math.max(maxMs, now - last - 5);
    return { value, maxMs: Math.max(0, maxMs) };
  } finally {
    clearInterval(timer);
  }
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "tandem-history-"));
  try {
    // The code is loaded and warm before the first measure, as in a window that opened a store once.
    await filled(join(root, "warm"), CONVERSATIONS);
    const warm = await Store.open(join(root, "warm"));
    await warm.search("warm");
    await warm.close();
    for (const items of SIZES) {
      const folder = join(root, String(items));
      await filled(folder, items);
      // Opened five times (closed between): the median time, and the heap the last one holds.
      const times: number[] = [];
      let store: Store | undefined;
      let heapMb = 0;
      for (let r = 0; r < 5; r++) {
        await store?.close();
        gc();
        gc();
        const before = heap();
        const started = performance.now();
        store = await Store.open(folder);
        const list = store.conversations();
        const shown = store.items(list[0].id);
        times.push(performance.now() - started);
        gc();
        gc();
        heapMb = heap() - before;
        if (list.length !== CONVERSATIONS || shown.length !== items / CONVERSATIONS) {
          throw new Error(`opened ${list.length} conversations, ${shown.length} items`);
        }
      }
      if (!store) throw new Error("no store opened");
      const openMs = [...times].sort((a, b) => a - b)[2];
      const loaded = store.loaded().length;
      const t = performance.now();
      const { value: found, maxMs } = await blocked(() => store.search(NEEDLE.toLowerCase()));
      const searchMs = performance.now() - t;
      if (found.length !== 1 || found[0].title !== "conversation 400") {
        throw new Error(`the search found ${found.map((c) => c.title).join(", ") || "nothing"}`);
      }
      await store.close();
      await rm(folder, { recursive: true, force: true });
      console.log(
        `BENCH history items=${items} conversations=${CONVERSATIONS} open_ms=${openMs.toFixed(1)} ` +
          `heap_mb=${heapMb.toFixed(1)} search_ms=${searchMs.toFixed(0)} max_block_ms=${maxMs.toFixed(1)} ` +
          `loaded=${loaded}`,
      );
    }
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

void main();
