/**
 * The few file operations the checkpoint store builds on: writes that are whole or absent after a
 * crash (temporary file, fsync, rename, fsync of the folder), and removals that ignore what is gone.
 */
import { randomBytes } from "node:crypto";
import { closeSync, constants, fsyncSync, openSync, renameSync, unlinkSync, writeSync } from "node:fs";
import { basename, dirname, join } from "node:path";

/** The error code of a failed file operation, if any. */
export function code(e: unknown): string | undefined {
  return (e as NodeJS.ErrnoException | undefined)?.code;
}

/** A name no other writer uses: a temporary file beside its final place. */
export function temporary(folder: string, name: string): string {
  return join(folder, `.${name}.${randomBytes(6).toString("hex")}.tmp`);
}

/** Makes a rename or a new name in `folder` survive a power loss (no-op where folders cannot be synced). */
export function syncFolder(folder: string): void {
  let fd: number;
  try {
    fd = openSync(folder, constants.O_RDONLY);
  } catch {
    return;
  }
  try {
    fsyncSync(fd);
  } catch {
    // Some file systems refuse fsync on a folder; the rename is still atomic there.
  } finally {
    closeSync(fd);
  }
}

/** Writes all of `data` to `fd`. */
export function writeAll(fd: number, data: Uint8Array): void {
  let at = 0;
  while (at < data.length) at += writeSync(fd, data, at, data.length - at);
}

/** Writes `path` so that after a crash it holds either its old content or all of `data`. */
export function writeWhole(path: string, data: Uint8Array | string, sync = true): void {
  const bytes = typeof data === "string" ? Buffer.from(data) : data;
  const tmp = temporary(dirname(path), basename(path));
  const fd = openSync(tmp, constants.O_WRONLY | constants.O_CREAT | constants.O_EXCL, 0o600);
  try {
    writeAll(fd, bytes);
    if (sync) fsyncSync(fd);
  } catch (e) {
    closeSync(fd);
    removeQuietly(tmp);
    throw e;
  }
  closeSync(fd);
  renameSync(tmp, path);
  if (sync) syncFolder(dirname(path));
}

/** Removes a file; one already gone is fine. */
export function removeQuietly(path: string): void {
  try {
    unlinkSync(path);
  } catch (e) {
    if (code(e) !== "ENOENT") throw e;
  }
}
