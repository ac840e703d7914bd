// Runs benchmarks: `npm run bench -- NAME [NAME…]` runs bench/NAME.ts; no name runs them all.
// Each benchmark prints lines `BENCH <name> key=value …`.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { join } from "node:path";

const root = new URL("..", import.meta.url).pathname;
const all = readdirSync(join(root, "bench"))
  .filter((f) => f.endsWith(".ts"))
  .map((f) => f.slice(0, -3))
  .sort();
const names = process.argv.slice(2).length ? process.argv.slice(2) : all;
let failed = 0;
for (const name of names) {
  const file = join(root, "bench", `${name}.ts`);
  if (!existsSync(file)) {
    console.error(`no benchmark "${name}"; there are: ${all.join(", ")}`);
    process.exit(2);
  }
  const r = spawnSync(process.execPath, ["--import", "tsx", "--expose-gc", file], {
    cwd: root,
    stdio: "inherit",
  });
  if (r.status !== 0) failed++;
}
process.exit(failed ? 1 : 0);
