/**
 * The sandbox on Linux: bubblewrap's arguments for one command. The whole file system read-only,
 * a new /dev, /proc and /tmp, the workspace folder writable but its protected places, the person's
 * secrets and their session's sockets (the keyring's and the editor's bus, agents, Docker) hidden,
 * its own process tree that ends with the command, no capabilities even for root, and no network
 * unless it was allowed.
 */

import type { Hidden } from "./sandbox-home";

/** What the sandbox keeps one command to. */
export interface Confinement {
  /** The workspace folders the command may write (real paths). */
  writable: string[];
  /** Places inside them kept read-only (real paths, parents first). */
  readOnly: string[];
  /** The person's secrets and sockets, hidden behind an empty folder or file. */
  hidden: Hidden[];
  /** It may reach the network. */
  network: boolean;
  /** The folder it starts in. */
  cwd: string;
  /** An empty read-only file put over hidden files (/dev/null cannot be: bound, it is a device on a nodev mount). */
  empty?: string;
}

/**
 * Sockets outside the home that reach past the sandbox: the per-person runtime folders (the
 * session bus and its keyring, ssh and gpg agents, VS Code's own sockets) and container engines.
 */
export const LINUX_SOCKETS = [
  "/run/user",
  "/run/docker.sock",
  "/run/containerd",
  "/run/podman",
  "/run/snapd.socket",
];

/** bubblewrap's arguments (before the command it runs) for `c`. */
export function bwrapArgs(c: Confinement): string[] {
  const args = ["--ro-bind", "/", "/", "--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp"];
  for (const folder of c.writable) args.push("--bind", folder, folder);
  for (const path of c.readOnly) args.push("--ro-bind", path, path);
  // After the workspace: a secret inside a writable folder (a workspace that is the home) is hidden too.
  for (const h of c.hidden)
    args.push(...(h.folder ? ["--tmpfs", h.path] : ["--ro-bind", c.empty ?? "/dev/null", h.path]));
  // Each namespace costs milliseconds to make: only those that keep something from the command
  // (the host's processes, its System V shared memory, its network); the host name and cgroup names are not secrets.
  args.push(
    "--unshare-pid",
    "--unshare-ipc",
    // Root keeps its capabilities in bubblewrap unless told: with them it could remount / writable.
    "--cap-drop",
    "ALL",
    "--die-with-parent",
    // No controlling terminal to type into (TIOCSTI): the command's output goes through pipes.
    "--new-session",
  );
  if (!c.network) args.push("--unshare-net");
  args.push("--chdir", c.cwd);
  return args;
}

/** The arguments of bubblewrap's self-test: the same shape as a command's, running `true`. */
export function selfTestArgs(): string[] {
  return [...bwrapArgs({ writable: [], readOnly: [], hidden: [], network: false, cwd: "/" }), "--", "true"];
}
