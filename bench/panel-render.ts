// The panel in Chromium: how long one streamed patch takes to show (p99, layout included), how
// long a 5,000-item conversation takes to open, and what one scroll step (a wheel notch) through it costs (p95,
// the panel's work and layout). Baselines from the same run: opening 100 (and 50) items,
// scrolling 50, and re-rendering the whole answer on every delta (what peers do).
import type { HostMessage, Snapshot } from "../src/protocol/messages";
import type { Block } from "../src/protocol/blocks";
import type { Item } from "../src/protocol/rows";
import { MarkdownStream, keyed, stream } from "../src/markdown";
import { Panel, launch } from "../test/webview/page";
import { item, snapshot } from "../test/webview/stream";
import { longConversation } from "../test/webview/long";

const PARAGRAPH =
  "The parser reads **one token** at a time and keeps `positions` for every [node](https://example.com).";
const CODE = "```ts\nexport function parse(text: string): string[] {\n  return text.split(/\\s+/);\n}\n```";

/** A ~20 KB answer: paragraphs, a list, a table and code blocks. */
function answer(): string {
  const parts: string[] = [];
  for (let i = 0; parts.join("\n\n").length < 20_000; i++) {
    parts.push(`${PARAGRAPH} ${i}`, `- item ${i}\n- item ${i + 1}`);
    if (i % 5 === 0) parts.push(CODE, "| a | b |\n| - | - |\n| 1 | 2 |");
  }
  return parts.join("\n\n");
}

/** A conversation of `count` items: messages, answers with blocks, and tool calls. */
function conversation(count: number): Snapshot {
  const items: Item[] = [];
  const blocks: Record<string, Block[]> = {};
  for (let i = 0; i < count; i++) {
    const id = `c1.${i}`;
    const kind = (["user", "text", "call"] as const)[i % 3];
    const text = kind === "text" ? `${PARAGRAPH}\n\n- one\n- two` : `Question ${i}`;
    items.push(
      item(id, kind, {
        text,
        name: kind === "call" ? "read_file" : "",
        input: '{"path":"a.ts"}',
        state: kind === "call" ? "done" : "",
      }),
    );
    if (kind === "text") blocks[id] = keyed(text, id);
  }
  return snapshot({ chat: "c1", items, blocks });
}

/**
 * What the host does when a conversation opens (view.ts openChatState): every Markdown item
 * rendered to blocks, all sent in one message. Answers the time and the message's size.
 */
function hostOpen(count: number): { ms: number; kb: number } {
  const { items } = longConversation(count);
  const start = performance.now();
  const blocks: Record<string, Block[]> = {};
  for (const row of items) {
    if (row.kind !== "text") continue;
    const markdown = new MarkdownStream(row.id);
    markdown.update(row.text);
    markdown.end();
    blocks[row.id] = markdown.blocks();
  }
  const size = JSON.stringify({ type: "opened", chat: "c2", items, blocks }).length;
  return { ms: performance.now() - start, kb: size / 1024 };
}

/**
 * Opens the long conversation of `count` items (best of three, layout included) and scrolls it
 * from the bottom up in steps of a mouse wheel's notch (100 pixels; 1,500 steps at most): each step's cost is the synchronous scroll and
 * layout, plus the frame's work after the scroll event (the panel's window moving, then layout).
 */
async function openAndScroll(panel: Panel, count: number): Promise<{ open: number; steps: number[] }> {
  const message = longConversation(count);
  let open = Infinity;
  for (let i = 0; i < 3; i++) {
    await panel.send(snapshot());
    await panel.settled();
    open = Math.min(
      open,
      await panel.page.evaluate((m) => {
        const start = performance.now();
        window.dispatchEvent(new MessageEvent("message", { data: m }));
        void document.body.offsetHeight;
        return performance.now() - start;
      }, message),
    );
  }
  await panel.settled();
  // Written as a string: the test's TypeScript loader would wrap named functions in a helper the page lacks.
  const steps = (await panel.page.evaluate(`(async () => {
    const view = document.querySelector(".transcript");
    const frame = () => new Promise((resolve) => requestAnimationFrame(resolve));
    const times = [];
    for (let step = 0; step < 1500 && view.scrollTop > 0; step++) {
      await frame();
      let t = performance.now();
      view.scrollTop = Math.max(0, view.scrollTop - 100);
      void view.offsetHeight;
      const sync = performance.now() - t;
      const after = await new Promise((resolve) => {
        view.addEventListener("scroll", () => {
          const seen = performance.now();
          requestAnimationFrame(() => {
            void view.offsetHeight;
            resolve(performance.now() - seen);
          });
        }, { once: true });
      });
      times.push(sync + after);
    }
    return times;
  })()`)) as number[];
  return { open, steps };
}

