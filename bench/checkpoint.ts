// Checkpoints against the way Cline takes them (a shadow git: `git add -A && git commit` with a
// separate git directory over the same tree), on a generated workspace of 20,000 source-like files
// in nested folders plus one 200 MB binary of random bytes, after one changed file:
//   BENCH checkpoint files=20000 changed=1 save_ms=… shadow_git_ms=… speedup=… restore_ms=… stored_vs_changed=…
// Both first checkpoints are taken before the timing; each figure is the median of five rounds
// (change one file, take our checkpoint, take the shadow git's). Checkpoints follow the folder
// watcher's report; a second line gives the same with the watcher off (a whole stat walk each
// time), the store's fallback:
//   BENCH checkpoint-walk files=20000 changed=1 save_ms=… shadow_git_ms=… speedup=…
// The extension host must stay responsive while a checkpoint is taken: the longest the event loop
// waited during the first checkpoint (a whole walk that reads every file) and during the walking saves:
//   BENCH checkpoint-responsive files=20000 first_save_max_lag_ms=… walk_max_lag_ms=…
// Everything is deleted at the end.
import { spawnSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import {
  closeSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  rmSync,
  writeFileSync,
  writeSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Checkpoints } from "../src/chat/checkpoints/checkpoints";
// Seeded, so every run writes the same workspace.
import { random } from "../test/fixtures/random";

const FILES = 20_000;
const BINARY_MB = 200;
const ROUNDS = 5;

/** Measures the longest wait of the event loop (a 2 ms timer's lateness) until `stop` is called. */
function lag(): { stop(): number } {
  let max = 0;
  let last = performance.now();
  const timer = setInterval(() => {
    const now = performance.now();
    max = Math.max(max, now - last - 2);
    last = now;
  }, 2);
  return {
    stop() {
      clearInterval(timer);
      return Math.max(max, performance.now() - last - 2);
    },
  };
}

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[s.length >> 1];
}

const WORDS = [
  "const",
  "value",
  "return",
  "export",
  "function",
  "import",
  "render",
  "state",
  "items",
  "await",
];

/** Source-like text of about `size` bytes. */
function source(rnd: () => number, size: number, n: number): string {
  let out = `// module ${n}\nimport { helper } from "../shared/helper";\n\n`;
  while (out.length < size) {
    const w = () => WORDS[Math.floor(rnd() * WORDS.length)];
    out += `export function ${w()}${Math.floor(rnd() * 1e4)}(${w()}: number) {\n  return ${w()} + ${Math.floor(rnd() * 100)};\n}\n\n`;
  }
  return out;
}

/** The workspace: the binary first, then 20,000 files (sizes from 100 B to ~40 KB, most small). */
function generate(root: string): string[] {
  const rnd = random(13);
  mkdirSync(join(root, "assets"), { recursive: true });
  const fd = openSync(join(root, "assets", "model.bin"), "w");
  for (let i = 0; i < BINARY_MB; i++) writeSync(fd, randomBytes(1024 * 1024));
  closeSync(fd);
  const paths: string[] = [];
  for (let i = 0; paths.length < FILES - 1; i++) {
    const folder = `packages/p${i % 20}/src/m${Math.floor(i / 20) % 25}/${i % 3 ? "lib" : "ui"}`;
    mkdirSync(join(root, folder), { recursive: true });
    for (let f = 0; f < 12 && paths.length < FILES - 1; f++) {
      const path = `${folder}/file${i}-${f}.ts`;
      const size = Math.floor(100 * Math.exp(rnd() * Math.log(400)));
      writeFileSync(join(root, path), source(rnd, size, paths.length));
      paths.push(path);
    }
  }
  return paths;
}

/** Bytes of every file under `folder`. */
function bytesUnder(folder: string): number {
  let total = 0;
  for (const name of readdirSync(folder)) {
    const s = lstatSync(join(folder, name));
    total += s.isDirectory() ? bytesUnder(join(folder, name)) : s.size;
  }
  return total;
}

function shadowGit(gitDir: string, root: string): number {
  const started = performance.now();
  const r = spawnSync("sh", ["-c", "git add -A && git commit -q --no-verify -m checkpoint"], {
    cwd: root,
    env: {
      ...process.env,
      GIT_DIR: gitDir,
      GIT_WORK_TREE: root,
      GIT_CONFIG_NOSYSTEM: "1",
      HOME: gitDir,
      GIT_AUTHOR_NAME: "bench",
      GIT_AUTHOR_EMAIL: "bench@example.com",
      GIT_COMMITTER_NAME: "bench",
      GIT_COMMITTER_EMAIL: "bench@example.com",
    },
    stdio: ["ignore", "ignore", "inherit"],
  });
  if (r.status !== 0) throw new Error(`the shadow git failed (${r.status})`);
  return performance.now() - started;
}

