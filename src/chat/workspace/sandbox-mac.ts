/**
 * The sandbox on macOS: a `sandbox-exec` profile (Seatbelt's language) for one command. Reading
 * is allowed but for the person's secrets; writing only in the workspace folder (never its
 * protected places, nor a `.git` or `.vscode` made there later), a private temporary folder and the
 * terminal's devices; the network only when it was allowed. macOS gives no process tree of its
 * own: stop ends the command's process group.
 */

import type { Confinement } from "./sandbox-linux";

/** A string in the profile's language: quoted, its backslashes and quotes escaped. */
export function quoted(text: string): string {
  return `"${text.replace(/\\/g, "\\\\").replace(/"/g, '\\"')}"`;
}

/** A regular expression matching `text` literally (a quote, which the profile's `#"…"` cannot hold, matches any one character: a wider deny). */
function literally(text: string): string {
  return text.replace(/[.*+?^$()[\]{}|\\/]/g, "\\$&").replace(/"/g, ".");
}

/** A filter for a path and, when it is a folder, everything under it. */
function place(path: string, folder: boolean): string {
  return folder ? `(subpath ${quoted(path)})` : `(literal ${quoted(path)})`;
}

/** Folders that must never be made writable anywhere in the workspace, even when they do not exist yet. */
const NEVER_WRITTEN = [".git", ".vscode"];

/** The profile for `c`, with `tmp` its private temporary folder. */
export function macProfile(c: Confinement, tmp: string): string {
  const lines = [
    "(version 1)",
    "(deny default)",
    "(allow process-exec)",
    "(allow process-fork)",
    "(allow signal (target same-sandbox))",
    "(allow sysctl-read)",
    "(allow mach-lookup)",
    "(allow ipc-posix-shm)",
    "(allow ipc-posix-sem)",
    "(allow pseudo-tty)",
    "(allow file-ioctl)",
    "(allow file-read*)",
  ];
  if (c.hidden.length) {
    lines.push(`(deny file-read* file-write* ${c.hidden.map((h) => place(h.path, h.folder)).join(" ")})`);
  }
  const writable = [...c.writable.map((w) => place(w, true)), place(tmp, true)];
  lines.push(
    `(allow file-write* ${writable.join(" ")} (literal "/dev/null") (literal "/dev/zero") (regex #"^/dev/tty") (regex #"^/dev/fd/"))`,
  );
  const kept = c.readOnly.map((path) => place(path, true));
  for (const folder of c.writable) {
    for (const name of NEVER_WRITTEN)
      kept.push(`(regex #"^${literally(folder)}/(.*/)?${literally(name)}(/|$)")`);
  }
  if (kept.length) lines.push(`(deny file-write* ${kept.join(" ")})`);
  if (c.network) lines.push("(allow network*)", "(allow system-socket)");
  return `${lines.join("\n")}\n`;
}
