// The store against what peers do (rewrite a conversation as one JSON file at each change):
// adding one item to a 10,000-item conversation, durably, each way; loading 1,000 conversations
// of 100 items; opening one conversation of 10,000 items.
//   BENCH store append_us=… rewrite_append_us=… speedup=… load_ms_1000x100=… open_ms_10000=…
import { mkdtemp, open, rename, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asked, conversation, item } from "../src/chat/make";
import type { Item } from "../src/chat/row-schemas";
import { Store } from "../src/chat/store/store";

const TEXT = "The answer, as a model writes it: a paragraph of some two hundred characters, ".repeat(3);

function answer(chat: string, i: number): Item {
  return i % 2
    ? { ...item("text", `${TEXT}${i}`, chat), done: true }
    : { ...asked(`question ${i}`, chat), done: true };
}

async function filled(folder: string, chats: number, items: number): Promise<string[]> {
  const store = await Store.open(folder, { compactMinBytes: Number.MAX_SAFE_INTEGER });
  const ids: string[] = [];
  for (let c = 0; c < chats; c++) {
    const chat = conversation("a1", `conversation ${c}`);
    store.put("conversations", chat);
    for (let i = 0; i < items; i++) store.put("items", answer(chat.id, i));
    ids.push(chat.id);
  }
  await store.close();
  return ids;
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** What a peer does for one new item: the whole conversation as one JSON file, written safely. */
async function rewrite(path: string, items: Item[]): Promise<void> {
  const fh = await open(`${path}.tmp`, "w");
  await fh.writeFile(JSON.stringify(items));
  await fh.sync();
  await fh.close();
  await rename(`${path}.tmp`, path);
}

async function main(): Promise<void> {
  const root = await mkdtemp(join(tmpdir(), "tandem-bench-"));
  try {
    // One conversation of 10,000 items: open it, then add items each way.
    const big = join(root, "big");
    const [chat] = await filled(big, 1, 10_000);
    const opens: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const store = await Store.open(big);
      const n = store.items(chat).length;
      opens.push(performance.now() - t);
      if (n !== 10_000) throw new Error(`opened ${n} items`);
      await store.close();
    }

    const store = await Store.open(big);
    const items = [...store.items(chat)];
    const file = join(root, "conversation.json");
    await rewrite(file, items);
    const appends: number[] = [];
    const rewrites: number[] = [];
    for (let r = 0; r < 40; r++) {
      const next = answer(chat, r);
      let t = performance.now();
      await store.putDurable("items", next);
      appends.push(performance.now() - t);
      items.push(next);
      t = performance.now();
      await rewrite(file, items);
      rewrites.push(performance.now() - t);
    }
    await store.close();

    // 1,000 conversations of 100 items.
    const many = join(root, "many");
    await filled(many, 1000, 100);
    const loads: number[] = [];
    for (let r = 0; r < 3; r++) {
      const t = performance.now();
      const s = await Store.open(many);
      loads.push(performance.now() - t);
      if (s.count("items") !== 100_000) throw new Error(`loaded ${s.count("items")} items`);
      await s.close();
    }

    const append = median(appends) * 1000;
    const rewritten = median(rewrites) * 1000;
    console.log(
      `BENCH store append_us=${append.toFixed(0)} rewrite_append_us=${rewritten.toFixed(0)} ` +
        `speedup=${(rewritten / append).toFixed(1)} load_ms_1000x100=${median(loads).toFixed(0)} ` +
        `open_ms_10000=${median(opens).toFixed(0)}`,
    );
  } finally {
    await rm(root, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
