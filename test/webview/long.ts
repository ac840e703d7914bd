/** A long conversation as the host sends it: messages, each answered by words (as blocks) and a tool call. */
import type { Block } from "../../src/protocol/blocks";
import type { ChatOpened } from "../../src/protocol/messages";
import type { Item } from "../../src/protocol/rows";
import { keyed } from "../../src/markdown";
import type { Panel } from "./page";
import { item } from "./stream";

/**
 * The id of the `index`-th item of `longConversation`: message m{n}, its answer m{n}.1 and its call
 * m{n}.2, n in fixed width as the store's keys are (they sort by their characters).
 */
export function longId(index: number): string {
  const message = `m${String(Math.floor(index / 3)).padStart(6, "0")}`;
  const part = index % 3;
  return part === 0 ? message : `${message}.${part}`;
}

/** The `opened` message of conversation `chat` with `count` items. */
export function longConversation(count: number, chat = "c2"): ChatOpened {
  const items: Item[] = [];
  const blocks: Record<string, Block[]> = {};
  for (let i = 0; i < count; i++) {
    const id = longId(i);
    const n = Math.floor(i / 3);
    if (i % 3 === 0) items.push(item(id, "user", { text: `Question number ${n}` }, chat));
    else if (i % 3 === 1) {
      const text = `Answer number ${n}: the parser reads **one token** at a time.\n\n- one\n- two`;
      items.push(item(id, "text", { text }, chat));
      blocks[id] = keyed(text, id);
    } else
      items.push(
        item(id, "call", { name: "read_file", input: `{"path":"src/f${n}.ts"}`, state: "done" }, chat),
      );
  }
  return { type: "opened", chat, items, blocks };
}

/**
 * Scrolls the transcript from its top to its bottom half a view at a time (the panel keeps only the
 * items near the view in the DOM) and answers the ids of every item shown on the way; `each` runs
 * at every step, once the panel settled.
 */
export async function walkTranscript(panel: Panel, each?: () => Promise<void>): Promise<Set<string>> {
  const seen = new Set<string>();
  const view = panel.page.locator(".transcript");
  // Each step goes to where the walk is, wherever `each` (a link clicked) may have scrolled to.
  for (let top = 0, step = 0; step < 10_000; step++) {
    await view.evaluate((element, top) => (element.scrollTop = top), top);
    await panel.settled();
    const { ids, next, end } = await view.evaluate((element) => ({
      ids: [...element.querySelectorAll<HTMLElement>(".items > [data-item]")].map(
        (item) => item.dataset.item ?? "",
      ),
      next: element.scrollTop + element.clientHeight / 2,
      end: element.scrollTop + element.clientHeight >= element.scrollHeight - 1,
    }));
    for (const id of ids) seen.add(id);
    await each?.();
    if (end) break;
    top = next;
  }
  return seen;
}