async function main(): Promise<void> {
  const top = mkdtempSync(join(tmpdir(), "tandem-bench-checkpoint-"));
  const root = join(top, "ws");
  const store = join(top, "store");
  const gitDir = join(top, "shadow.git");
  try {
    let t = performance.now();
    const paths = generate(root);
    console.log(`generated ${paths.length + 1} files in ${((performance.now() - t) / 1000).toFixed(1)} s`);
    t = performance.now();
    spawnSync("git", ["init", "-q", "--bare", gitDir]);
    shadowGit(gitDir, root);
    console.log(`shadow git's first commit: ${((performance.now() - t) / 1000).toFixed(1)} s`);
    const c = await Checkpoints.open({ root, folder: store });
    t = performance.now();
    const firstLag = lag();
    const first = await c.save("first", "bench");
    const firstSaveLag = firstLag.stop();
    const text = bytesUnder(root) - BINARY_MB * 1024 * 1024;
    console.log(
      `first checkpoint: ${((performance.now() - t) / 1000).toFixed(1)} s, ${(bytesUnder(store) / 1e6).toFixed(1)} MB stored for ${(text / 1e6).toFixed(1)} MB of text (deflated); not covered: ${first.notCovered.map((n) => `${n.path} (${n.why})`).join(", ")}`,
    );

    const rnd = random(7);
    const saves: number[] = [];
    const gits: number[] = [];
    const ratios: number[] = [];
    const changedPaths = new Set<string>();
    for (let round = 0; round < ROUNDS; round++) {
      // A mid-sized source file, as an edit would change it.
      let path = paths[Math.floor(rnd() * paths.length)];
      while (lstatSync(join(root, path)).size < 2000) path = paths[Math.floor(rnd() * paths.length)];
      const changed = source(rnd, lstatSync(join(root, path)).size, round);
      changedPaths.add(path);
      writeFileSync(join(root, path), changed);
      const before = bytesUnder(store);
      t = performance.now();
      await c.save(`round ${round}`, "bench");
      saves.push(performance.now() - t);
      ratios.push((bytesUnder(store) - before) / Buffer.byteLength(changed));
      gits.push(shadowGit(gitDir, root));
    }
    t = performance.now();
    const restored = await c.restore(first.id);
    const restoreMs = performance.now() - t;
    if (restored.changed !== changedPaths.size)
      throw new Error(`the restore changed ${restored.changed} paths, not ${changedPaths.size}`);
    await c.close();

    const save = median(saves);
    const git = median(gits);
    console.log(
      `BENCH checkpoint files=${FILES} changed=1 save_ms=${save.toFixed(1)} shadow_git_ms=${git.toFixed(1)} speedup=${(git / save).toFixed(1)} restore_ms=${restoreMs.toFixed(1)} stored_vs_changed=${median(ratios).toFixed(2)}`,
    );
    console.log(
      `rounds: save_ms=${saves.map((x) => x.toFixed(0)).join(",")} shadow_git_ms=${gits.map((x) => x.toFixed(0)).join(",")}`,
    );

    // The fallback: no watcher, a whole stat walk for every checkpoint.
    const walking = await Checkpoints.open({ root, folder: store, watch: false });
    await walking.save("walked once", "bench");
    const walks: number[] = [];
    let walkLag = 0;
    const walkGits: number[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const path = paths[Math.floor(rnd() * paths.length)];
      writeFileSync(join(root, path), source(rnd, lstatSync(join(root, path)).size, round + 100));
      t = performance.now();
      const l = lag();
      await walking.save(`walk ${round}`, "bench");
      walks.push(performance.now() - t);
      walkLag = Math.max(walkLag, l.stop());
      walkGits.push(shadowGit(gitDir, root));
    }
    await walking.close();
    const walk = median(walks);
    const walkGit = median(walkGits);
    console.log(
      `BENCH checkpoint-walk files=${FILES} changed=1 save_ms=${walk.toFixed(1)} shadow_git_ms=${walkGit.toFixed(1)} speedup=${(walkGit / walk).toFixed(1)}`,
    );
    console.log(
      `BENCH checkpoint-responsive files=${FILES} first_save_max_lag_ms=${firstSaveLag.toFixed(1)} walk_max_lag_ms=${walkLag.toFixed(1)}`,
    );
    console.log(
      `shadow git directory: ${(bytesUnder(gitDir) / 1e6).toFixed(1)} MB; checkpoint store: ${(bytesUnder(store) / 1e6).toFixed(1)} MB`,
    );
  } finally {
    rmSync(top, { recursive: true, force: true });
  }
}

void main();
