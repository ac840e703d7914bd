// The crash test as a figure: a writer killed with SIGKILL at random moments, 100 times; every
// message acknowledged as durable before a kill must load afterwards.
//   BENCH store-crash kills=100 lost=0
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { crashRounds } from "../test/fixtures/crash-rounds";

async function main(): Promise<void> {
  const folder = await mkdtemp(join(tmpdir(), "tandem-crash-bench-"));
  try {
    const started = performance.now();
    const r = await crashRounds(folder, 100);
    const s = ((performance.now() - started) / 1000).toFixed(1);
    console.log(
      `BENCH store-crash kills=${r.kills} lost=${r.lost} acked=${r.acked} problems=${r.problems} s=${s}`,
    );
    if (r.lost) process.exitCode = 1;
  } finally {
    await rm(folder, { recursive: true, force: true });
  }
}

void main();
