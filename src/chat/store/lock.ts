/**
 * The writer's lock of a journal: a file made with O_EXCL that holds its owner's pid, host and a
 * nonce. Whoever makes it is the one writer; a lock whose process is gone is taken over. Taking
 * over is itself guarded by a second exclusive file, so two windows that find the same stale lock
 * cannot both take it.
 */
import { randomBytes } from "node:crypto";
import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from "node:fs";
import { hostname } from "node:os";
import { t } from "../../protocol/l10n";

/** A write in a window that only reads: another window of this workspace holds the lock, so the conversations. */
export class ReadOnlyError extends Error {
  constructor() {
    super(
      t(
        "The conversations are open for writing in another window of this workspace; here they are read-only.",
      ),
    );
    this.name = "ReadOnlyError";
  }
}

interface Owner {
  pid: number;
  host: string;
  nonce: string;
}

/** A held lock. */
export interface Lock {
  readonly path: string;
  /** Gives the lock up (only if it is still ours). */
  release(): void;
}

// A lock or takeover file this young with nothing readable in it is still being written.
const YOUNG_MS = 10_000;

function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

function readOwner(path: string): Owner | null | "gone" {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (e) {
    if (code(e) === "ENOENT") return "gone";
    throw e;
  }
  try {
    const o = JSON.parse(text) as Partial<Owner>;
    if (typeof o.pid === "number" && typeof o.host === "string" && typeof o.nonce === "string") {
      return { pid: o.pid, host: o.host, nonce: o.nonce };
    }
  } catch {
    // An unreadable lock is judged by its age below.
  }
  return null;
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process is there, run by someone else.
    return code(e) === "EPERM";
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return Infinity;
  }
}

/** True when the lock at `path` belongs to nobody living (a process of another host counts as living). */
function stale(path: string, owner: Owner | null): boolean {
  if (owner === null) return ageMs(path) > YOUNG_MS;
  if (owner.host !== hostname()) return false;
  return !alive(owner.pid);
}

function create(path: string, owner: Owner): boolean {
  let fd: number;
  try {
    fd = openSync(path, "wx");
  } catch (e) {
    if (code(e) === "EEXIST") return false;
    throw e;
  }
  try {
    writeSync(fd, JSON.stringify(owner));
  } finally {
    closeSync(fd);
  }
  return true;
}

function remove(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if (code(e) !== "ENOENT") throw e;
  }
}

/** Takes the lock at `path`, or null when a living process holds it. */
export function tryLock(path: string): Lock | null {
  const me: Owner = { pid: process.pid, host: hostname(), nonce: randomBytes(8).toString("hex") };
  const held: Lock = {
    path,
    release() {
      const owner = readOwner(path);
      if (owner !== "gone" && owner?.nonce === me.nonce) remove(path);
    },
  };
  if (create(path, me)) return held;
  const found = readOwner(path);
  if (found === "gone") return create(path, me) ? held : null;
  if (!stale(path, found)) return null;
  const guard = `${path}.takeover`;
  if (!create(guard, me)) {
    // A takeover left by a process that died in it is old; clear it for the next try.
    if (ageMs(guard) > YOUNG_MS) remove(guard);
    return null;
  }
  try {
    const again = readOwner(path);
    if (again !== "gone") {
      if (JSON.stringify(again) !== JSON.stringify(found) || !stale(path, again)) return null;
      remove(path);
    }
    return create(path, me) ? held : null;
  } finally {
    remove(guard);
  }
}
