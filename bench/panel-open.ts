// The panel's host half opening a conversation: the `opened` message for 5,000 items (a third of
// them Markdown answers) against 100 items, in time and in bytes sent. Only the newest items'
// blocks are rendered and sent at open (the panel asks for the others' as it shows them), so both
// stay close to the small conversation's. Each size is opened a few times after a warm-up; the
// median counts.
//   BENCH panel-open items=N open_ms=… bytes=…
//   BENCH panel-open open_5000_vs_100=… bytes_5000_vs_100=…
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { asked, conversation, item } from "../src/chat/make";
import { PanelView } from "../src/chat/panel/view";
import { Store } from "../src/chat/store/store";
import type { HostMessage } from "../src/protocol/messages";
import { recordingHost } from "../test/fixtures/view-host";

const ANSWER =
  "The parser reads **one token** at a time and keeps `positions`.\n\n- one\n- two\n\n```ts\nconst a = 1;\n```";

/** A store with one conversation of `count` items: a question, its answer and a tool call, in turn. */
async function filled(folder: string, count: number): Promise<{ store: Store; chat: string }> {
  const store = await Store.open(folder);
  const chat = conversation("a1", `${count} items`);
  store.put("conversations", chat);
  for (let i = 0; i < count; i++) {
    if (i % 3 === 0) store.put("items", { ...asked(`Question ${i}`, chat.id), done: true });
    else if (i % 3 === 1) store.put("items", { ...item("text", `${ANSWER} ${i}`, chat.id), done: true });
    else
      store.put("items", {
        ...item("call", "", chat.id),
        name: "read_file",
        input: `{"path":"src/f${i}.ts"}`,
        output: "ok",
        state: "done",
        done: true,
      });
  }
  return { store, chat: chat.id };
}

/** The median time and the bytes of opening the conversation of `count` items. */
async function measure(count: number): Promise<{ ms: number; bytes: number }> {
  const folder = await mkdtemp(join(tmpdir(), "tandem-bench-open-"));
  const { store, chat } = await filled(folder, count);
  const times: number[] = [];
  let bytes = 0;
  for (let round = 0; round < 7; round++) {
    const sent: HostMessage[] = [];
    const view = new PanelView(store, undefined, recordingHost(sent));
    const start = performance.now();
    view.openChat(chat);
    times.push(performance.now() - start);
    bytes = JSON.stringify(sent).length;
    view.dispose();
  }
  await store.close();
  await rm(folder, { recursive: true, force: true });
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)], bytes };
}

const round = (n: number) => Math.round(n * 100) / 100;

async function main(): Promise<void> {
  await measure(100);
  const small = await measure(100);
  const large = await measure(5000);
  for (const [count, m] of [
    [100, small],
    [5000, large],
  ] as const)
    console.log(`BENCH panel-open items=${count} open_ms=${round(m.ms)} bytes=${m.bytes}`);
  console.log(
    `BENCH panel-open open_5000_vs_100=${round(large.ms / small.ms)} bytes_5000_vs_100=${round(large.bytes / small.bytes)}`,
  );
}

void main();
