/**
 * Opening only regular files. A named pipe (FIFO) blocks the thread that opens or reads it until
 * someone writes to it, and a device such as /dev/zero never ends: four such reads occupy all of
 * libuv's thread pool, and every file read of the process waits behind them. So a file is checked
 * with `stat` before it is opened, opened with O_NONBLOCK (a path swapped for a FIFO between the
 * check and the open does not block the open), and checked again on the open handle (`fstat`).
 */

import { constants, type Stats } from "node:fs";
import { open, stat, type FileHandle } from "node:fs/promises";

/** A path that is not a regular file (a folder, a named pipe, a device, a socket). */
export class NotRegularError extends Error {
  readonly code = "ENOTREGULAR";
  constructor(
    /** What it is, in words ("a named pipe (FIFO)"). */
    readonly kind: string,
    message: string,
  ) {
    super(message);
    this.name = "NotRegularError";
  }
}

/** What a file that is not regular is, in words. */
function kindOf(s: Stats): string {
  if (s.isDirectory()) return "a folder";
  if (s.isFIFO()) return "a named pipe (FIFO)";
  if (s.isCharacterDevice()) return "a character device";
  if (s.isBlockDevice()) return "a block device";
  if (s.isSocket()) return "a socket";
  return "not a regular file";
}

/** The refusal of `s`, which is not a regular file, named `name`. */
function refusal(name: string, s: Stats): NotRegularError {
  const kind = kindOf(s);
  return new NotRegularError(kind, `${name} is ${kind}, not a regular file; only regular files are read.`);
}

// Windows has no O_NONBLOCK (and no FIFOs in the file system): 0 leaves the flags as they are.
const FLAGS = constants.O_RDONLY | (constants.O_NONBLOCK ?? 0);

/** The open handle of `path` and its size, refusing anything but a regular file (named `name` in refusals). */
export async function openRegular(path: string, name = path): Promise<{ handle: FileHandle; size: number }> {
  const before = await stat(path);
  if (!before.isFile()) throw refusal(name, before);
  const handle = await open(path, FLAGS);
  try {
    const now = await handle.stat();
    if (!now.isFile()) throw refusal(name, now);
    return { handle, size: now.size };
  } catch (error) {
    await handle.close();
    throw error;
  }
}

/** The bytes of the regular file `path` (refusing other kinds, see `openRegular`). */
export async function readRegular(path: string, name = path): Promise<Buffer> {
  const { handle } = await openRegular(path, name);
  try {
    return await handle.readFile();
  } finally {
    await handle.close();
  }
}
