// The cost of the sandbox on a short command: `true` started the way run_command starts it
// (spawnLine: a shell in its own process group), plainly and inside bubblewrap, interleaved, the
// median of each; and the median time to make one command's sandbox (jailFor: the protected places
// walked in a small workspace, the secrets looked for).
//   BENCH sandbox plain_ms=… sandboxed_ms=… added_ms=… ratio=… jail_ms=… runs=…
// Goal: added_ms <= 20 (on a loaded machine, read the ratio to the plain start beside it).
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { spawnLine } from "../src/chat/workspace/background";
import { jailFor, sandboxing, type Jail } from "../src/chat/workspace/sandbox";
import { write } from "../test/unit/workspace/fixtures";

const RUNS = 41;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

/** Milliseconds from start to end of `command` run in `cwd`, in `jail` when given. */
function timed(command: string, cwd: string, jail?: Jail): Promise<number> {
  const start = performance.now();
  return new Promise((resolve, reject) =>
    spawnLine(
      { command, cwd, shown: ".", jail },
      {
        output: () => undefined,
        exit: (code) => (code === 0 ? resolve(performance.now() - start) : reject(new Error(`exit ${code}`))),
      },
    ),
  );
}

async function main(): Promise<void> {
  const s = await sandboxing();
  if (s.kind === "none") throw new Error(`No sandbox on this machine: ${s.why}`);
  const root = mkdtempSync(join(tmpdir(), "tandem-bench-sandbox-"));
  write(root, {
    ".git/HEAD": "ref: refs/heads/main\n",
    ".vscode/settings.json": "{}",
    "src/a.ts": "",
    "package.json": "{}",
  });
  try {
    const plain: number[] = [];
    const boxed: number[] = [];
    const jails: number[] = [];
    // Warm both paths up once: the first spawn pays for loading what the later ones share.
    const warm = await jailFor(s, { root, cwd: root, network: false });
    await timed("true", root);
    await timed("true", root, warm);
    for (let i = 0; i < RUNS; i++) {
      const t0 = performance.now();
      const jail = await jailFor(s, { root, cwd: root, network: false });
      jails.push(performance.now() - t0);
      plain.push(await timed("true", root));
      boxed.push(await timed("true", root, jail));
    }
    const p = median(plain);
    const b = median(boxed);
    console.log(
      `BENCH sandbox plain_ms=${p.toFixed(1)} sandboxed_ms=${b.toFixed(1)} added_ms=${(b - p).toFixed(1)} ratio=${(b / p).toFixed(2)} jail_ms=${median(jails).toFixed(1)} runs=${RUNS}`,
    );
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}

main().then(
  () => process.exit(0),
  (e: unknown) => {
    console.error(e);
    process.exit(1);
  },
);
