// A ~100 KB Markdown answer streamed in 4-character deltas, one patch per delta, against
// rendering the final text once and against re-rendering the whole text on every delta.
import { buildSync } from "esbuild";
import { rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type * as Markdown from "../src/markdown";
import type { Patch } from "../src/protocol/blocks";
import { answer } from "../test/fixtures/markdown-corpus";

// The renderer is measured as the extension ships it: one CommonJS bundle for Node 20, built with
// esbuild as esbuild.mjs builds dist/. (Loaded as separate modules through the TypeScript loader,
// each call between modules pays for it, and the stream makes many more such calls than one render.)
const bundle = join(tmpdir(), `tandem-bench-markdown-${process.pid}.cjs`);
buildSync({
  entryPoints: [join(__dirname, "../src/markdown/index.ts")],
  bundle: true,
  platform: "node",
  format: "cjs",
  target: "node20",
  outfile: bundle,
  logLevel: "warning",
});
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { keyed, stream } = require(bundle) as typeof Markdown;
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

const round = (n: number, digits = 2) => Number(n.toFixed(digits));
console.log(
  `BENCH stream-render cpu_vs_single=${round(ratio)} speedup_vs_full=${round(full / streaming, 1)} ` +
    `bytes_vs_final=${round(htmlBytes / finalBytes)} wire_bytes_vs_final=${round(patchBytes / finalBytes)} ` +
    `text_kb=${round(text.length / 1024, 1)} deltas=${deltas.length} ` +
    `single_ms=${round(single, 1)} stream_ms=${round(streaming, 1)} full_ms=${round(full, 0)} ` +
    `round_ratio_median=${round(median(roundRatios))} round_ratio_max=${round(Math.max(...roundRatios))}`,
);
