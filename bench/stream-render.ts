// A ~100 KB Markdown answer streamed in 4-character deltas, one patch per delta, against
// rendering the final text once and against re-rendering the whole text on every delta; and the
// cost of one delta on the host's whole path (the runner's answer, the store, the panel's host half,
// its stream) at the end of a 1 MB answer against at the end of a 10 KB one.
import { buildSync } from "esbuild";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as Markdown from "../src/markdown";
import type { Store } from "../src/chat/store";
import type { ItemStreams } from "../src/chat/panel/item-streams";
import type { Answer } from "../src/chat/runner/answer-items";
import type { asked, conversation } from "../src/chat/make";
import type { Patch } from "../src/protocol/blocks";
import { answer } from "../test/fixtures/markdown-corpus";

// The code is measured as the extension ships it: one CommonJS bundle for Node 20, built with
// esbuild as esbuild.mjs builds dist/. (Loaded as separate modules through the TypeScript loader,
// each call between modules pays for it, and the stream makes many more such calls than one render.)
const bundle = join(tmpdir(), `tandem-bench-markdown-${process.pid}.cjs`);
const src = join(__dirname, "../src");
buildSync({
  stdin: {
    contents: [
      `export * from "./markdown";`,
      `export { Store } from "./chat/store";`,
      `export { ItemStreams } from "./chat/panel/item-streams";`,
      `export { Answer } from "./chat/runner/answer-items";`,
      `export { asked, conversation } from "./chat/make";`,
    ].join("\n"),
    resolveDir: src,
    loader: "ts",
  },
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: bundle,
  logLevel: "warning",
});
interface Host {
  Store: typeof Store;
  ItemStreams: typeof ItemStreams;
  Answer: typeof Answer;
  asked: typeof asked;
  conversation: typeof conversation;
}
// eslint-disable-next-line @typescript-eslint/no-require-imports
const loaded = require(bundle) as typeof Markdown & Host;
const { keyed, stream } = loaded;
rmSync(bundle);

const DELTA = 4;
const text = answer(42, 100_000, 10);
const deltas: string[] = [];
for (let i = 0; i < text.length; i += DELTA) deltas.push(text.slice(i, i + DELTA));

