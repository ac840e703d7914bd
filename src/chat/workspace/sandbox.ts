/**
 * The one decision about sandboxing commands — can they be sandboxed here, and how — and the
 * sandbox of one command. judge.ts consults `sandboxing()` (the person's allow rules apply only
 * where it answers a sandbox); run_command asks `jailFor` how to start each command: on Linux in
 * bubblewrap (sandbox-linux.ts), on macOS under `sandbox-exec` (sandbox-mac.ts), elsewhere plainly,
 * with the reason. The person's "Allow with network" (or a rule that carries it) is a permit
 * `jailFor` takes for that one command line.
 */

import { spawn } from "node:child_process";
import { constants } from "node:fs";
import { access, mkdtemp, realpath, rm, stat, writeFile } from "node:fs/promises";
import { homedir, tmpdir } from "node:os";
import { delimiter, join } from "node:path";
import { t } from "../../protocol/l10n";
import { homeConfig, secretsIn, within, type Hidden } from "./sandbox-home";
import { bwrapArgs, LINUX_SOCKETS, selfTestArgs, type Confinement } from "./sandbox-linux";
import { macProfile } from "./sandbox-mac";
import { holdMissing, protectedWithin } from "./sandbox-protect";

/** Whether commands can be sandboxed here: with which program, or why not. */
export type Sandboxing =
  | { kind: "bwrap"; program: string }
  | { kind: "sandbox-exec"; program: string }
  | { kind: "none"; why: string };

/** How one command starts: inside a sandbox (the program and its arguments before the shell), or plainly. */
export type Jail =
  | {
      sandboxed: true;
      program: string;
      args: string[];
      /** What the terminal says of it ("sandboxed: workspace writable, no network"). */
      how: string;
      /** Variables set for it inside (its temporary folder). */
      env: Record<string, string>;
      /** Removes what was made for it (macOS's temporary folder), once it ended. */
      cleanup?: () => void;
    }
  | { sandboxed: false; how: string };

/** How to get bubblewrap, as the person is told when it is missing. */
export function installHelp(): string {
  return t(
    "Install bubblewrap to have it: sudo apt install bubblewrap (Debian, Ubuntu), sudo dnf install bubblewrap (Fedora) or sudo pacman -S bubblewrap (Arch).",
  );
}

/** The first executable `name` on the PATH, if any. */
async function onPath(name: string): Promise<string | undefined> {
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const dir of [...dirs, "/usr/bin", "/bin"]) {
    const path = join(dir, name);
    if (
      await access(path, constants.X_OK).then(
        () => true,
        () => false,
      )
    )
      return path;
  }
  return undefined;
}

/** Runs `program` with `args` and answers its exit code and what it wrote to stderr (null code: it did not start or timed out). */
function tryRun(program: string, args: string[]): Promise<{ code: number | null; error: string }> {
  return new Promise((resolve) => {
    const child = spawn(program, args, { stdio: ["ignore", "ignore", "pipe"] });
    let error = "";
    child.stderr.on("data", (d: Buffer) => void (error += d.toString("utf8")));
    const timer = setTimeout(() => child.kill("SIGKILL"), 10_000);
    child.on("error", (e) => {
      clearTimeout(timer);
      resolve({ code: null, error: e.message });
    });
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, error: error.trim() });
    });
  });
}

/** bubblewrap at `program`, if it passes its self-test (user namespaces may be off, or AppArmor may refuse them). */
export async function probeBwrap(program: string | undefined): Promise<Sandboxing> {
  if (!program) return { kind: "none", why: `${t("bubblewrap (bwrap) is not installed.")} ${installHelp()}` };
  const { code, error } = await tryRun(program, selfTestArgs());
  if (code === 0) return { kind: "bwrap", program };
  return {
    kind: "none",
    why: t("bubblewrap ({0}) failed its self-test: {1}", program, error || t("exit code {0}", String(code))),
  };
}

/** Decides for `platform`: bubblewrap on Linux, sandbox-exec on macOS, nothing elsewhere. */
export async function decide(platform: NodeJS.Platform = process.platform): Promise<Sandboxing> {
  if (platform === "linux") return probeBwrap(await onPath("bwrap"));
  if (platform === "darwin") {
    const program = "/usr/bin/sandbox-exec";
    const there = await access(program, constants.X_OK).then(
      () => true,
      () => false,
    );
    return there ? { kind: "sandbox-exec", program } : { kind: "none", why: t("sandbox-exec is missing.") };
  }
  return { kind: "none", why: t("Tandem has no sandbox for commands on {0}.", platform) };
}

let decided: Promise<Sandboxing> | undefined;

