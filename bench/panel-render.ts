// The panel in Chromium: how long one streamed patch takes to show (p99, layout included), and how
// long a 5,000-item conversation takes to open. Baselines from the same run: opening 100 items,
// and re-rendering the whole answer on every delta (what peers do).
import type { HostMessage, Snapshot } from "../src/protocol/messages";
import type { Block } from "../src/protocol/blocks";
import type { Item } from "../src/protocol/rows";
import { keyed, stream } from "../src/markdown";
import { Panel, launch } from "../test/webview/page";
import { item, snapshot } from "../test/webview/stream";

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
    await panel.close();
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
