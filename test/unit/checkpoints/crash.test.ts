import assert from "node:assert/strict";
import { execFileSync, spawn } from "node:child_process";
import { once } from "node:events";
import {
  chmodSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  renameSync,
  symlinkSync,
  unlinkSync,
  writeFileSync,
} from "node:fs";
import { dirname, join } from "node:path";
import { open, picture, place, random, type Place } from "./fixture";

const CHILD = join(__dirname, "crash-child.ts");
const CAP = 256 * 1024;

/** Runs the child; kills it at `delay` ms after it is ready unless it kills itself first; says if it finished. */
async function child(p: Place, mode: string, target: string, killAt: number, delay: number) {
  const c = spawn(
    process.execPath,
    ["--import", "tsx", CHILD, p.root, p.store, mode, target, String(killAt)],
    { stdio: ["ignore", "pipe", "inherit"] },
  );
  let out = "";
  let ready: () => void = () => undefined;
  const isReady = new Promise<void>((r) => (ready = r));
  c.stdout.setEncoding("utf8");
  c.stdout.on("data", (s: string) => {
    out += s;
    if (out.includes("ready\n")) ready();
  });
  const exited = once(c, "close");
  await Promise.race([isReady, exited]);
  if (killAt < 0) {
    await new Promise((r) => setTimeout(r, delay));
    c.kill("SIGKILL");
  }
  await exited;
  return /done (\S+)/.exec(out)?.[1] ?? null;
}

/** Changes a few files of the workspace at random (never `.git` or the file over the cap). */
function mutate(root: string, rnd: () => number): void {
  const files: string[] = [];
  const walk = (dir: string, rel: string) => {
    for (const name of readdirSync(dir)) {
      if (name === ".git" || name === "huge.bin") continue;
      const s = lstatSync(join(dir, name));
      if (s.isDirectory()) walk(join(dir, name), `${rel}${name}/`);
      else files.push(`${rel}${name}`);
    }
  };
  walk(root, "");
  const pick = () => files[Math.floor(rnd() * files.length)];
  const bytes = (n: number) => Buffer.from(Array.from({ length: n }, () => Math.floor(rnd() * 256)));
  for (let i = 0; i < 25; i++) {
    const path = pick();
    const abs = join(root, path);
    if (!existsSync(abs) && !lstatSync(abs, { throwIfNoEntry: false })) continue;
    const op = Math.floor(rnd() * 6);
    if (op === 0 && lstatSync(abs).isFile()) writeFileSync(abs, bytes(Math.floor(rnd() * 20_000)));
    else if (op === 1) unlinkSync(abs);
    else if (op === 2) {
      const made = join(root, `new${Math.floor(rnd() * 4)}`, `n${i}-${Math.floor(rnd() * 1e6)}.txt`);
      mkdirSync(dirname(made), { recursive: true });
      writeFileSync(made, `made ${rnd()}\n`);
    } else if (op === 3 && lstatSync(abs).isFile()) chmodSync(abs, rnd() < 0.5 ? 0o755 : 0o644);
    else if (op === 4) {
      unlinkSync(abs);
      symlinkSync(rnd() < 0.5 ? "../elsewhere" : "dangling", abs);
    } else if (op === 5) renameSync(abs, `${abs}.moved`);
  }
}

function workspace(root: string, rnd: () => number): void {
  for (let i = 0; i < 120; i++) {
    const path = join(root, `d${i % 6}`, i % 2 ? `e${i % 3}` : "", `f${i}.${i % 5 ? "ts" : "bin"}`);
    mkdirSync(dirname(path), { recursive: true });
    const n = Math.floor(rnd() * 12_000);
    writeFileSync(path, i % 5 ? `// file ${i}\n${"let x = 1;\n".repeat(n / 11)}` : Buffer.alloc(n, i));
    if (i % 7 === 0) chmodSync(path, 0o755);
  }
  writeFileSync(join(root, "huge.bin"), Buffer.alloc(CAP + 1, 1));
  symlinkSync("d0/f0.bin", join(root, "link-file"));
  symlinkSync("d1", join(root, "link-folder"));
  symlinkSync("missing", join(root, "link-dangling"));
  execFileSync("git", ["init", "-q"], { cwd: root });
}

describe("checkpoints: a process killed in the middle of a save or a restore", function () {
  this.timeout(600_000);
  let p: Place;
  before(() => (p = place()));
  after(() => p.remove());

  it("leaves the workspace and the store consistent, and an interrupted restore can be finished", async () => {
    const seed = Number(process.env.TANDEM_SEED ?? Math.floor(Math.random() * 2 ** 31));
    const rounds = Number(process.env.TANDEM_CRASH_ROUNDS ?? 6);
    console.log(`      seed ${seed} (TANDEM_SEED=${seed} replays it), ${rounds} rounds of each`);
    const rnd = random(seed);
    workspace(p.root, rnd);
    const git = picture(join(p.root, ".git"));
    const known = new Map<string, Record<string, string>>();
    const first = await open(p, { maxFileBytes: CAP });
    known.set((await first.save("first", "conv")).id, picture(p.root, true));
    await first.close();

    /** Reopens the store and reads every kept file of every checkpoint (each is checked against its hash). */
    const check = async () => {
      const c = await open(p, { maxFileBytes: CAP });
      for (const r of c.list())
        for (const [path, e] of await c.entries(r.id))
          if (e.t === "f") assert.equal((await c.read(r.id, path))?.kind, "file");
      assert.deepEqual(readdirSync(join(p.store, "tmp")), []);
      return c;
    };

    let finished = 0;
    let interrupted = 0;
    for (let round = 0; round < rounds; round++) {
      mutate(p.root, rnd);
      const now = picture(p.root, true);
      // Even rounds die at a step (a file read), odd ones at a random moment.
      const byStep = round % 2 === 0;
      const id = await child(p, "save", "", byStep ? Math.floor(rnd() * 10) : -1, rnd() * 80);
      // A save never writes in the workspace, finished or not.
      assert.deepEqual(picture(p.root, true), now);
      const c = await check();
      if (id) {
        finished++;
        known.set(id, now);
        assert.ok(c.list().some((r) => r.id === id));
      }
      await c.close();
    }

    for (let round = 0; round < rounds; round++) {
      const ids = [...known.keys()];
      const target = ids[Math.floor(rnd() * ids.length)];
      mutate(p.root, rnd);
      const before = picture(p.root, true);
      // Even rounds die at a step (a path written or removed), odd ones at a random moment.
      const byStep = round % 2 === 0;
      const done = await child(p, "restore", target, byStep ? Math.floor(rnd() * 10) : -1, rnd() * 80);
      const c = await check();
      const cut = c.interrupted !== null;
      if (c.interrupted) {
        interrupted++;
        assert.equal(c.interrupted.target, target);
        await c.finishRestore();
      }
      const after = picture(p.root, true);
      // Killed before the restore began (while it took its "before" checkpoint): nothing changed.
      if (!done && !cut && JSON.stringify(after) === JSON.stringify(before)) {
        await c.close();
        continue;
      }
      assert.deepEqual(after, known.get(target), `round ${round}, seed ${seed}`);
      await c.close();
    }
    console.log(`      ${finished} saves finished, ${interrupted} restores interrupted and finished`);
    // Restores were cut short, and finished: the rounds that die at a step mostly die in the middle of one
    // (one whose restore has fewer steps than its kill's, or that dies in its "before" save, does not).
    assert.ok(interrupted >= 1, `no restore was cut short in ${rounds} rounds (seed ${seed})`);
    assert.deepEqual(picture(join(p.root, ".git")), git);
  });
});