/** Whether commands can be sandboxed on this machine (decided once). */
export function sandboxing(): Promise<Sandboxing> {
  return (decided ??= decide());
}

/** What the terminal says of a sandboxed command. */
function howOf(network: boolean, partial: boolean): string {
  const how = network
    ? t("sandboxed: workspace writable, network allowed")
    : t("sandboxed: workspace writable, no network");
  return partial ? `${how} ${t("(only the first folders were looked at for protected places)")}` : how;
}

/** Where one command runs: its workspace folder, its start folder, whether it may reach the network, the homes whose secrets are hidden. */
export interface JailOptions {
  root: string;
  cwd: string;
  network: boolean;
  /** Default: the account's home and the HOME the command is given, where they differ. */
  homes?: string[];
}

/** The account's home and the HOME variable's (a command reads its secrets through either). */
function homesOf(): string[] {
  return [...new Set([homedir(), process.env.HOME].filter((h): h is string => Boolean(h)))];
}

/** The hidden paths of `homes` and the sockets beside them, each once by its real path. */
async function hiddenOf(homes: string[], linux: boolean): Promise<Hidden[]> {
  const hidden = (await Promise.all(homes.map(secretsIn))).flat();
  if (linux) {
    for (const path of LINUX_SOCKETS) {
      const real = await realpath(path).catch(() => undefined);
      const s = real ? await stat(real).catch(() => undefined) : undefined;
      if (real && s) hidden.push({ path: real, folder: s.isDirectory() });
    }
  }
  return hidden;
}

let emptyFile: Promise<string> | undefined;

/** An empty file of this process's own, read-only, to put over the secret files a command must not read. */
function empty(): Promise<string> {
  return (emptyFile ??= (async () => {
    const path = join(await mkdtemp(join(tmpdir(), "tandem-empty-")), "empty");
    await writeFile(path, "", { mode: 0o444 });
    return path;
  })());
}

/** Each hidden path once. */
function unique(hidden: Hidden[]): Hidden[] {
  return [...new Map(hidden.map((h) => [h.path, h])).values()];
}

/** How to start one command under `s` (see `sandboxing`). */
export async function jailFor(s: Sandboxing, o: JailOptions): Promise<Jail> {
  if (s.kind === "none") return { sandboxed: false, how: t("not sandboxed: {0}", s.why) };
  const homes = o.homes ?? homesOf();
  const root = await realpath(o.root).catch(() => o.root);
  const cwd = await realpath(o.cwd).catch(() => o.cwd);
  // bubblewrap mounts only what exists: a missing `.git` or `.vscode` is held by an empty folder (macOS
  // denies the making of protected places by pattern).
  const held = s.kind === "bwrap" ? await holdMissing(root) : undefined;
  const found = await protectedWithin(root);
  const c: Confinement = {
    writable: [root],
    readOnly: [...found.paths, ...(await Promise.all(homes.map((h) => homeConfig(h, [root])))).flat()],
    // A secret folder the person opened as the workspace is theirs to work in.
    hidden: unique(await hiddenOf(homes, s.kind === "bwrap")).filter((h) => !within(h.path, root)),
    network: o.network,
    cwd,
    empty: await empty(),
  };
  const how = howOf(o.network, found.partial);
  if (s.kind === "bwrap")
    return {
      sandboxed: true,
      program: s.program,
      args: [...bwrapArgs(c), "--"],
      how,
      env: { TMPDIR: "/tmp" },
      cleanup: () => held?.release(),
    };
  const tmp = await realpath(await mkdtemp(join(tmpdir(), "tandem-sandbox-")));
  return {
    sandboxed: true,
    program: s.program,
    args: ["-p", macProfile(c, tmp)],
    how,
    env: { TMPDIR: tmp },
    cleanup: () => void rm(tmp, { recursive: true, force: true }).catch(() => undefined),
  };
}

/** How long a network permit waits for its command to run. */
const PERMIT_MS = 10 * 60_000;

/** Command lines the person let reach the network, each until its next run (or until the permit lapses). */
const permits = new Map<string, number>();

/**
 * Whether the next run of `command` may reach the network, as its latest approval said: yes when the person
 * chose "Allow with network" or a rule that carries it allowed it; no otherwise, so that a permit whose run
 * never came (the answer stopped first) does not pass to a later approval of the same line that gave none.
 */
export function permitNetwork(command: string, network = true): void {
  if (network) permits.set(command, Date.now() + PERMIT_MS);
  else permits.delete(command);
}

/** True (once) when the next run of `command` may reach the network. */
export function takeNetwork(command: string): boolean {
  const until = permits.get(command);
  permits.delete(command);
  return until !== undefined && until >= Date.now();
}
