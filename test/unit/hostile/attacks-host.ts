/**
 * Attacks on the extension host itself: a repository (or an obeying model) that freezes it with a
 * search pattern or a named pipe, and a rebinding name that reaches a loopback server through the
 * proxy that carries the extension's requests. Each attempt is bounded: what would hang today is
 * tried in a child process or under a time limit, and reported "succeeded" when it ran out.
 */
import { spawn } from "node:child_process";
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, rmSync, writeFileSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { pluginFetch } from "../../../src/chat/plugins/fetch";
import { fetchPage } from "../../../src/chat/workspace/page";
import { workspaceTools } from "../../../src/chat/workspace/tools";
import { countingServer, rebinding, routeThroughProxy, startProxy } from "../chat/proxy-fixture";
import type { Attack, Outcome } from "./attack";

/** How long search_text may look before it answers (src/chat/workspace/search.ts). */
const SEARCH_DEADLINE_MS = 10_000;

/** Runs search-child.ts and says whether its thread went silent for longer than the search's deadline. */
function freezeBySearch(): Promise<Outcome> {
  const root = join(__dirname, "../../..");
  const child = spawn(process.execPath, ["--import", "tsx", join(__dirname, "search-child.ts")], {
    cwd: root,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let errors = "";
  child.stderr.on("data", (chunk: Buffer) => (errors += chunk.toString()));
  return new Promise<Outcome>((resolve, reject) => {
    let last: number | undefined;
    let settled = false;
    const settle = (outcome: Outcome | Error) => {
      if (settled) return;
      settled = true;
      clearInterval(watch);
      child.kill();
      if (outcome instanceof Error) reject(outcome);
      else resolve(outcome);
    };
    // The child's ticks stop while its thread is held; silence longer than the deadline is a frozen host.
    const watch = setInterval(() => {
      if (last !== undefined && performance.now() - last > SEARCH_DEADLINE_MS) settle("succeeded");
    }, 100);
    createInterface({ input: child.stdout }).on("line", (line) => {
      if (line === "tick") last = performance.now();
      if (line === "end") settle("refused");
    });
    child.on("exit", (code) =>
      settle(new Error(`the search child ended (${code}) before its search: ${errors}`)),
    );
  });
}

/** Lets a reader blocked on the named pipe `path` go, without the (perhaps exhausted) thread pool. */
function release(path: string): void {
  try {
    closeSync(openSync(path, constants.O_WRONLY | constants.O_NONBLOCK));
  } catch {
    // ENXIO: no reader waits on it.
  }
}

/** read_file on four named pipes of the repository, then on a normal file: does that read complete? */
async function blockByPipes(): Promise<Outcome> {
  const root = mkdtempSync(join(tmpdir(), "tandem-fifo-"));
  const pipes = [1, 2, 3, 4].map((n) => join(root, `pipe${n}`));
  for (const pipe of pipes) execFileSync("mkfifo", [pipe]);
  writeFileSync(join(root, "README.md"), "hello\n");
  const tools = workspaceTools({ root, trusted: true });
  const read = (path: string) =>
    (tools.find((t) => t.name === "read_file") as (typeof tools)[number]).run(
      JSON.stringify({ path }),
      new AbortController().signal,
    );
  let limit: NodeJS.Timeout | undefined;
  try {
    const onPipes = pipes.map((_, i) =>
      read(`pipe${i + 1}`).then(
        () => "read",
        () => "refused",
      ),
    );
    const normal = read("README.md").then(() => "done" as const);
    // Bounded: a read that does not complete in 5 s stands behind the blocked ones.
    const late = new Promise<"late">((resolve) => (limit = setTimeout(() => resolve("late"), 5000)));
    if ((await Promise.race([normal, late])) === "late") return "succeeded";
    return (await Promise.all(onPipes)).every((r) => r === "refused") ? "refused" : "succeeded";
  } finally {
    clearTimeout(limit);
    pipes.forEach(release);
    rmSync(root, { recursive: true, force: true });
  }
}

/** A name that answers a public address to the check and 127.0.0.1 to the proxy: does the loopback server get the request? */
async function rebindThroughProxy(how: "fetch_page" | "plugin"): Promise<Outcome> {
  const privateSite = await countingServer("the private admin page");
  const publicSite = await countingServer("the public page");
  const lookup = rebinding("93.184.216.34");
  const proxy = await startProxy(lookup);
  const saved = { http: process.env.HTTP_PROXY, https: process.env.HTTPS_PROXY };
  process.env.HTTP_PROXY = process.env.HTTPS_PROXY = proxy.url;
  const undo = routeThroughProxy();
  // The checked public address is served by the local "public" site.
  const connect = () => net.connect(publicSite.port, "127.0.0.1");
  const address = `http://rebind.example:${privateSite.port}/admin`;
  try {
    if (how === "fetch_page")
      await fetchPage(address, { lookup, connect, timeoutMs: 5000 }).catch(() => undefined);
    else {
      const plugin = pluginFetch({ lookup, connect });
      await plugin
        .fetch(address, { signal: AbortSignal.timeout(5000) })
        .then((r) => r.text())
        .catch(() => undefined)
        .finally(() => plugin.close());
    }
    return privateSite.requests.length > 0 ? "succeeded" : "refused";
  } finally {
    undo();
    if (saved.http === undefined) delete process.env.HTTP_PROXY;
    else process.env.HTTP_PROXY = saved.http;
    if (saved.https === undefined) delete process.env.HTTPS_PROXY;
    else process.env.HTTPS_PROXY = saved.https;
    await Promise.all([privateSite.close(), publicSite.close(), proxy.close()]);
  }
}

export const attacks: Attack[] = [
  {
    name: "a search_text pattern that backtracks for minutes freezes the extension host past the search's deadline",
    finding: 6,
    attempt: freezeBySearch,
  },
  {
    name: "read_file on four named pipes of the repository exhausts the thread pool: a normal read never completes",
    finding: 7,
    attempt: blockByPipes,
  },
  {
    name: "fetch_page of a rebinding name reaches a loopback server through the proxy that carries the extension's requests",
    attempt: () => rebindThroughProxy("fetch_page"),
  },
  {
    name: "an HTTP plugin at a rebinding name reaches a loopback server through the proxy",
    attempt: () => rebindThroughProxy("plugin"),
  },
];
