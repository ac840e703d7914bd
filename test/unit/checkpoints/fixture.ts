/** Shared parts of the checkpoint tests: a workspace and a store in temp folders, and a picture of a tree. */
import { createHash } from "node:crypto";
import {
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  readlinkSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { random } from "../../fixtures/random";
import { Checkpoints, type Options } from "../../../src/chat/checkpoints/checkpoints";

export { random };

/** A workspace folder, a store folder beside it, and a folder outside both. */
export interface Place {
  root: string;
  store: string;
  outside: string;
  remove(): void;
}

/** Fresh temp folders (real paths). */
export function place(): Place {
  const top = realpathSync(mkdtempSync(join(tmpdir(), "tandem-ckpt-")));
  const p = { root: join(top, "ws"), store: join(top, "store"), outside: join(top, "outside") };
  for (const f of Object.values(p)) mkdirSync(f);
  return { ...p, remove: () => rmSync(top, { recursive: true, force: true }) };
}

/** Opens the store of `p` (options merged in). */
export function open(p: Place, o: Partial<Options> = {}): Promise<Checkpoints> {
  return Checkpoints.open({ root: p.root, folder: p.store, ...o });
}

/** Writes `files` (relative path to content) under `root`, making folders. */
export function write(root: string, files: Record<string, string | Buffer>): void {
  for (const [path, content] of Object.entries(files)) {
    const full = join(root, path);
    mkdirSync(dirname(full), { recursive: true });
    writeFileSync(full, content);
  }
}

/**
 * Every entry under `root` (`.git` included unless `skipGit`): a file as its mode and SHA-256, a
 * link as its target, a folder as its mode. Two equal pictures mean byte-for-byte equal trees.
 */
export function picture(root: string, skipGit = false): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (folder: string, prefix: string) => {
    for (const name of readdirSync(folder).sort()) {
      if (skipGit && name === ".git") continue;
      const abs = join(folder, name);
      const path = prefix + name;
      const s = lstatSync(abs);
      const mode = (s.mode & 0o7777).toString(8);
      if (s.isSymbolicLink()) out[path] = `link -> ${readlinkSync(abs)}`;
      else if (s.isDirectory()) {
        out[path] = `folder ${mode}`;
        walk(abs, `${path}/`);
      } else out[path] = `file ${mode} ${createHash("sha256").update(readFileSync(abs)).digest("hex")}`;
    }
  };
  walk(root, "");
  return out;
}