function quantile(values: number[], q: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}
const p99 = (values: number[]) => quantile(values, 0.99);

const round = (n: number) => Math.round(n * 1000) / 1000;

async function main(): Promise<void> {
  const browser = await launch();
  try {
    const panel = await Panel.open(browser);
    const timed = (message: HostMessage) =>
      panel.page.evaluate((m) => {
        const start = performance.now();
        window.dispatchEvent(new MessageEvent("message", { data: m }));
        void document.body.offsetHeight;
        return performance.now() - start;
      }, message);

    // Opening: best of three, after one warm-up.
    const open = async (count: number) => {
      const message = conversation(count);
      await timed(snapshot());
      let best = Infinity;
      for (let i = 0; i < 3; i++) {
        await timed(snapshot());
        best = Math.min(best, await timed(message));
      }
      return best;
    };
    await open(100);
    const open100 = await open(100);
    const open5000 = await open(5000);

    // Streaming: every 4-character delta as one patch, timed in the page with layout.
    await timed(snapshot({ chat: "c1", items: [item("c1.0", "text", { done: false })] }));
    const text = answer();
    const markdown = stream("c1.0");
    const patches: HostMessage[] = [];
    const wholes: string[] = [];
    for (let end = 4; end < text.length + 4; end += 4) {
      patches.push({ type: "blocks", patch: markdown.update(text.slice(0, end)) });
      if (end % 400 === 0)
        wholes.push(
          markdown
            .blocks()
            .map((b) => b.html)
            .join(""),
        );
    }
    const perPatch = await panel.page.evaluate((list) => {
      const times: number[] = [];
      for (const m of list) {
        const start = performance.now();
        window.dispatchEvent(new MessageEvent("message", { data: m }));
        void document.body.offsetHeight;
        times.push(performance.now() - start);
      }
      return times;
    }, patches);
    // The baseline: the whole answer's HTML set again on each delta (sampled every 100 deltas).
    const full = await panel.page.evaluate((list) => {
      const host = document.createElement("div");
      document.body.appendChild(host);
      const times: number[] = [];
      for (const html of list) {
        const start = performance.now();
        host.innerHTML = html;
        void document.body.offsetHeight;
        times.push(performance.now() - start);
      }
      host.remove();
      return times;
    }, wholes);
    // A long conversation scrolled end to end, against a short one in the same run.
    const host5000 = hostOpen(5000);
    const host50 = hostOpen(50);
    const small = await openAndScroll(panel, 50);
    const large = await openAndScroll(panel, 5000);
    const dom = await panel.page.locator(".items > [data-item]").count();
    await panel.close();
    const p95 = (values: number[]) => quantile(values, 0.95);
    for (const [count, run, host] of [
      [50, small, host50],
      [5000, large, host5000],
    ] as const) {
      console.log(
        `BENCH panel-render items=${count} open_ms=${round(run.open)} scroll_step_ms_p95=${round(p95(run.steps))} ` +
          `scroll_step_ms_max=${round(Math.max(...run.steps))} scroll_steps=${run.steps.length} ` +
          `host_open_ms=${round(host.ms)} opened_kb=${round(host.kb)}`,
      );
    }
    console.log(
      `BENCH panel-render open_5000_vs_50=${round(large.open / small.open)} ` +
        `scroll_p95_5000_vs_50=${round(p95(large.steps) / p95(small.steps))} items_in_dom_5000=${dom}`,
    );
    const patchP99 = p99(perPatch);
    console.log(
      `BENCH panel-render ms_per_patch_p99=${round(patchP99)} open_ms_5000=${round(open5000)} ` +
        `open_ms_100=${round(open100)} open_5000_vs_100=${round(open5000 / open100)} ` +
        `ms_per_patch_p50=${round(quantile(perPatch, 0.5))} full_rerender_p99=${round(p99(full))} patch_vs_full=${round(patchP99 / p99(full))} patches=${perPatch.length}`,
    );
  } finally {
    await browser.close();
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