/** CPU milliseconds (user + system) spent in RUN. */
// No forced collection between runs: a full collection throws away the code the engine optimized
// against objects that died with it, and every run would then pay for compiling it again — a cost
// a host streaming answer after answer pays only at its own, rarer, full collections.
function cpu(run: () => void): number {
  const start = process.cpuUsage();
  run();
  const used = process.cpuUsage(start);
  return (used.user + used.system) / 1000;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Streams the answer, handing each patch to SEND (as the panel's sender would, then dropping it). */
function streamed(send: (patch: Patch) => void = () => {}): void {
  const renderer = stream("item");
  for (const delta of deltas) send(renderer.append(delta));
  send(renderer.end());
}

// Warm up both paths so the JIT has compiled them before anything is timed.
for (let i = 0; i < 6; i++) {
  keyed(text, "item");
  streamed();
}

// The machine is shared: the runs are interleaved — each round streams the answer once and
// renders it whole three times — so that a busy spell weighs on both sides. The ratio is of the
// total CPU of each side over all rounds: the collector's pauses fall in whichever run allocates
// when they come, as in a host, and the total takes them all in (the median of per-round ratios
// swung with where the pauses fell, the same rounds high in every run of the bench).
const ROUNDS = 12;
const rounds = Array.from({ length: ROUNDS }, () => {
  const once =
    (cpu(() => keyed(text, "item")) + cpu(() => keyed(text, "item")) + cpu(() => keyed(text, "item"))) / 3;
  const whole = cpu(() => streamed());
  return { once, whole };
});
// The patches are counted apart, in a run not timed: keeping 25,000 of them is the bench's cost.
const patches: Patch[] = [];
streamed((patch) => patches.push(patch));
const total = (values: number[]) => values.reduce((sum, v) => sum + v, 0);
const single = median(rounds.map((r) => r.once));
const streaming = median(rounds.map((r) => r.whole));
const ratio = total(rounds.map((r) => r.whole)) / total(rounds.map((r) => r.once));
const roundRatios = rounds.map((r) => r.whole / r.once);

// Re-rendering everything on every delta costs in proportion to the prefix: time every
// STRIDE-th prefix and count each for STRIDE deltas.
const STRIDE = 500;
let full = 0;
for (let i = STRIDE - 1; i < deltas.length; i += STRIDE) {
  const prefix = text.slice(0, (i + 1) * DELTA);
  full += cpu(() => keyed(prefix, "item")) * STRIDE;
}

const finalBytes = keyed(text, "item").reduce((sum, b) => sum + Buffer.byteLength(b.html), 0);
// The HTML the patches carry: what re-rendering costs on the wire (O(n²) for a renderer that
// re-sends the answer). Each patch's JSON frame (key, count, index, at) comes on top, ~40 bytes
// that one patch per 4-character delta pays ~25,000 times whatever the renderer does; the panel
// gets at most one patch per animation frame, which makes that part small in use.
const htmlBytes = patches.reduce(
  (sum, p) => sum + p.blocks.reduce((s, b) => s + Buffer.byteLength(b.html), 0),
  0,
);
const patchBytes = patches.reduce((sum, p) => sum + Buffer.byteLength(JSON.stringify(p)), 0);

// One delta on the host's whole path, at the end of a short and of a long answer: the same tail,
// in 4-character deltas, written by the runner's answer after a 10 KB and after a 1 MB one (each
// given as one piece and ending with a blank line, so the tail renders alike after both), each
// change of the store handed to the panel's streams as the panel's host half hands it. The panel
// gets a patch per animation frame: here a frame comes every 4 deltas (a fast model's pace; the
// bench makes deltas far faster than any model, and without frames one patch would wait for
// the whole tail, merging thousands of them as no host does).
const TAIL = answer(43, 20_000, 2);
const tailDeltas: string[] = [];
for (let i = 0; i < TAIL.length; i += DELTA) tailDeltas.push(TAIL.slice(i, i + DELTA));
const PER_FRAME = 4;
const LENGTHS = [10_000, 1_000_000];
const prefixes = LENGTHS.map((size) => answer(44, size, size / 10_000) + "\n");

/** The median microseconds of one tail delta after each of `prefixes`, measured in interleaved rounds. */
async function perDelta(): Promise<number[]> {
  const folder = mkdtempSync(join(tmpdir(), "tandem-bench-stream-"));
  const store = await loaded.Store.open(folder, { compactMinBytes: Number.MAX_SAFE_INTEGER });
  const costs: number[][] = prefixes.map(() => []);
  try {
    // The first round warms the path up and is not counted.
    for (let r = 0; r < 12; r++) {
      for (const [i, prefix] of prefixes.entries()) {
        const chat = loaded.conversation("", "bench");
        store.put("conversations", chat);
        const user = loaded.asked("Tell me", chat.id, "m");
        store.put("items", user);
        const streams = new loaded.ItemStreams(() => undefined);
        const stop = store.follow({ table: "items", where: { chat: chat.id } }, (change) => {
          if (change.row?.kind === "text") streams.changed(change.row, change);
        });
        const written = new loaded.Answer(store, chat.id, user.id, "m");
        written.piece({ kind: "text", text: prefix });
        const id = store.items(chat.id)[1].id;
        // The young garbage of rendering the prefix is collected before the tail's time, not in it
        // (a full collection would also throw away the code optimized so far: see `cpu`).
        gc?.({ type: "minor" });
        const used = cpu(() => {
          for (let d = 0; d < tailDeltas.length; d++) {
            written.piece({ kind: "text", text: tailDeltas[d] });
            if (d % PER_FRAME === PER_FRAME - 1) streams.sender(id).flush();
          }
        });
        if (r > 0) costs[i].push((used * 1000) / tailDeltas.length);
        written.close();
        stop();
        streams.dropAll();
        // What the answer left waiting (a journal line) is written before the next one starts.
        await store.flush();
      }
    }
  } finally {
    await store.close();
    rmSync(folder, { recursive: true, force: true });
  }
  return costs.map(median);
}

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
void perDelta().then(([short, long]) =>
  console.log(
    `BENCH stream-render cpu_vs_single=${round(ratio)} per_delta_us_vs_length=${round(long / short)} speedup_vs_full=${round(full / streaming, 1)} ` +
      `bytes_vs_final=${round(htmlBytes / finalBytes)} wire_bytes_vs_final=${round(patchBytes / finalBytes)} ` +
      `text_kb=${round(text.length / 1024, 1)} deltas=${deltas.length} ` +
      `single_ms=${round(single, 1)} stream_ms=${round(streaming, 1)} full_ms=${round(full, 0)} ` +
      `round_ratio_median=${round(median(roundRatios))} round_ratio_max=${round(Math.max(...roundRatios))} ` +
      `delta_us_10kb=${round(short)} delta_us_1mb=${round(long)}`,
  ),
);
